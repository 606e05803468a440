import { Loader2, WifiOff } from "lucide-react";
import { Button } from "@/components/ui/button";
import type { TournamentSocket } from "../use-tournament-socket";

/** The tournament socket's state when it is not simply open: play carries on over HTTP meanwhile. */
export function ConnectionStatus({ socket }: { socket: TournamentSocket }) {
  if (socket.reconnecting) {
    return (
      <p role="status" className="flex items-center gap-1.5 text-sm text-muted-foreground">
        <Loader2 className="h-4 w-4 animate-spin" aria-hidden /> Reconnecting...
      </p>
    );
  }
  if (socket.lost) {
    return (
      <div role="status" className="flex flex-wrap items-center gap-2 text-sm text-muted-foreground">
        <WifiOff className="h-4 w-4 shrink-0" aria-hidden />
        <span className="min-w-0">Live connection lost. Your answers are still sent.</span>
        <Button variant="outline" size="sm" onClick={socket.reconnect}>
          Reconnect
        </Button>
      </div>
    );
  }
  return null;
}
