// The room while it runs, asked again every 2 s: who is connected, how fast answers come in,
// where play is, and what fair play would flag or has refused so far.
import { errorMessage } from "@/lib/api";
import { useTournamentLive } from "./api";
import { HostTools } from "./host-tools";

const Stat = ({ label, value }: { label: string; value: string | number }) => (
  <div className="rounded-md border p-3">
    <dt className="text-xs text-muted-foreground">{label}</dt>
    <dd className="text-xl font-semibold">{value}</dd>
  </div>
);

export function LiveView({ tournamentId }: { tournamentId: number }) {
  const live = useTournamentLive(tournamentId, true);
  if (live.isPending) return null;
  if (live.isError)
    return (
      <p role="alert" className="text-destructive">
        {errorMessage(live.error)}
      </p>
    );
  const l = live.data;
  return (
    <section aria-label="Live view" className="space-y-3">
      <h2 className="text-lg font-semibold">Live view</h2>
      <dl className="grid grid-cols-2 gap-2 md:grid-cols-4">
        <Stat label="Room" value={l.status} />
        <Stat label="Connected players" value={`${l.connectedPlayers} of ${l.participants}`} />
        <Stat label="Answers per second (10 s)" value={l.answersPerSecond.toFixed(1)} />
        {l.show ? (
          <Stat
            label="Current question"
            value={`${l.show.index + 1} of ${l.show.total} · ${l.show.stage}${l.show.closesAt ? ` until ${new Date(l.show.closesAt).toLocaleTimeString()}` : ""}`}
          />
        ) : l.progress ? (
          <Stat
            label="Answered / issued"
            value={`${l.progress.answered} / ${l.progress.issued} (${l.progress.finishedPlayers} finished)`}
          />
        ) : null}
      </dl>
      {l.status !== "upcoming" && l.status !== "cancelled" && <HostTools live={l} />}
      <div className="grid gap-4 md:grid-cols-2">
        <div>
          <h3 className="font-medium">Fair-play flags ({l.flags.length})</h3>
          <ul className="text-sm">
            {l.flags.map((f) => (
              <li key={f.userId}>
                {f.username}: {f.flags.map((x) => x.detail).join("; ")}
              </li>
            ))}
          </ul>
        </div>
        <div>
          <h3 className="font-medium">Refused answers ({l.cheatAttemptCount})</h3>
          <ul className="text-sm">
            {l.cheatAttempts.map((a, i) => (
              <li key={i}>
                {new Date(a.at).toLocaleTimeString()} {a.username}: {a.reason}
              </li>
            ))}
          </ul>
        </div>
      </div>
    </section>
  );
}
