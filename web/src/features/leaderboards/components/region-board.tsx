import { useState } from "react";
import { Link } from "react-router";
import { Globe, MapPin } from "lucide-react";
import type { GlobalLeaderboardEntry } from "@common/api/tournaments";
import { EmptyState } from "@/components/empty-state";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { useUser } from "@/features/auth/api";
import { useGlobalLeaderboard } from "@/features/tournaments/api";
import { inRegion, regionOf } from "../region";
import { PlayersTable } from "./players-table";

type Scope = "global" | "region";

/** The global ranking with Global / Your Region pills; the region comes from the player's location. */
export function RegionBoard({ limit }: { limit?: number }) {
  const { user } = useUser();
  const { data, isLoading, error } = useGlobalLeaderboard();
  const [scope, setScope] = useState<Scope>("global");
  const region = regionOf(user?.location);

  const entries: GlobalLeaderboardEntry[] = scope === "global" ? (data ?? []) : region ? inRegion(data ?? [], region) : [];
  const shown = limit ? entries.slice(0, limit) : entries;

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
      {isLoading ? (
        <Spinner className="mx-auto my-10" label="Loading leaderboard" />
      ) : error ? (
        <p className="py-8 text-center text-sm text-destructive">{error.message}</p>
      ) : shown.length > 0 ? (
        <PlayersTable entries={shown} userId={user?.id} />
      ) : scope === "region" && !user ? (
        <EmptyState icon={MapPin} title="Sign in to see your region" description="Regional rankings use the location on your profile.">
          <Button asChild size="sm">
            <Link to="/auth">Sign In</Link>
          </Button>
        </EmptyState>
      ) : scope === "region" && !region ? (
        <EmptyState icon={MapPin} title="No location set" description="Add your location ('City, Country') to your profile to see players from your region.">
          <Button asChild size="sm">
            <Link to="/profile">Edit Profile</Link>
          </Button>
        </EmptyState>
      ) : (
        <EmptyState
          icon={scope === "region" ? MapPin : Globe}
          title={scope === "region" ? `No ranked players from ${region} yet` : "No ranked players yet"}
          description={scope === "region" ? `Players from ${region} appear here once they are ranked in your region.` : "Players appear here once they have played their first tournament."}
        />
      )}
    </div>
  );
}
