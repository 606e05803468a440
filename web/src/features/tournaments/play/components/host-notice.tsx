// What the host did that the player must know now (docs/operating.md, "Host tools"): the show
// paused before its next question, or this player disqualified, with the host's reason. Both come
// from the room over the socket, also on reconnecting.
import { Ban, Pause } from "lucide-react";
import { PLAY } from "@common/messages";
import type { HostFrame } from "../use-tournament-socket";

export function HostNotice({ host, live }: { host: HostFrame | null; live: boolean }) {
  if (!host) return null;
  if (host.disqualified !== null)
    return (
      <p
        role="alert"
        data-testid="disqualified"
        className="mb-4 flex items-start gap-2 rounded-lg border border-destructive/50 p-4 text-sm font-semibold"
      >
        <Ban className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
        <span className="min-w-0 break-words">{PLAY.disqualified(host.disqualified)}</span>
      </p>
    );
  if (host.paused && live)
    return (
      <div
        role="status"
        data-testid="paused-by-host"
        className="mb-4 flex items-start gap-2 rounded-lg border border-primary/50 p-4 text-sm"
      >
        <Pause className="mt-0.5 h-4 w-4 shrink-0" aria-hidden />
        <span className="min-w-0">
          <span className="font-semibold">{PLAY.pausedByHost}</span>. {PLAY.pausedByHostDetail}
        </span>
      </div>
    );
  return null;
}
