// Players' question reports, grouped by question with the open ones first; each resolved once as
// fixed, retired (the question leaves every draw) or dismissed. The reporter is told the outcome;
// the operator's note goes to the audit log only.
import { useId, useState } from "react";
import type { AdminQuestionReport, QuestionReportGroup, QuestionReportResolution } from "@common/api/question-bank";
import { QUESTION_REPORT_RESOLUTIONS } from "@common/api/question-bank";
import { QUESTION_REPORT } from "@common/messages";
import { QUESTION_REPORT_NOTE_MAX } from "@common/spec";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Label, Select, Textarea } from "@/components/ui/input";
import { RadioGroup, RadioGroupItem } from "@/components/ui/radio-group";
import { Spinner } from "@/components/ui/spinner";
import { errorMessage } from "@/lib/api";
import { toast } from "@/lib/toast";
import { useQuestionReports, useResolveReport } from "./api";
import { RESOLUTION_LABELS } from "./labels";

const when = (iso: string) => new Date(iso).toLocaleString();

export default function ReportsPage() {
  const id = useId();
  const [status, setStatus] = useState<"open" | "all">("open");
  const [resolving, setResolving] = useState<AdminQuestionReport | null>(null);
  const reports = useQuestionReports(status);
  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <h1 className="text-2xl font-bold">Question reports</h1>
        <div className="space-y-1">
          <Label htmlFor={`${id}-status`}>Show</Label>
          <Select id={`${id}-status`} value={status} onChange={(e) => setStatus(e.target.value as "open" | "all")}>
            <option value="open">Open reports</option>
            <option value="all">All reports</option>
          </Select>
        </div>
      </div>
      {reports.isLoading ? (
        <Spinner />
      ) : reports.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(reports.error)}
        </p>
      ) : reports.data?.length === 0 ? (
        <p className="text-muted-foreground">No reports to work on.</p>
      ) : (
        <div className="space-y-3">
          {reports.data?.map((g) => (
            <ReportGroup key={g.question.id} group={g} onResolve={setResolving} />
          ))}
        </div>
      )}
      {resolving && <ResolveDialog report={resolving} onClose={() => setResolving(null)} />}
    </div>
  );
}

function ReportGroup({ group: g, onResolve }: { group: QuestionReportGroup; onResolve(r: AdminQuestionReport): void }) {
  const headingId = useId();
  return (
    <Card role="article" aria-labelledby={headingId}>
      <CardContent className="space-y-3 pt-4">
        <div className="flex flex-wrap items-center gap-2 text-xs">
          <Badge variant={g.open > 0 ? "destructive" : "outline"}>{`${g.open} open`}</Badge>
          {g.question.retiredAt !== null && <Badge variant="outline">Retired</Badge>}
          <span className="text-muted-foreground">Question #{g.question.id}</span>
        </div>
        <h2 id={headingId} className="font-semibold break-words">
          {g.question.text}
        </h2>
        <p className="text-sm break-words">
          <span className="text-muted-foreground">Answer:</span> {g.question.correctAnswer}
          <span className="text-muted-foreground"> · Options: {g.question.options.join(", ")}</span>
        </p>
        <ul className="divide-y rounded-md border">
          {g.reports.map((r) => (
            <li key={r.id} className="flex flex-col gap-2 p-3 text-sm sm:flex-row sm:items-start sm:justify-between">
              <div className="min-w-0 space-y-1">
                <p>
                  <span className="font-medium">{QUESTION_REPORT.reasons[r.reason]}</span>
                  <span className="text-muted-foreground">
                    {` · ${r.reporter.username} · ${when(r.createdAt)}${r.tournamentId !== null ? ` · tournament #${r.tournamentId}` : ""}`}
                  </span>
                </p>
                {r.note && <p className="break-words">{r.note}</p>}
                {r.resolution && (
                  <p className="text-muted-foreground">{`${RESOLUTION_LABELS[r.resolution]} by ${r.resolvedBy ?? "an operator"}${r.resolvedAt ? ` · ${when(r.resolvedAt)}` : ""}`}</p>
                )}
              </div>
              {r.resolution === null && (
                <Button size="sm" variant="outline" onClick={() => onResolve(r)}>
                  Resolve
                </Button>
              )}
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}

function ResolveDialog({ report, onClose }: { report: AdminQuestionReport; onClose(): void }) {
  const id = useId();
  const [resolution, setResolution] = useState<QuestionReportResolution | null>(null);
  const [note, setNote] = useState("");
  const resolve = useResolveReport();
  const submit = () =>
    resolution &&
    resolve.mutate(
      { id: report.id, resolution, note },
      {
        onSuccess: () => {
          toast.success(QUESTION_REPORT.resolved);
          onClose();
        },
      },
    );
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Resolve report</DialogTitle>
          <DialogDescription>{`${report.reporter.username} is told the outcome (not your note). A report is resolved once.`}</DialogDescription>
        </DialogHeader>
        <RadioGroup value={resolution ?? ""} onValueChange={(v) => setResolution(v as QuestionReportResolution)} aria-label="Outcome">
          {QUESTION_REPORT_RESOLUTIONS.map((r) => (
            <div key={r} className="flex items-center gap-2">
              <RadioGroupItem value={r} id={`${id}-${r}`} />
              <Label htmlFor={`${id}-${r}`}>{RESOLUTION_LABELS[r]}</Label>
            </div>
          ))}
        </RadioGroup>
        <div className="mt-4 space-y-1">
          <Label htmlFor={`${id}-note`}>Note (for the audit log)</Label>
          <Textarea id={`${id}-note`} maxLength={QUESTION_REPORT_NOTE_MAX} value={note} onChange={(e) => setNote(e.target.value)} />
        </div>
        {resolve.isError && (
          <p role="alert" className="mt-3 text-sm text-destructive">
            {errorMessage(resolve.error)}
          </p>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={!resolution || resolve.isPending} onClick={submit}>
            Resolve
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
