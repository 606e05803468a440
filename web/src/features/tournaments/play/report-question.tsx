// "Report this question" on a shown result or a live show's reveal: a reason, an optional note,
// sent for the question and tournament the player just saw. The player's open dialog holds the
// play screen's pause (PlaySession waits for it to close before the next question).
import { useId, useState } from "react";
import { useMutation } from "@tanstack/react-query";
import { Flag } from "lucide-react";
import { QUESTION_REPORT_REASONS, type QuestionReportInput, type QuestionReportReason } from "@common/api/question-bank";
import { QUESTION_REPORT } from "@common/messages";
import { QUESTION_REPORT_NOTE_MAX } from "@common/spec";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { Label, Textarea } from "@/components/ui/input";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";
import { errorMessage } from "@/lib/api";
import { api, read } from "@/lib/api-client";
import { toast } from "@/lib/toast";

export function useReportQuestion(questionId: number) {
  return useMutation({
    mutationFn: (json: QuestionReportInput) => read(api.questions[":id"].report.$post({ param: { id: String(questionId) }, json })),
  });
}

interface ReportQuestionProps {
  questionId: number;
  tournamentId: number;
  /** Told when the dialog opens and closes. */
  onOpenChange?(open: boolean): void;
}

export function ReportQuestion({ questionId, tournamentId, onOpenChange }: ReportQuestionProps) {
  const id = useId();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState<QuestionReportReason | null>(null);
  const [note, setNote] = useState("");
  const report = useReportQuestion(questionId);

  const change = (next: boolean) => {
    setOpen(next);
    if (!next) report.reset();
    onOpenChange?.(next);
  };
  const send = () => {
    if (!reason) return;
    const trimmed = note.trim();
    report.mutate(
      { reason, tournamentId, ...(trimmed ? { note: trimmed } : {}) },
      {
        onSuccess: (r) => {
          toast.success(r.message);
          change(false);
        },
      },
    );
  };

  return (
    <Dialog open={open} onOpenChange={change}>
      <DialogTrigger asChild>
        <Button variant="ghost" size="sm" className="gap-1 text-muted-foreground">
          <Flag className="h-4 w-4" aria-hidden />
          Report this question
        </Button>
      </DialogTrigger>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Report this question</DialogTitle>
          <DialogDescription>
            Tell us what is wrong with it. An operator checks every report and lets you know the outcome.
          </DialogDescription>
        </DialogHeader>
        <RadioGroup value={reason ?? ""} onValueChange={(v) => setReason(v as QuestionReportReason)} aria-label="Reason">
          {QUESTION_REPORT_REASONS.map((r) => (
            <div key={r} className="flex items-center gap-2">
              <RadioGroupItem value={r} id={`${id}-${r}`} />
              <Label htmlFor={`${id}-${r}`}>{QUESTION_REPORT.reasons[r]}</Label>
            </div>
          ))}
        </RadioGroup>
        <div className="mt-4 space-y-1">
          <Label htmlFor={`${id}-note`}>Note (optional)</Label>
          <Textarea id={`${id}-note`} value={note} maxLength={QUESTION_REPORT_NOTE_MAX} onChange={(e) => setNote(e.target.value)} />
        </div>
        {report.isError && (
          <p role="alert" className="mt-3 text-sm text-destructive">
            {errorMessage(report.error)}
          </p>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => change(false)}>
            Cancel
          </Button>
          <Button disabled={!reason || report.isPending} onClick={send}>
            {report.isPending ? "Sending..." : "Send report"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
