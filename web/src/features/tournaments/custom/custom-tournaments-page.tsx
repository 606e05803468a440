// /tournaments/custom: an Elite player creates a private tournament, gets its invite link and
// code, and sees their custom tournaments with Cancel while nobody has joined. Below Elite the
// page says what unlocks it.
import { useState } from "react";
import { Link } from "react-router";
import { Lock } from "lucide-react";
import type { CustomTournament } from "@common/api/custom-tournaments";
import { CUSTOM, FORMAT_LABEL } from "@common/messages";
import { CUSTOM_TOURNAMENT_MIN_LEVEL } from "@common/spec";
import { mayCreateCustom } from "@common/domain/custom-tournaments";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { CopyButton } from "@/components/copy-button";
import { useUser } from "@/lib/session";
import { errorMessage } from "@/lib/api";
import { toast } from "@/lib/toast";
import { feeLabel, formatStart } from "../display";
import { StatusBadge } from "../components/status-badge";
import { useCancelCustomTournament, useMyCustomTournaments } from "./api";
import { CreateCustomForm } from "./create-custom-form";
import { InvitePanel, inviteLink } from "./invite-panel";

export default function CustomTournamentsPage() {
  const { user } = useUser();
  const elite = user != null && mayCreateCustom(user.level);
  const [created, setCreated] = useState<CustomTournament | null>(null);
  return (
    <div className="mx-auto max-w-4xl space-y-6 px-4 py-8">
      <div>
        <h1 className="text-3xl font-bold">Custom tournaments</h1>
        <p className="mt-1 text-muted-foreground">
          Private tournaments for your friends: only players with the invite link or code can find and join them.
        </p>
      </div>
      {!elite ? (
        <Card>
          <CardContent className="flex items-start gap-3 pt-6">
            <Lock className="mt-0.5 h-5 w-5 shrink-0 text-muted-foreground" aria-hidden />
            <div>
              <p className="font-semibold">{CUSTOM.lockedTitle}</p>
              <p className="text-sm text-muted-foreground">{CUSTOM.locked(CUSTOM_TOURNAMENT_MIN_LEVEL)}</p>
            </div>
          </CardContent>
        </Card>
      ) : (
        <>
          {created && <InvitePanel tournament={created} />}
          <Card>
            <CardHeader>
              <CardTitle>{CUSTOM.createTitle}</CardTitle>
            </CardHeader>
            <CardContent>
              <CreateCustomForm onCreated={setCreated} />
            </CardContent>
          </Card>
        </>
      )}
      <MyCustomTournaments enabled={user != null} />
    </div>
  );
}

function MyCustomTournaments({ enabled }: { enabled: boolean }) {
  const mine = useMyCustomTournaments({ enabled });
  const cancel = useCancelCustomTournament();
  if (!enabled || (mine.data && mine.data.length === 0)) return null;
  return (
    <section aria-labelledby="my-custom-heading" className="space-y-3">
      <h2 id="my-custom-heading" className="text-xl font-semibold">
        My custom tournaments
      </h2>
      {mine.isLoading && <Spinner />}
      {mine.isError && (
        <p className="text-sm text-destructive">{errorMessage(mine.error, "Your custom tournaments could not be loaded.")}</p>
      )}
      <ul className="space-y-3" aria-label="My custom tournaments">
        {mine.data?.map((t) => (
          <li key={t.id} className="flex flex-col gap-2 rounded-lg border p-4 sm:flex-row sm:items-center">
            <div className="min-w-0 flex-1">
              <div className="flex flex-wrap items-center gap-2">
                <Link to={`/tournaments/${t.id}`} className="font-medium hover:underline">
                  {t.title}
                </Link>
                <StatusBadge status={t.status} />
              </div>
              <p className="text-sm text-muted-foreground">
                {t.categoryName} · {formatStart(t.startTime)} · {feeLabel(t)} · {FORMAT_LABEL[t.format].title} · {t.currentParticipants}/
                {t.maxParticipants} players
              </p>
            </div>
            <div className="flex flex-wrap gap-2">
              {(t.status === "upcoming" || t.status === "live") && (
                <CopyButton text={inviteLink(t)} label="Copy invite link" what="The invite link" />
              )}
              {t.cancellable && (
                <Button
                  variant="outline"
                  size="sm"
                  disabled={cancel.isPending}
                  onClick={() =>
                    cancel.mutate(t.id, {
                      onSuccess: () => toast.success(CUSTOM.cancelled),
                      onError: (e) => toast.error("Could not cancel", errorMessage(e, CUSTOM.notCancellable)),
                    })
                  }
                >
                  Cancel tournament
                </Button>
              )}
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
