import { Link, useParams } from "react-router";
import { CalendarDays, MapPin, UserX } from "lucide-react";
import { tierForLevel, winRate } from "@common/domain/levels";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { PageSpinner } from "@/components/ui/spinner";
import { SocialLinkList } from "@/components/social-links";
import { UserAvatar } from "@/components/user-avatar";
import { isNotFound, usePlayer } from "./api";

/** /players/:username — what a player chose to show; hidden fields (null) are left out, not zeroed. */
export default function PlayerProfilePage() {
  const username = useParams().username ?? "";
  const { data: player, isLoading, error } = usePlayer(username);

  if (isLoading) return <PageSpinner />;
  if (!player) {
    return (
      <div className="mx-auto max-w-lg px-4 py-16 text-center">
        <UserX className="mx-auto h-12 w-12 text-muted-foreground" aria-hidden />
        <h1 className="mt-4 text-2xl font-bold">{isNotFound(error) ? "Player Not Found" : "Profile Unavailable"}</h1>
        <p className="mt-2 text-muted-foreground">
          {isNotFound(error) ? "There is no player with that name." : "This profile could not be loaded. Please try again later."}
        </p>
        <Button asChild className="mt-6">
          <Link to="/leaderboards">Back to Leaderboards</Link>
        </Button>
      </div>
    );
  }

  return (
    <div className="mx-auto max-w-3xl px-4 py-10">
      <Card>
        <CardContent className="flex flex-col items-center gap-6 p-6 text-center sm:flex-row sm:items-start sm:text-left">
          <UserAvatar user={player} className="h-28 w-28 text-3xl" />
          <div className="min-w-0 flex-1 space-y-3">
            <div className="flex flex-wrap items-center justify-center gap-2 sm:justify-start">
              <h1 className="text-2xl font-bold break-all">{player.username}</h1>
              {player.level !== null && (
                <Badge>
                  Level {player.level} · {tierForLevel(player.level)}
                </Badge>
              )}
            </div>
            <div className="flex flex-wrap justify-center gap-x-4 gap-y-1 text-sm text-muted-foreground sm:justify-start">
              {player.location && (
                <span className="flex items-center gap-1">
                  <MapPin className="h-3.5 w-3.5" aria-hidden /> {player.location}
                </span>
              )}
              <span className="flex items-center gap-1">
                <CalendarDays className="h-3.5 w-3.5" aria-hidden /> Joined{" "}
                {new Date(player.createdAt).toLocaleDateString(undefined, { year: "numeric", month: "long" })}
              </span>
            </div>
            {player.bio && <p className="whitespace-pre-line text-sm">{player.bio}</p>}
            {player.socialLinks && <SocialLinkList links={player.socialLinks} className="justify-center sm:justify-start" />}
          </div>
        </CardContent>
      </Card>
      <dl className="mt-6 grid grid-cols-2 gap-4 sm:grid-cols-3">
        <Stat label="Tournaments Played" value={String(player.tournamentsPlayed)} />
        {player.tournamentsWon !== null && <Stat label="Tournaments Won" value={String(player.tournamentsWon)} />}
        {player.tournamentsWon !== null && <Stat label="Win Rate" value={`${winRate(player.tournamentsWon, player.tournamentsPlayed)}%`} />}
      </dl>
    </div>
  );
}

function Stat({ label, value }: { label: string; value: string }) {
  return (
    <Card>
      <CardContent className="p-5">
        <dt className="text-sm text-muted-foreground">{label}</dt>
        <dd className="mt-1 text-2xl font-bold">{value}</dd>
      </CardContent>
    </Card>
  );
}
