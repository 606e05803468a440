// Create or edit a question: the same rules as an import, checked by the server, which answers
// every broken rule at once (shown as a list); a refusal of an edit (a committed question) in words.
import { useId, useState } from "react";
import type { AdminQuestion } from "@common/api/admin";
import type { QuestionForm } from "@common/api/question-bank";
import { QUESTION_BANK } from "@common/console-messages";
import { OPTIONS_PER_QUESTION } from "@common/spec";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input, Label, Select, Textarea } from "@/components/ui/input";
import { ApiError, errorMessage } from "@/lib/api";
import { useCategories } from "@/lib/categories";
import { toast } from "@/lib/toast";
import { useSaveQuestion } from "./api";
import { DIFFICULTY_LABELS } from "./labels";

const blank = (categoryId: number): QuestionForm => ({
  categoryId,
  question: "",
  options: Array<string>(OPTIONS_PER_QUESTION).fill(""),
  correctAnswer: "",
  difficulty: 1,
  explanation: "",
});

const fromQuestion = (q: AdminQuestion): QuestionForm => ({
  categoryId: q.categoryId,
  question: q.question,
  options: q.options,
  correctAnswer: q.correctAnswer,
  difficulty: q.difficulty,
  explanation: q.explanation ?? "",
});

/** The server's reasons for a question_invalid refusal, else its message. */
function problemsOf(error: unknown): string[] {
  if (error instanceof ApiError && error.code === "question_invalid") {
    try {
      const reasons = (JSON.parse(error.text) as { reasons?: unknown }).reasons;
      if (Array.isArray(reasons) && reasons.every((r) => typeof r === "string")) return reasons;
    } catch {
      // Falls through to the message.
    }
  }
  return [errorMessage(error)];
}

interface QuestionFormDialogProps {
  /** null: a new question. */
  question: AdminQuestion | null;
  onClose(): void;
}

export function QuestionFormDialog({ question, onClose }: QuestionFormDialogProps) {
  const id = useId();
  const categories = useCategories();
  const [form, setForm] = useState<QuestionForm>(() => (question ? fromQuestion(question) : blank(categories.data?.[0]?.id ?? 0)));
  const save = useSaveQuestion();
  const categoryId = form.categoryId || categories.data?.[0]?.id || 0;
  const set = (patch: Partial<QuestionForm>) => setForm((f) => ({ ...f, ...patch }));
  const title = question ? "Edit question" : "New question";

  const submit = () =>
    save.mutate(
      { id: question?.id ?? null, form: { ...form, categoryId } },
      {
        onSuccess: () => {
          toast.success(question ? QUESTION_BANK.saved : QUESTION_BANK.created);
          onClose();
        },
      },
    );

  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent className="max-w-xl">
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>
            Four different options, the correct one among them, and an explanation players see after answering.
          </DialogDescription>
        </DialogHeader>
        <div className="space-y-3">
          <div className="space-y-1">
            <Label htmlFor={`${id}-category`}>Category</Label>
            <Select id={`${id}-category`} value={categoryId} onChange={(e) => set({ categoryId: Number(e.target.value) })}>
              {categories.data?.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </Select>
          </div>
          <div className="space-y-1">
            <Label htmlFor={`${id}-question`}>Question</Label>
            <Textarea id={`${id}-question`} value={form.question} onChange={(e) => set({ question: e.target.value })} />
          </div>
          <div className="grid gap-3 sm:grid-cols-2">
            {form.options.map((o, i) => (
              <div key={i} className="space-y-1">
                <Label htmlFor={`${id}-option-${i}`}>Option {String.fromCharCode(65 + i)}</Label>
                <Input
                  id={`${id}-option-${i}`}
                  value={o}
                  onChange={(e) => set({ options: form.options.map((x, j) => (j === i ? e.target.value : x)) })}
                />
              </div>
            ))}
          </div>
          <div className="grid gap-3 sm:grid-cols-2">
            <div className="space-y-1">
              <Label htmlFor={`${id}-correct`}>Correct answer</Label>
              <Input id={`${id}-correct`} value={form.correctAnswer} onChange={(e) => set({ correctAnswer: e.target.value })} />
            </div>
            <div className="space-y-1">
              <Label htmlFor={`${id}-difficulty`}>Difficulty</Label>
              <Select id={`${id}-difficulty`} value={form.difficulty} onChange={(e) => set({ difficulty: Number(e.target.value) })}>
                {[1, 2, 3].map((d) => (
                  <option key={d} value={d}>
                    {DIFFICULTY_LABELS[d]}
                  </option>
                ))}
              </Select>
            </div>
          </div>
          <div className="space-y-1">
            <Label htmlFor={`${id}-explanation`}>Explanation</Label>
            <Textarea id={`${id}-explanation`} value={form.explanation} onChange={(e) => set({ explanation: e.target.value })} />
          </div>
          {save.isError && (
            <ul role="alert" className="list-disc space-y-1 pl-5 text-sm text-destructive">
              {problemsOf(save.error).map((p) => (
                <li key={p}>{p}</li>
              ))}
            </ul>
          )}
        </div>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button disabled={save.isPending} onClick={submit}>
            {save.isPending ? "Saving..." : "Save"}
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
