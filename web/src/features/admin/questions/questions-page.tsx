// The console's Questions screen: first the supply per category (supply-panel.tsx); then the bank:
// search and filters, each question with its place in the supply, its usage, how players really
// answered it and a suggested difficulty; create, edit, keep for practice, retire and restore; and
// the import of a CSV or JSON file with its report of refused rows.
import { useId, useState } from "react";
import type { AdminQuestion, AdminQuestionStatus, QuestionImportReport } from "@common/api/admin";
import { QUESTION_BANK } from "@common/console-messages";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent } from "@/components/ui/card";
import { Input, Label, Select, Textarea } from "@/components/ui/input";
import { Spinner } from "@/components/ui/spinner";
import { Tabs, TabsContent, TabsList, TabsTrigger } from "@/components/ui/tabs";
import { ApiError, errorMessage } from "@/lib/api";
import { useCategories } from "@/lib/categories";
import { toast } from "@/lib/toast";
import { useImportQuestions, useQuestionBank, useSetPracticeOnly, useSetRetired, type BankFilters } from "./api";
import { answerShownLabel, DIFFICULTY_LABELS, PRACTICE_ACTION, STATE_LABELS, STATE_TONES } from "./labels";
import { QuestionFormDialog } from "./question-form";
import { SupplyPanel } from "./supply-panel";

export default function QuestionsPage() {
  return (
    <div className="space-y-4">
      <h1 className="text-2xl font-bold">Questions</h1>
      <Tabs defaultValue="supply">
        <TabsList>
          <TabsTrigger value="supply">Supply</TabsTrigger>
          <TabsTrigger value="bank">Bank</TabsTrigger>
          <TabsTrigger value="import">Import</TabsTrigger>
        </TabsList>
        <TabsContent value="supply">
          <SupplyPanel />
        </TabsContent>
        <TabsContent value="bank">
          <Bank />
        </TabsContent>
        <TabsContent value="import">
          <ImportPanel />
        </TabsContent>
      </Tabs>
    </div>
  );
}

function Bank() {
  const id = useId();
  const categories = useCategories();
  const [filters, setFilters] = useState<BankFilters>({ q: "", categoryId: "", difficulty: "", status: "", page: 1 });
  const [editing, setEditing] = useState<AdminQuestion | "new" | null>(null);
  const bank = useQuestionBank(filters);
  const set = (patch: Partial<BankFilters>) => setFilters((f) => ({ ...f, page: 1, ...patch }));
  const nameOf = (categoryId: number) => categories.data?.find((c) => c.id === categoryId)?.name ?? `Category ${categoryId}`;

  return (
    <div className="space-y-4">
      <div className="grid gap-3 sm:grid-cols-2 lg:grid-cols-5">
        <div className="space-y-1 lg:col-span-2">
          <Label htmlFor={`${id}-q`}>Search</Label>
          <Input id={`${id}-q`} type="search" value={filters.q} onChange={(e) => set({ q: e.target.value })} />
        </div>
        <div className="space-y-1">
          <Label htmlFor={`${id}-category`}>Category</Label>
          <Select id={`${id}-category`} value={filters.categoryId} onChange={(e) => set({ categoryId: e.target.value })}>
            <option value="">All</option>
            {categories.data?.map((c) => (
              <option key={c.id} value={c.id}>
                {c.name}
              </option>
            ))}
          </Select>
        </div>
        <div className="space-y-1">
          <Label htmlFor={`${id}-difficulty`}>Difficulty</Label>
          <Select id={`${id}-difficulty`} value={filters.difficulty} onChange={(e) => set({ difficulty: e.target.value })}>
            <option value="">All</option>
            {[1, 2, 3].map((d) => (
              <option key={d} value={d}>
                {DIFFICULTY_LABELS[d]}
              </option>
            ))}
          </Select>
        </div>
        <div className="space-y-1">
          <Label htmlFor={`${id}-status`}>Status</Label>
          <Select id={`${id}-status`} value={filters.status} onChange={(e) => set({ status: e.target.value as AdminQuestionStatus | "" })}>
            <option value="">All</option>
            {Object.entries(STATE_LABELS).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </Select>
        </div>
      </div>
      <div className="flex flex-wrap items-center justify-between gap-2">
        <p className="text-sm text-muted-foreground">{bank.data ? `${bank.data.total} questions` : ""}</p>
        <Button onClick={() => setEditing("new")}>New question</Button>
      </div>

      {bank.isLoading ? (
        <Spinner />
      ) : bank.isError ? (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(bank.error)}
        </p>
      ) : (
        <div className="space-y-3">
          {bank.data?.items.map((q) => (
            <QuestionRow key={q.id} question={q} category={nameOf(q.categoryId)} onEdit={() => setEditing(q)} />
          ))}
        </div>
      )}
      {bank.data && (bank.data.page > 1 || bank.data.nextPage !== null) && (
        <div className="flex justify-between">
          <Button variant="outline" disabled={bank.data.page <= 1} onClick={() => setFilters((f) => ({ ...f, page: f.page - 1 }))}>
            Previous
          </Button>
          <Button variant="outline" disabled={bank.data.nextPage === null} onClick={() => setFilters((f) => ({ ...f, page: f.page + 1 }))}>
            Next
          </Button>
        </div>
      )}
      {editing !== null && <QuestionFormDialog question={editing === "new" ? null : editing} onClose={() => setEditing(null)} />}
    </div>
  );
}

function QuestionRow({ question: q, category, onEdit }: { question: AdminQuestion; category: string; onEdit(): void }) {
  const headingId = useId();
  const retire = useSetRetired();
  const practice = useSetPracticeOnly();
  // A burned question can never go back to prize play, and a retired one is in no draw: neither is offered the choice.
  const practiceChoice = q.state === "burned" || q.state === "retired" ? null : !q.practiceOnly;
  const setPractice = (practiceOnly: boolean) =>
    practice.mutate(
      { id: q.id, practiceOnly },
      {
        onSuccess: () => toast.success(practiceOnly ? QUESTION_BANK.practiceOnly : QUESTION_BANK.backToSupply),
        onError: (e) => toast.error(PRACTICE_ACTION.failed, errorMessage(e)),
      },
    );
  const toggle = () =>
    retire.mutate(
      { id: q.id, retire: q.retiredAt === null },
      {
        onSuccess: (r) => toast.success(r.retiredAt === null ? QUESTION_BANK.restored : QUESTION_BANK.retired),
        onError: (e) => toast.error(PRACTICE_ACTION.failed, errorMessage(e)),
      },
    );
  return (
    <Card role="article" aria-labelledby={headingId}>
      <CardContent className="space-y-2 pt-4">
        <div className="flex flex-wrap items-center gap-2 text-xs">
          <Badge variant="outline">{category}</Badge>
          <Badge variant="secondary">{DIFFICULTY_LABELS[q.difficulty]}</Badge>
          <Badge variant={STATE_TONES[q.state]}>{STATE_LABELS[q.state]}</Badge>
          {q.state === "held" && q.practiceOnly && <Badge variant="outline">{PRACTICE_ACTION.markedWhileHeld}</Badge>}
          {q.suggestedDifficulty !== null && <Badge variant="default">Suggested: {DIFFICULTY_LABELS[q.suggestedDifficulty]}</Badge>}
        </div>
        <h2 id={headingId} className="font-semibold break-words">
          {q.question}
        </h2>
        <p className="text-sm break-words">
          <span className="text-muted-foreground">Answer:</span> {q.correctAnswer}
          <span className="text-muted-foreground"> · Options: {q.options.join(", ")}</span>
        </p>
        <p className="text-sm text-muted-foreground">
          <span>{`${q.tournaments} tournaments · ${q.paidUses} prize uses`}</span>
          {" · "}
          <span>{q.correctRate === null ? "No answers yet" : `${Math.round(q.correctRate * 100)}% correct of ${q.answers} answers`}</span>
          {q.answerShownAt !== null && (
            <>
              {" · "}
              <span>{answerShownLabel(q.answerShownAt)}</span>
            </>
          )}
        </p>
        <div className="flex flex-wrap gap-2">
          <Button size="sm" variant="outline" onClick={onEdit}>
            Edit
          </Button>
          <Button size="sm" variant="outline" disabled={retire.isPending} onClick={toggle}>
            {q.retiredAt === null ? "Retire" : "Restore"}
          </Button>
          {practiceChoice !== null && (
            <Button size="sm" variant="outline" disabled={practice.isPending} onClick={() => setPractice(practiceChoice)}>
              {practiceChoice ? PRACTICE_ACTION.markPracticeOnly : PRACTICE_ACTION.backToPrizePlay}
            </Button>
          )}
        </div>
      </CardContent>
    </Card>
  );
}

/** The import's report: a refused file (400) carries the same report beside its message. */
function reportOf(error: unknown): (QuestionImportReport & { message: string }) | null {
  if (!(error instanceof ApiError)) return null;
  try {
    const body = JSON.parse(error.text) as Partial<QuestionImportReport>;
    return Array.isArray(body.rejected) ? { imported: 0, updated: 0, rejected: body.rejected, message: error.message } : null;
  } catch {
    return null;
  }
}

function ImportPanel() {
  const id = useId();
  const [format, setFormat] = useState<"csv" | "json">("csv");
  const [content, setContent] = useState("");
  const upload = useImportQuestions();
  const report: (QuestionImportReport & { message?: string }) | null = upload.data ?? reportOf(upload.error);

  const readFile = async (file: File | undefined) => {
    if (!file) return;
    setFormat(file.name.toLowerCase().endsWith(".json") ? "json" : "csv");
    setContent(await file.text());
  };

  return (
    <div className="space-y-4">
      <p className="text-sm text-muted-foreground">
        A CSV file (header: category, question, option_a-option_d, correct_answer, difficulty, explanation) or a JSON array of questions. A
        question whose text already exists in its category is updated in place.
      </p>
      <div className="grid gap-3 sm:grid-cols-2">
        <div className="space-y-1">
          <Label htmlFor={`${id}-file`}>File</Label>
          <Input
            id={`${id}-file`}
            type="file"
            accept=".csv,.json,text/csv,application/json"
            onChange={(e) => void readFile(e.target.files?.[0])}
          />
        </div>
        <div className="space-y-1">
          <Label htmlFor={`${id}-format`}>Format</Label>
          <Select id={`${id}-format`} value={format} onChange={(e) => setFormat(e.target.value as "csv" | "json")}>
            <option value="csv">CSV</option>
            <option value="json">JSON</option>
          </Select>
        </div>
      </div>
      <div className="space-y-1">
        <Label htmlFor={`${id}-content`}>File contents</Label>
        <Textarea
          id={`${id}-content`}
          className="min-h-40 font-mono text-xs"
          value={content}
          onChange={(e) => setContent(e.target.value)}
        />
      </div>
      <Button disabled={!content.trim() || upload.isPending} onClick={() => upload.mutate({ format, content })}>
        {upload.isPending ? "Importing..." : "Import questions"}
      </Button>
      {upload.isError && !report && (
        <p role="alert" className="text-sm text-destructive">
          {errorMessage(upload.error)}
        </p>
      )}
      {report && (
        <section aria-label="Import report" className="space-y-2 rounded-lg border p-4">
          {report.message && <p className="font-semibold text-destructive">{report.message}</p>}
          <p className="font-semibold">
            {`${report.imported} imported, ${report.updated} updated, ${report.rejected.length} row${report.rejected.length === 1 ? "" : "s"} refused`}
          </p>
          <ul className="space-y-2">
            {report.rejected.map((r) => (
              <li key={r.row} className="text-sm">
                <p className="font-medium">{r.row === 0 ? "The file as a whole" : `Row ${r.row}`}</p>
                <ul className="list-disc pl-5 text-muted-foreground">
                  {r.reasons.map((reason) => (
                    <li key={reason}>{reason}</li>
                  ))}
                </ul>
              </li>
            ))}
          </ul>
        </section>
      )}
    </div>
  );
}
