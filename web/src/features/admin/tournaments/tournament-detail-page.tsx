// /admin/tournaments/:id: one tournament; edit it while nobody has joined, cancel it with a
// reason (everyone refunded once and notified), and watch its room while it runs.
import { useState } from "react";
import { Link, useParams } from "react-router";
import { ADMIN_TOURNAMENTS } from "@common/console-messages";
import { formatDollars } from "@common/domain/money";
import type { AdminTournamentDetail } from "@common/api/admin-tournaments";
import { errorMessage } from "@/lib/api";
import { toast } from "@/lib/toast";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Field, Textarea } from "@/components/ui/input";
import { PageSpinner } from "@/components/ui/spinner";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { useAdminTournament, useCancelTournament, useUpdateTournament } from "./api";
import { TournamentForm } from "./tournament-form";
import { LiveView } from "./live-view";
import { FeaturedSetting } from "./featured-setting";

export default function TournamentDetailPage() {
  const id = Number(useParams().id);
  const detail = useAdminTournament(id);
  if (detail.isPending) return <PageSpinner />;
  if (detail.isError)
    return (
      <p role="alert" className="text-destructive">
        {errorMessage(detail.error)}
      </p>
    );
  const t = detail.data;
  return (
    <div className="space-y-6">
      <div className="space-y-1">
        <Link to="/admin/tournaments" className="text-sm underline underline-offset-4">
          All tournaments
        </Link>
        <h1 className="text-2xl font-bold">{t.title}</h1>
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <Badge>{t.status}</Badge>
          {t.houseFunded && <Badge variant="secondary">house-funded</Badge>}
          {t.featuredAt && <Badge variant="secondary">featured</Badge>}
          <span>{t.categoryName}</span>
          <span>{t.format === "live_show" ? "Live show" : "Self-paced"}</span>
          <span>
            {t.currentParticipants}/{t.maxParticipants ?? "∞"} players
          </span>
          <span>fee {t.isFree ? "free" : formatDollars(t.entryFee)}</span>
          <span>pool {formatDollars(t.prizePool)}</span>
          <span>starts {new Date(t.startTime).toLocaleString()}</span>
        </div>
      </div>
      {(t.status === "upcoming" || t.status === "live") && <CancelDialog tournament={t} />}
      {t.status === "upcoming" && t.kind === "standard" && <FeaturedSetting tournament={t} />}
      {t.status !== "upcoming" || t.currentParticipants > 0 ? <LiveView tournamentId={t.id} /> : null}
      {t.editable ? (
        <section aria-label="Edit" className="space-y-2 rounded-lg border p-4">
          <h2 className="text-lg font-semibold">Edit</h2>
          <p className="text-sm text-muted-foreground">Only until the first player joins.</p>
          <EditForm tournament={t} />
        </section>
      ) : (
        t.status === "upcoming" && <p className="text-sm text-muted-foreground">{ADMIN_TOURNAMENTS.hasPlayers}</p>
      )}
      <section aria-label="Questions">
        <h2 className="text-lg font-semibold">Questions</h2>
        <ol className="list-decimal pl-5 text-sm">
          {t.questions.map((q) => (
            <li key={q.id}>
              {q.question} <span className="text-muted-foreground">(difficulty {q.difficulty})</span>
            </li>
          ))}
        </ol>
      </section>
    </div>
  );
}

function EditForm({ tournament }: { tournament: AdminTournamentDetail }) {
  const update = useUpdateTournament(tournament.id);
  return (
    <TournamentForm
      tournament={tournament}
      submitLabel="Save changes"
      pending={update.isPending}
      error={update.error}
      onSubmit={(input) =>
        update.mutate(input, {
          onSuccess: (r) => ("approvalId" in r ? toast.info(r.message) : toast.success(ADMIN_TOURNAMENTS.updated)),
        })
      }
    />
  );
}

function CancelDialog({ tournament: t }: { tournament: AdminTournamentDetail }) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const cancel = useCancelTournament(t.id);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) cancel.reset();
      }}
    >
      <DialogTrigger asChild>
        <Button variant="destructive">Cancel tournament</Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Cancel {t.title}?</DialogTitle>
          <DialogDescription>
            {t.isFree
              ? `Its ${t.currentParticipants} players are notified with your reason.`
              : `Its ${t.currentParticipants} players get their ${formatDollars(t.entryFee)} entry fee back and are notified with your reason.`}
          </DialogDescription>
        </DialogHeader>
        <Field id="cancel-reason" label={ADMIN_TOURNAMENTS.cancelReason}>
          <Textarea id="cancel-reason" value={reason} onChange={(e) => setReason(e.target.value)} />
        </Field>
        {cancel.isError && (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(cancel.error, ADMIN_TOURNAMENTS.cancelFailed)}
          </p>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => setOpen(false)}>
            Keep it
          </Button>
          <Button
            variant="destructive"
            disabled={cancel.isPending}
            onClick={() =>
              cancel.mutate(reason, {
                onSuccess: () => setOpen(false),
              })
            }
          >
            {cancel.isPending ? "Cancelling..." : "Cancel and refund"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
