// Achievements are earned from the player's real record; nothing is awarded by hand.
import type { UserStats, UserTournamentEntry } from "@common/api/tournaments";
import type { User } from "@common/api/types";

export interface Achievement {
  id: string;
  title: string;
  description: string;
  earned: boolean;
  /** "3/10" while locked, when the goal is a count. */
  progress?: string;
}

interface PlayerRecord {
  user: Pick<User, "level" | "tournamentsPlayed" | "tournamentsWon">;
  stats: Pick<UserStats, "correctAnswers" | "fastestResponseTime" | "totalEarnings"> | undefined;
  tournaments: Pick<UserTournamentEntry, "status" | "rank">[] | undefined;
}

const counted = (id: string, title: string, description: string, have: number, goal: number): Achievement => ({
  id,
  title,
  description,
  earned: have >= goal,
  progress: have >= goal ? undefined : `${Math.max(0, have)}/${goal}`,
});

export function achievementsFor({ user, stats, tournaments }: PlayerRecord): Achievement[] {
  const podium = (tournaments ?? []).some((t) => t.status === "completed" && t.rank !== null && t.rank <= 3);
  const fastest = stats?.fastestResponseTime ?? null;
  return [
    counted("first-tournament", "First Steps", "Play your first tournament", user.tournamentsPlayed, 1),
    counted("first-win", "First Victory", "Win a tournament", user.tournamentsWon, 1),
    counted("ten-correct", "Sharp Mind", "Answer 10 questions correctly", stats?.correctAnswers ?? 0, 10),
    counted("level-3", "Rising Star", "Reach level 3 (Intermediate)", user.level, 3),
    { id: "podium", title: "On the Podium", description: "Finish a tournament in the top 3", earned: podium },
    { id: "first-prize", title: "In the Money", description: "Win a cash prize", earned: (stats?.totalEarnings ?? 0) > 0 },
    { id: "quick-draw", title: "Quick Draw", description: "Answer a question in under 2 seconds", earned: fastest !== null && fastest < 2 },
    counted("ten-tournaments", "Regular", "Play 10 tournaments", user.tournamentsPlayed, 10),
  ];
}
