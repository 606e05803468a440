import { useState } from "react";
import { CheckCircle2, Fingerprint, ShieldCheck, XCircle } from "lucide-react";
import type { TournamentDetail } from "@common/api/tournaments";
import { VERIFY_FAIRNESS } from "@common/messages";
import { CopyButton } from "@/components/copy-button";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Spinner } from "@/components/ui/spinner";
import { errorMessage } from "@/lib/api";
import { useFairnessCheck, type FairnessCheck } from "./api";

const when = (iso: string | null) => (iso === null ? "Never issued" : new Date(iso).toLocaleString());

/**
 * The tournament page's fairness section: the commitment while the tournament is ahead or
 * running, the "Verify fairness" check once it is completed. Practice publishes none.
 */
export function FairnessSection({ tournament: t, status }: { tournament: TournamentDetail; status: TournamentDetail["status"] }) {
  if (t.fairnessCommitment === null) return null;
  if (status === "upcoming" || status === "live") return <FairnessCommitment commitment={t.fairnessCommitment} />;
  if (status === "completed") return <VerifyFairness tournamentId={t.id} published={t.fairnessCommitment} />;
  return null;
}

export function FairnessCommitment({ commitment }: { commitment: string }) {
  return (
    <Card>
      <CardContent className="space-y-2 pt-6 text-sm">
        <h2 className="flex items-center gap-2 font-semibold">
          <Fingerprint className="h-4 w-4 text-primary" aria-hidden /> Fairness commitment
        </h2>
        <p className="text-muted-foreground">{VERIFY_FAIRNESS.commitmentExplained}</p>
        <p className="min-w-0 break-all rounded bg-muted px-2 py-1 font-mono text-xs" data-testid="fairness-commitment">
          {commitment}
        </p>
        <CopyButton text={commitment} label="Copy commitment" what="The commitment" />
      </CardContent>
    </Card>
  );
}

/**
 * "Verify fairness": fetches the reveal and recomputes the commitment in this browser: the flat
 * hash of a v1 tournament, or each drawn question's Merkle proof of a v2 one (decision 015).
 */
export function VerifyFairness({ tournamentId, published }: { tournamentId: number; published: string }) {
  const [open, setOpen] = useState(false);
  const check = useFairnessCheck(tournamentId, { enabled: open });
  return (
    <Card>
      <CardHeader>
        <CardTitle className="flex items-center gap-2">
          <ShieldCheck className="h-5 w-5 text-primary" aria-hidden /> Verify fairness
        </CardTitle>
        <CardDescription>
          Before the start this tournament published a fingerprint of its questions and answers. Check here that the questions it reveals
          now still produce that same fingerprint.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4 text-sm">
        {!open ? (
          <Button onClick={() => setOpen(true)}>
            <ShieldCheck className="h-4 w-4" aria-hidden /> Verify fairness
          </Button>
        ) : check.isPending ? (
          <Spinner label="Checking the commitment" />
        ) : check.isError ? (
          <p role="alert" className="text-destructive">
            {errorMessage(check.error)}
          </p>
        ) : (
          <FairnessResult check={check.data} published={published} />
        )}
      </CardContent>
    </Card>
  );
}

function FairnessResult({ check: { report, recomputed, proofs, consistent }, published }: { check: FairnessCheck; published: string }) {
  const tree = report.scheme === "merkle-v2";
  // Both must hold: the revealed data hashes to the fingerprint, and it is the one shown before the start.
  // A tree with nothing revealed neither matches nor contradicts it.
  const nothing = tree && report.questions.length === 0;
  const matches = consistent && recomputed === published && report.commitment === published;
  const verdict = nothing && report.commitment === published ? null : matches;
  return (
    <div className="space-y-4" data-testid="fairness-result">
      <p
        role="status"
        className={
          verdict === false
            ? "flex items-center gap-2 rounded-lg border border-destructive/50 bg-destructive/10 p-3 font-semibold"
            : verdict
              ? "flex items-center gap-2 rounded-lg border border-success/50 bg-success/10 p-3 font-semibold"
              : "flex items-center gap-2 rounded-lg border border-border bg-muted p-3 font-semibold"
        }
      >
        {verdict === false ? (
          <XCircle className="h-5 w-5 shrink-0 text-destructive" aria-hidden />
        ) : (
          <CheckCircle2 className={verdict ? "h-5 w-5 shrink-0 text-success" : "h-5 w-5 shrink-0 text-muted-foreground"} aria-hidden />
        )}
        {verdict === null ? VERIFY_FAIRNESS.nothingRevealed : verdict ? VERIFY_FAIRNESS.matches : VERIFY_FAIRNESS.mismatch}
      </p>
      {tree && (
        <div className="space-y-1">
          <p className="font-medium" data-testid="fairness-revealed-count">
            {VERIFY_FAIRNESS.revealedCount(report.questions.length, report.leafCount)}
          </p>
          <p className="text-muted-foreground">{VERIFY_FAIRNESS.treeExplained}</p>
        </div>
      )}
      <dl className="grid gap-2">
        <Field label="Published before the start" value={published} />
        {report.commitment !== published && <Field label="Named by the reveal" value={report.commitment} />}
        {recomputed !== null && <Field label="Recomputed in your browser" value={recomputed} />}
        {report.scheme === "flat-v1" ? (
          <Field label="Salt (kept secret until the end)" value={report.salt} />
        ) : (
          <Field label="Draw key (kept secret until the end)" value={report.drawKey} />
        )}
        <div>
          <dt className="text-muted-foreground">Candidates per slot</dt>
          <dd>
            {report.drawWidth === 1
              ? "1: every player got the same questions"
              : `${report.drawWidth}: each player drew one question per slot from this pool`}
          </dd>
        </div>
      </dl>
      <div className="overflow-x-auto">
        <table className="w-full text-left text-xs">
          <caption className="sr-only">{tree ? "Drawn questions" : "Committed questions"}</caption>
          <thead className="text-muted-foreground">
            <tr>
              <th className="py-1 pr-2 font-medium">Slot</th>
              <th className="py-1 pr-2 font-medium">Question</th>
              <th className="py-1 pr-2 font-medium">Correct answer</th>
              <th className="py-1 pr-2 font-medium">Issued</th>
              <th className="py-1 pr-2 font-medium">Closed</th>
              <th className={tree ? "py-1 pr-2 font-medium" : "py-1 font-medium"}>Players</th>
              {tree && <th className="py-1 font-medium">Proof</th>}
            </tr>
          </thead>
          <tbody className="divide-y divide-border">
            {report.questions.map((q, i) => (
              <tr key={q.questionId}>
                <td className="py-1 pr-2">{q.slot + 1}</td>
                <td className="py-1 pr-2">{q.question}</td>
                <td className="py-1 pr-2 font-medium">{q.correctAnswer}</td>
                <td className="py-1 pr-2">{when(q.issuedAt)}</td>
                <td className="py-1 pr-2">{when(q.closedAt)}</td>
                <td className={tree ? "py-1 pr-2" : "py-1"}>{q.timesIssued}</td>
                {tree && (
                  <td className={proofs[i] ? "py-1" : "py-1 font-medium text-destructive"}>
                    {proofs[i] ? VERIFY_FAIRNESS.proofVerified : VERIFY_FAIRNESS.proofFailed}
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function Field({ label, value }: { label: string; value: string }) {
  return (
    <div className="min-w-0">
      <dt className="text-muted-foreground">{label}</dt>
      <dd className="break-all font-mono text-xs">{value}</dd>
    </div>
  );
}
