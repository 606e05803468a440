import { Link } from "react-router";
import { Award, DollarSign, Globe, Percent, Trophy } from "lucide-react";
import type { UserStats } from "@common/api/tournaments";
import type { User } from "@common/api/types";
import { formatCents, dollarsToCents } from "@common/domain/money";
import { levelProgress, tierForLevel, winRate } from "@common/domain/levels";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent } from "@/components/ui/card";
import { Progress } from "@/components/ui/progress";
import { UserAvatar } from "@/components/user-avatar";

/** Avatar, name, level, won/played and the XP bar (the same progress figure as the profile page). */
export function PlayerSummary({ user }: { user: User }) {
  const progress = levelProgress(user.experiencePoints);
  return (
    <Card>
      <CardContent className="flex flex-col gap-5 p-6 sm:flex-row sm:items-center">
        <UserAvatar user={user} className="h-20 w-20 text-2xl" />
        <div className="min-w-0 flex-1 space-y-3">
          <div className="flex flex-wrap items-center gap-2">
            <h1 className="text-2xl font-bold break-all">{user.username}</h1>
            {user.level > 0 && (
              <Badge>
                Level {user.level} · {tierForLevel(user.level)}
              </Badge>
            )}
          </div>
          <p className="text-sm text-muted-foreground">
            <Trophy className="mr-1 inline h-4 w-4 align-[-2px]" aria-hidden />
            {user.tournamentsWon} won / {user.tournamentsPlayed} played
            <Link to="/profile" className="ml-3 text-primary hover:underline">
              Edit profile
            </Link>
          </p>
          <div>
            <div className="mb-1 flex justify-between text-xs text-muted-foreground">
              <span>{user.experiencePoints.toLocaleString()} XP</span>
              <span>
                {progress.xpToNext.toLocaleString()} XP until level {progress.nextLevel}
              </span>
            </div>
            <Progress value={progress.percent} label="Experience toward the next level" />
          </div>
        </div>
      </CardContent>
    </Card>
  );
}

function StatCard({ label, value, hint, icon }: { label: string; value: string; hint?: string; icon: React.ReactNode }) {
  return (
    <Card>
      <CardContent className="flex items-start justify-between gap-3 p-5">
        <div>
          <p className="text-sm text-muted-foreground">{label}</p>
          <p className="mt-1 text-2xl font-bold">{value}</p>
          {hint && <p className="mt-1 text-xs text-muted-foreground">{hint}</p>}
        </div>
        <span className="rounded-lg bg-accent p-2 text-accent-foreground" aria-hidden>
          {icon}
        </span>
      </CardContent>
    </Card>
  );
}

/** Tournaments Played, Win Rate, Total Earnings (prizes won) and Global Rank. */
export function StatCards({ user, stats, statsLoading }: { user: User; stats: UserStats | undefined; statsLoading: boolean }) {
  const pending = statsLoading ? "…" : "—";
  return (
    <section aria-label="Your statistics" className="grid grid-cols-2 gap-4 lg:grid-cols-4">
      <StatCard label="Tournaments Played" value={String(user.tournamentsPlayed)} icon={<Award className="h-5 w-5" />} />
      <StatCard
        label="Win Rate"
        value={`${winRate(user.tournamentsWon, user.tournamentsPlayed)}%`}
        hint={`${user.tournamentsWon} of ${user.tournamentsPlayed} won`}
        icon={<Percent className="h-5 w-5" />}
      />
      <StatCard
        label="Total Earnings"
        value={stats ? `$${formatCents(dollarsToCents(stats.totalEarnings))}` : pending}
        hint="Prizes won"
        icon={<DollarSign className="h-5 w-5" />}
      />
      <StatCard
        label="Global Rank"
        value={stats?.rank ? `#${stats.rank}` : stats ? "—" : pending}
        hint={stats && !stats.rank ? "Play a tournament to be ranked" : undefined}
        icon={<Globe className="h-5 w-5" />}
      />
    </section>
  );
}
