// The tournaments page's way in to custom tournaments: Create for Elite players, the reason it is
// locked for everyone else, and the invite code box's link.
import { Link } from "react-router";
import { Lock, Plus, Ticket } from "lucide-react";
import { CUSTOM } from "@common/messages";
import { CUSTOM_TOURNAMENT_MIN_LEVEL } from "@common/spec";
import { mayCreateCustom } from "@common/domain/custom-tournaments";
import { Button } from "@/components/ui/button";
import { useUser } from "@/lib/session";

export function CustomTournamentsEntry() {
  const { user } = useUser();
  const elite = user != null && mayCreateCustom(user.level);
  return (
    <div className="mt-4 flex flex-wrap items-center gap-3 rounded-lg border p-3">
      {elite ? (
        <Button asChild size="sm">
          <Link to="/tournaments/custom">
            <Plus className="h-4 w-4" aria-hidden /> {CUSTOM.createTitle}
          </Link>
        </Button>
      ) : (
        <p className="flex items-center gap-2 text-sm text-muted-foreground">
          <Lock className="h-4 w-4 shrink-0" aria-hidden />
          <span>
            <span className="font-medium text-foreground">{CUSTOM.createTitle}</span>: {CUSTOM.locked(CUSTOM_TOURNAMENT_MIN_LEVEL)}
          </span>
        </p>
      )}
      <Button asChild size="sm" variant="outline" className="sm:ml-auto">
        <Link to="/tournaments/join">
          <Ticket className="h-4 w-4" aria-hidden /> Join with an invite code
        </Link>
      </Button>
    </div>
  );
}
