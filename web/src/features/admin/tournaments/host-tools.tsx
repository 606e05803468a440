// The host's tools in the live view (docs/operating.md, "Host tools"): pause before the next
// question and resume, void a question with a reason, disqualify a player with a reason (with
// money in the tournament, a second operator approves), and the results as CSV. The server checks
// every rule and audits every action; this screen only asks.
import { useState } from "react";
import type { AdminTournamentLive } from "@common/api/admin-tournaments";
import { HOST_TOOLS } from "@common/console-messages";
import { errorMessage } from "@/lib/api";
import { toast } from "@/lib/toast";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Field, Textarea } from "@/components/ui/input";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { downloadResults, useDisqualify, usePauseShow, useVoidQuestion } from "./api";

/** What a host action answered: done, done before, or waiting for a second operator. */
const told = (r: { message: string; changed?: boolean; approvalId?: number }) =>
  r.approvalId !== undefined || r.changed === false ? toast.info(r.message) : toast.success(r.message);

export function HostTools({ live: l }: { live: AdminTournamentLive }) {
  const id = l.tournamentId;
  const pause = usePauseShow(id);
  const voidQuestion = useVoidQuestion(id);
  const disqualify = useDisqualify(id);
  const [exporting, setExporting] = useState(false);
  const running = l.status === "live";
  const show = l.format === "live_show";

  const exportCsv = async () => {
    setExporting(true);
    try {
      await downloadResults(id);
    } catch (e) {
      toast.error("The results could not be exported", errorMessage(e));
    } finally {
      setExporting(false);
    }
  };

  return (
    <section aria-label="Host tools" className="space-y-3 rounded-lg border p-4">
      <h3 className="font-medium">Host tools</h3>
      <div className="flex flex-wrap items-center gap-2">
        {show && running && (
          <Button
            variant={l.paused ? "default" : "outline"}
            disabled={pause.isPending}
            onClick={() =>
              pause.mutate(!l.paused, { onSuccess: told, onError: (e) => toast.error("The show could not be changed", errorMessage(e)) })
            }
          >
            {l.paused ? "Resume the show" : "Pause before the next question"}
          </Button>
        )}
        <Button variant="outline" disabled={exporting} onClick={() => void exportCsv()}>
          {exporting ? "Exporting..." : "Export results (CSV)"}
        </Button>
        {l.paused && (
          <p role="status" className="text-sm font-semibold">
            {HOST_TOOLS.paused}
          </p>
        )}
      </div>

      {show && l.questions.length > 0 && (
        <div>
          <h4 className="text-sm font-medium">Questions shown</h4>
          <ol className="space-y-1 text-sm" aria-label="Questions shown">
            {l.questions.map((q) => (
              <li key={q.index} className="flex flex-wrap items-center gap-2">
                <span className="min-w-0 break-words">
                  {q.index + 1}. {q.question}
                </span>
                {q.voidReason !== null ? (
                  <Badge variant="secondary">Voided: {q.voidReason}</Badge>
                ) : (
                  running && (
                    <ReasonDialog
                      trigger={`Void question ${q.index + 1}`}
                      title={`Void question ${q.index + 1}?`}
                      description="It counts for nobody: scores and tiebreak times are computed without it, its reveal says so, and the fairness report marks it."
                      label={HOST_TOOLS.reasonLabel}
                      confirm="Void it"
                      pending={voidQuestion.isPending}
                      onConfirm={(reason, done) =>
                        voidQuestion.mutate({ index: q.index, reason }, { onSuccess: (r) => (told(r), done()), onError: (e) => done(e) })
                      }
                    />
                  )
                )}
              </li>
            ))}
          </ol>
        </div>
      )}

      <div>
        <h4 className="text-sm font-medium">Players</h4>
        <table className="w-full text-sm" aria-label="Players">
          <thead>
            <tr className="text-left text-muted-foreground">
              <th className="font-normal">Rank</th>
              <th className="font-normal">Player</th>
              <th className="font-normal">Score</th>
              <th />
            </tr>
          </thead>
          <tbody>
            {l.players.map((p) => (
              <tr key={p.userId}>
                <td>{p.rank ?? "—"}</td>
                <td className="break-all">{p.username}</td>
                <td>{p.score}</td>
                <td className="text-right">
                  {p.disqualifiedReason !== null ? (
                    <Badge variant="destructive">Disqualified: {p.disqualifiedReason}</Badge>
                  ) : (
                    running && (
                      <ReasonDialog
                        trigger={`Disqualify ${p.username}`}
                        title={`Disqualify ${p.username}?`}
                        description="Out of the ranking (the next players move up), no more answers, and told why. With an entry fee or a prize pool, another operator approves it first."
                        label={HOST_TOOLS.disqualifyReasonLabel}
                        confirm="Disqualify"
                        pending={disqualify.isPending}
                        onConfirm={(reason, done) =>
                          disqualify.mutate({ userId: p.userId, reason }, { onSuccess: (r) => (told(r), done()), onError: (e) => done(e) })
                        }
                      />
                    )
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}

interface ReasonDialogProps {
  trigger: string;
  title: string;
  description: string;
  label: string;
  confirm: string;
  pending: boolean;
  /** `done()` closes the dialog; `done(error)` keeps it open with the server's message. */
  onConfirm(reason: string, done: (error?: unknown) => void): void;
}

function ReasonDialog({ trigger, title, description, label, confirm, pending, onConfirm }: ReasonDialogProps) {
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<unknown>(null);
  const fieldId = `reason-${trigger.replace(/\W+/g, "-")}`;
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setError(null);
      }}
    >
      <DialogTrigger asChild>
        <Button size="sm" variant="outline">
          {trigger}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>{description}</DialogDescription>
        </DialogHeader>
        <Field id={fieldId} label={label}>
          <Textarea id={fieldId} value={reason} onChange={(e) => setReason(e.target.value)} />
        </Field>
        {error !== null && (
          <p role="alert" className="text-sm text-destructive">
            {errorMessage(error)}
          </p>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => setOpen(false)}>
            Keep it
          </Button>
          <Button
            variant="destructive"
            disabled={pending}
            onClick={() =>
              onConfirm(reason, (e) => {
                if (e === undefined) {
                  setOpen(false);
                  setReason("");
                } else setError(e);
              })
            }
          >
            {confirm}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
