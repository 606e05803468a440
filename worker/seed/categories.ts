// The eight categories of the home page. `icon` names a lucide icon the web app renders.
export const SEED_CATEGORIES = [
  {
    slug: "general-knowledge",
    name: "General Knowledge",
    icon: "brain",
    description: "A bit of everything: language, food, everyday facts and famous firsts.",
  },
  { slug: "technology", name: "Technology", icon: "cpu", description: "Computers, the internet, inventions and the people behind them." },
  { slug: "science", name: "Science", icon: "flask-conical", description: "Physics, chemistry, biology, space and the human body." },
  {
    slug: "history",
    name: "History",
    icon: "landmark",
    description: "Empires, revolutions, explorers and the events that shaped the world.",
  },
  {
    slug: "movies-tv",
    name: "Movies & TV",
    icon: "film",
    description: "Classic films, blockbusters, directors and television favourites.",
  },
  { slug: "sports", name: "Sports", icon: "trophy", description: "Rules, records of the past, great teams and legendary athletes." },
  { slug: "music", name: "Music", icon: "music", description: "Bands, composers, instruments and landmark albums." },
  { slug: "geography", name: "Geography", icon: "globe", description: "Capitals, rivers, mountains, flags and countries of the world." },
] as const;

export type CategorySlug = (typeof SEED_CATEGORIES)[number]["slug"];
