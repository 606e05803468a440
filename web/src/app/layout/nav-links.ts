export const NAV_LINKS = [
  { href: "/", label: "Home" },
  { href: "/tournaments", label: "Tournaments" },
  { href: "/leaderboards", label: "Leaderboards" },
  { href: "/how-it-works", label: "How It Works" },
] as const;

/** Active when the path equals the link or, for non-root links, starts with it. */
export const isActiveLink = (pathname: string, href: string) => pathname === href || (href !== "/" && pathname.startsWith(href));
