// The console's question bank and report queue over the admin API (docs/questions.md).
import { keepPreviousData, useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import type { AdminQuestionStatus, QuestionImportInput } from "@common/api/admin";
import type { QuestionForm, QuestionReportResolution } from "@common/api/question-bank";
import { api, read } from "@/lib/api-client";

export interface BankFilters {
  q: string;
  categoryId: string;
  difficulty: string;
  status: AdminQuestionStatus | "";
  page: number;
}

/** Everything under `all` (the bank's pages and the supply) is refetched after any change to a question. */
export const bankKeys = {
  all: ["admin", "questions"] as const,
  list: (f: BankFilters) => [...bankKeys.all, f] as const,
  supply: ["admin", "questions", "supply"] as const,
  reports: (status: "open" | "all") => ["admin", "question-reports", status] as const,
};

export function useQuestionBank(f: BankFilters) {
  return useQuery({
    queryKey: bankKeys.list(f),
    queryFn: () =>
      read(
        api.admin.questions.$get({
          query: { q: f.q, categoryId: f.categoryId, difficulty: f.difficulty, status: f.status, page: String(f.page) },
        }),
      ),
    placeholderData: keepPreviousData,
  });
}

/** GET /api/admin/questions/supply: fresh, held, burned and practice questions per category, with the scheduler's refusals. */
export function useQuestionSupply() {
  return useQuery({ queryKey: bankKeys.supply, queryFn: () => read(api.admin.questions.supply.$get()), refetchOnMount: "always" });
}

export function useSaveQuestion() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, form }: { id: number | null; form: QuestionForm }) =>
      id === null
        ? read(api.admin.questions.$post({ json: form }))
        : read(api.admin.questions[":id"].$put({ param: { id: String(id) }, json: form })),
    onSuccess: () => qc.invalidateQueries({ queryKey: bankKeys.all }),
  });
}

export function useSetRetired() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, retire }: { id: number; retire: boolean }) => {
      const param = { id: String(id) };
      return retire
        ? read(api.admin.questions[":id"].retire.$post({ param, json: {} }))
        : read(api.admin.questions[":id"].restore.$post({ param, json: {} }));
    },
    onSuccess: () => qc.invalidateQueries({ queryKey: bankKeys.all }),
  });
}

/** Keeps a question for practice (prize play never takes it) or gives it back; a burned one stays burned. */
export function useSetPracticeOnly() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, practiceOnly }: { id: number; practiceOnly: boolean }) =>
      read(api.admin.questions[":id"]["practice-only"].$post({ param: { id: String(id) }, json: { practiceOnly } })),
    onSuccess: () => qc.invalidateQueries({ queryKey: bankKeys.all }),
  });
}

export function useImportQuestions() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: (json: QuestionImportInput) => read(api.admin.questions.import.$post({ json })),
    onSuccess: () => qc.invalidateQueries({ queryKey: bankKeys.all }),
  });
}

export function useQuestionReports(status: "open" | "all") {
  return useQuery({
    queryKey: bankKeys.reports(status),
    queryFn: () => read(api.admin["question-reports"].$get({ query: { status } })),
  });
}

export function useResolveReport() {
  const qc = useQueryClient();
  return useMutation({
    mutationFn: ({ id, resolution, note }: { id: number; resolution: QuestionReportResolution; note: string }) =>
      read(
        api.admin["question-reports"][":id"].resolve.$post({
          param: { id: String(id) },
          json: { resolution, ...(note.trim() ? { note: note.trim() } : {}) },
        }),
      ),
    onSuccess: () => {
      void qc.invalidateQueries({ queryKey: ["admin", "question-reports"] });
      void qc.invalidateQueries({ queryKey: bankKeys.all });
    },
  });
}
