import { Trophy } from "lucide-react";
import { RegionBoard } from "./region-board";

/** /leaderboards: the global ranking by prize winnings, linking to public profiles. */
export default function LeaderboardsPage() {
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="flex items-center gap-2 text-3xl font-bold">
        <Trophy className="h-7 w-7 text-primary" aria-hidden /> Leaderboards
      </h1>
      <p className="mt-1 mb-6 text-muted-foreground">Players ranked by total prize winnings, then tournaments won.</p>
      <RegionBoard />
    </div>
  );
}
