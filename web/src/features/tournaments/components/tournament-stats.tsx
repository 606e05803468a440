import { CalendarClock, ShieldCheck, Trophy, Users } from "lucide-react";
import type { TournamentDetail } from "@common/api/tournaments";
import { formatCents } from "@common/domain/money";
import { levelRequirementText, minLevelLabel } from "@common/domain/levels";
import { Card, CardContent } from "@/components/ui/card";
import { Progress } from "@/components/ui/progress";
import { displayedPoolCents, formatStart, poolSplitCents } from "../display";
import { isPractice } from "../join-checks";

const PLACES = ["1st", "2nd", "3rd"];

function Stat({ icon: Icon, label, children }: { icon: typeof Users; label: string; children: React.ReactNode }) {
  return (
    <Card>
      <CardContent className="pt-5">
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <Icon className="h-4 w-4" aria-hidden /> {label}
        </p>
        <div className="mt-2">{children}</div>
      </CardContent>
    </Card>
  );
}

/** Participants, prize pool and split, start time with countdown, level requirement. */
export function TournamentStats({
  tournament: t,
  countdownLabel,
  status,
}: {
  tournament: TournamentDetail;
  countdownLabel: string;
  status: TournamentDetail["status"];
}) {
  const practice = isPractice(t);
  const split = poolSplitCents(t);
  return (
    <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <Stat icon={Users} label="Participants">
        <p className="text-2xl font-bold">
          {t.currentParticipants}
          {t.maxParticipants != null && <span className="text-base font-normal text-muted-foreground"> / {t.maxParticipants}</span>}
        </p>
        {t.maxParticipants != null ? (
          <Progress className="mt-3" value={(t.currentParticipants / t.maxParticipants) * 100} label="Places taken" />
        ) : (
          <p className="mt-1 text-xs text-muted-foreground">No participant limit</p>
        )}
        {status === "upcoming" && t.minPlayers > 0 && (
          <p className="mt-2 text-xs text-muted-foreground">At least {t.minPlayers} players needed to start</p>
        )}
      </Stat>
      <Stat icon={Trophy} label="Prize Pool">
        {practice ? (
          <>
            <p className="text-2xl font-bold">None</p>
            <p className="mt-1 text-xs text-muted-foreground">Practice tournaments award XP, not prizes</p>
          </>
        ) : (
          <>
            <p className="text-2xl font-bold">${formatCents(displayedPoolCents(t))}</p>
            {split.length > 0 ? (
              <ul className="mt-2 flex flex-wrap gap-x-3 gap-y-1 text-xs text-muted-foreground">
                {split.map((cents, i) => (
                  <li key={PLACES[i]}>
                    {PLACES[i]}: <span className="font-medium text-foreground">${formatCents(cents)}</span>
                  </li>
                ))}
              </ul>
            ) : (
              <p className="mt-1 text-xs text-muted-foreground">Grows with every paid entry (85% of entry fees)</p>
            )}
          </>
        )}
      </Stat>
      <Stat icon={CalendarClock} label="Start Time">
        <p className="text-lg font-semibold">{formatStart(t.startTime)}</p>
        <p className="mt-1 text-sm text-muted-foreground">
          {status === "upcoming"
            ? countdownLabel
            : status === "live"
              ? "Live now"
              : status === "cancelled"
                ? "Cancelled"
                : t.endTime
                  ? `Ended ${formatStart(t.endTime)}`
                  : "Ended"}
        </p>
      </Stat>
      <Stat icon={ShieldCheck} label="Level Requirement">
        <p className="text-2xl font-bold">{minLevelLabel(practice ? 1 : t.minLevel)}</p>
        <p className="mt-1 text-xs text-muted-foreground">{levelRequirementText(practice ? 1 : t.minLevel)}</p>
      </Stat>
    </div>
  );
}
