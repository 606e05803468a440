import { Link } from "react-router";
import { CheckCircle2, Users } from "lucide-react";
import { EmptyState } from "@/components/empty-state";
import { Badge } from "@/components/ui/badge";
import { Spinner } from "@/components/ui/spinner";
import { UserAvatar } from "@/components/user-avatar";
import { useParticipants } from "../api";
import { PLAYER_LEVEL } from "@common/messages";

export function ParticipantsList({ tournamentId, userId }: { tournamentId: number; userId: number | undefined }) {
  const { data, isLoading, error } = useParticipants(tournamentId);
  if (isLoading) return <Spinner className="mx-auto my-10" label="Loading participants" />;
  if (error) return <p className="py-10 text-center text-sm text-destructive">{error.message}</p>;
  if (!data || data.length === 0) {
    return <EmptyState icon={Users} title="No Participants Yet" description="Be the first to join this tournament." />;
  }
  return (
    <ul className="grid gap-2 sm:grid-cols-2 lg:grid-cols-3">
      {data.map((p) => (
        <li key={p.userId} className="flex items-center gap-3 rounded-lg border border-border p-3">
          <UserAvatar user={{ username: p.username }} className="h-9 w-9" />
          <div className="min-w-0 flex-1">
            <Link to={`/players/${encodeURIComponent(p.username)}`} className="block truncate font-medium hover:underline">
              {p.username}
              {p.userId === userId && <span className="ml-1 text-xs font-normal text-muted-foreground">(you)</span>}
            </Link>
            <p className="text-xs text-muted-foreground">{PLAYER_LEVEL.label(p.level)}</p>
          </div>
          {p.hasCompleted && (
            <Badge variant="outline" className="gap-1">
              <CheckCircle2 className="h-3 w-3 text-success" aria-hidden /> Finished
            </Badge>
          )}
        </li>
      ))}
    </ul>
  );
}
