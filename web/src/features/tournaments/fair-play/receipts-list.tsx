import { Link } from "react-router";
import { CheckCircle2, XCircle } from "lucide-react";
import type { AnswerReceipt, TournamentReceipts } from "@common/api/fair-play";
import { VERIFY_FAIRNESS } from "@common/messages";
import { CopyButton } from "@/components/copy-button";
import { Button } from "@/components/ui/button";
import { Spinner } from "@/components/ui/spinner";
import { errorMessage } from "@/lib/api";
import { useFairnessCheck, useTournamentReceipts, useVerifyReceipt } from "./api";

/** The receipt as the server signed it: everything but the question text shown beside it. */
const signedPart = ({ question: _question, ...receipt }: TournamentReceipts["receipts"][number]): AnswerReceipt => receipt;

/**
 * A finished tournament's answer receipts: what the server recorded for each answer, a copy of
 * each as JSON and a check of its signature. The correct answers come from the tournament's
 * fairness reveal, once it has been settled.
 */
export function AnswerReceipts({ tournamentId, title }: { tournamentId: number; title: string }) {
  const receipts = useTournamentReceipts(tournamentId);
  // Not settled yet (409) just leaves the correct answers out.
  const fairness = useFairnessCheck(tournamentId, { enabled: receipts.isSuccess });
  const correct = new Map(fairness.data?.report.questions.map((q) => [q.questionId, q.correctAnswer]));

  if (receipts.isPending) return <Spinner label="Loading your receipts" />;
  if (receipts.isError) {
    return (
      <p role="alert" className="text-sm text-destructive">
        {errorMessage(receipts.error)}
      </p>
    );
  }
  return (
    <div className="space-y-3">
      {receipts.data.receipts.length === 0 ? (
        <p className="text-sm text-muted-foreground">No answers were recorded for you in this tournament.</p>
      ) : (
        <ul aria-label={`Answer receipts of ${title}`} className="space-y-2">
          {receipts.data.receipts.map((r) => (
            <ReceiptRow key={r.questionId} receipt={r} correctAnswer={correct.get(r.questionId)} />
          ))}
        </ul>
      )}
      <p className="text-xs text-muted-foreground">
        Each receipt is signed by our server when it receives your answer.{" "}
        <Link to="/verify-receipt" className="underline hover:text-foreground">
          Check any receipt
        </Link>
      </p>
    </div>
  );
}

function ReceiptRow({ receipt: r, correctAnswer }: { receipt: TournamentReceipts["receipts"][number]; correctAnswer: string | undefined }) {
  const verify = useVerifyReceipt();
  const signed = signedPart(r);
  return (
    <li className="min-w-0 space-y-1 rounded-lg border border-border p-3 text-sm">
      <p className="font-medium break-words">{r.question}</p>
      <p className="break-words">Your answer: {r.answer}</p>
      {correctAnswer !== undefined && <p className="break-words text-muted-foreground">Correct answer: {correctAnswer}</p>}
      <p className="flex flex-wrap gap-x-3 text-xs text-muted-foreground">
        <span>Received {new Date(r.receivedAt).toLocaleString()}</span>
        <span>{(r.responseMs / 1000).toFixed(2)} s</span>
        <span>{r.points === null ? "Points pending the reveal" : `${r.points} points`}</span>
      </p>
      <div className="flex flex-wrap items-center gap-2 pt-1">
        <CopyButton text={JSON.stringify(signed)} label="Copy receipt" what="The receipt" />
        <Button type="button" variant="outline" size="sm" disabled={verify.isPending} onClick={() => verify.mutate(signed)}>
          Check
        </Button>
        <ReceiptVerdict verify={verify} />
      </div>
    </li>
  );
}

/** The answer of POST /api/receipts/verify, or why there is none. */
export function ReceiptVerdict({ verify }: { verify: ReturnType<typeof useVerifyReceipt> }) {
  if (verify.isPending) return <Spinner label="Checking the receipt" />;
  if (verify.isError) {
    return (
      <p role="alert" className="text-destructive">
        {errorMessage(verify.error)}
      </p>
    );
  }
  if (!verify.data) return null;
  return verify.data.genuine ? (
    <p role="status" className="flex items-center gap-1 font-medium text-success">
      <CheckCircle2 className="h-4 w-4 shrink-0" aria-hidden /> {VERIFY_FAIRNESS.receiptGenuine}
    </p>
  ) : (
    <p role="status" className="flex items-center gap-1 font-medium text-destructive">
      <XCircle className="h-4 w-4 shrink-0" aria-hidden /> {VERIFY_FAIRNESS.receiptNotGenuine}
    </p>
  );
}
