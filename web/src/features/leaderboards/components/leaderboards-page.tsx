import { useState } from "react";
import { Trophy } from "lucide-react";
import { Button } from "@/components/ui/button";
import type { LeaderboardPeriod } from "../api";
import { RegionBoard } from "./region-board";

const PERIODS: { value: LeaderboardPeriod; label: string; text: string }[] = [
  { value: "all", label: "All Time", text: "Players ranked by total prize winnings, then tournaments won." },
  { value: "week", label: "This Week", text: "Players ranked by the prizes they won in the last seven days." },
];

/** /leaderboards: the ranking by prize winnings, all time or this week, linking to public profiles. */
export default function LeaderboardsPage() {
  const [period, setPeriod] = useState<LeaderboardPeriod>("all");
  return (
    <div className="mx-auto max-w-5xl px-4 py-8">
      <h1 className="flex items-center gap-2 text-3xl font-bold">
        <Trophy className="h-7 w-7 text-primary" aria-hidden /> Leaderboards
      </h1>
      <div className="mt-3 flex gap-2" role="group" aria-label="Leaderboard period">
        {PERIODS.map((p) => (
          <Button
            key={p.value}
            size="sm"
            variant={period === p.value ? "default" : "outline"}
            aria-pressed={period === p.value}
            onClick={() => setPeriod(p.value)}
          >
            {p.label}
          </Button>
        ))}
      </div>
      <p className="mt-2 mb-6 text-muted-foreground">{PERIODS.find((p) => p.value === period)!.text}</p>
      <RegionBoard period={period} />
    </div>
  );
}
