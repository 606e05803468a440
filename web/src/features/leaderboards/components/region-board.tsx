import { useState } from "react";
import { Link } from "react-router";
import { Globe, MapPin } from "lucide-react";
import { EmptyState } from "@/components/empty-state";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useUser } from "@/lib/session";
import { countryName } from "@/lib/countries";
import { useLeaderboard, type LeaderboardPeriod } from "../api";
import { PlayersTable } from "./players-table";

type Scope = "global" | "region";

/** The ranking with Global / Your Region pills; the region is the country on the player's profile. */
export function RegionBoard({ limit, period }: { limit?: number; period: LeaderboardPeriod }) {
  const { user } = useUser();
  const [scope, setScope] = useState<Scope>("global");
  const country = user?.country ?? null;
  const regional = scope === "region";
  const board = useLeaderboard(period, regional ? country : null, { enabled: !regional || country !== null });
  const entries = board.data ?? [];
  const shown = limit ? entries.slice(0, limit) : entries;
  const where = country ? countryName(country) : null;

  return (
    <div>
      <div className="mb-4 flex gap-2" role="group" aria-label="Leaderboard scope">
        {(["global", "region"] as const).map((s) => (
          <Button key={s} size="sm" variant={scope === s ? "default" : "outline"} aria-pressed={scope === s} onClick={() => setScope(s)}>
            {s === "global" ? <Globe className="h-4 w-4" aria-hidden /> : <MapPin className="h-4 w-4" aria-hidden />}
            {s === "global" ? "Global" : "Your Region"}
          </Button>
        ))}
      </div>
      {regional && !user ? (
        <EmptyState icon={MapPin} title="Sign in to see your region" description="Regional rankings use the country on your profile.">
          <Button asChild size="sm">
            <Link to="/auth">Sign In</Link>
          </Button>
        </EmptyState>
      ) : regional && !country ? (
        <EmptyState icon={MapPin} title="No country set" description="Choose your country in your profile to see the players from it.">
          <Button asChild size="sm">
            <Link to="/profile">Edit Profile</Link>
          </Button>
        </EmptyState>
      ) : board.isLoading ? (
        <Spinner className="mx-auto my-10" label="Loading leaderboard" />
      ) : board.error ? (
        <p className="py-8 text-center text-sm text-destructive">{board.error.message}</p>
      ) : shown.length > 0 ? (
        <PlayersTable entries={shown} userId={user?.id} />
      ) : (
        <EmptyState
          icon={regional ? MapPin : Globe}
          title={
            period === "week"
              ? regional
                ? `No prize winners from ${where} this week yet`
                : "No prize winners this week yet"
              : regional
                ? `No ranked players from ${where} yet`
                : "No ranked players yet"
          }
          description={
            period === "week"
              ? "Players appear here once they win a prize in the last seven days."
              : "Players appear here once they have played their first tournament."
          }
        />
      )}
    </div>
  );
}
