// The console's question bank and players' question reports: the bodies the routes take and the
// shapes they answer (docs/questions.md). A question form's rules are the import's
// (common/domain/question-import.ts), so the schema only checks shapes and the route reports every reason.
import { z } from "zod";
import { QUESTION_REPORT } from "../messages";
import { QUESTION_BANK } from "../console-messages";
import { QUESTION_REPORT_NOTE_MAX } from "../spec";

/** POST /api/admin/questions and PUT /api/admin/questions/:id: the whole question. */
export const questionFormSchema = z.object({
  categoryId: z.number({ error: "categoryId must be a category's id" }).int().positive(),
  question: z.string({ error: "question must be text" }),
  options: z.array(z.string({ error: "each option must be text" }), { error: "options must be a list of four texts" }),
  correctAnswer: z.string({ error: "correctAnswer must be text" }),
  difficulty: z.number({ error: "difficulty must be 1, 2 or 3" }),
  explanation: z.string({ error: "explanation must be text" }),
});
export type QuestionForm = z.infer<typeof questionFormSchema>;

const note = (message: string) =>
  z.preprocess((v) => (v === "" || v === null ? undefined : v), z.string().trim().max(QUESTION_REPORT_NOTE_MAX, message).optional());

/** POST /api/admin/questions/:id/retire and /restore: why, for the audit log. */
export const questionRetireSchema = z.object({ note: note(QUESTION_BANK.noteLength) });

export const QUESTION_REPORT_REASONS = ["wrong_answer", "unclear", "typo", "offensive"] as const;
export type QuestionReportReason = (typeof QUESTION_REPORT_REASONS)[number];

/** POST /api/questions/:id/report: a player's report of a question they were shown in that tournament. */
export const questionReportSchema = z.object({
  reason: z.enum(QUESTION_REPORT_REASONS, { error: QUESTION_REPORT.reason }),
  note: note(QUESTION_REPORT.noteLength),
  tournamentId: z.number({ error: "tournamentId must be a tournament's id" }).int().positive(),
});
export type QuestionReportInput = z.input<typeof questionReportSchema>;

export const QUESTION_REPORT_RESOLUTIONS = ["fixed", "retired", "dismissed"] as const;
export type QuestionReportResolution = (typeof QUESTION_REPORT_RESOLUTIONS)[number];

/** POST /api/admin/question-reports/:id/resolve; `retired` retires the question too. */
export const resolveQuestionReportSchema = z.object({
  resolution: z.enum(QUESTION_REPORT_RESOLUTIONS, { error: QUESTION_REPORT.resolution }),
  note: note(QUESTION_REPORT.noteLength),
});

/** GET /api/admin/question-reports?status=open|all (open, the default: the queue). */
export const questionReportListQuerySchema = z.object({
  status: z.enum(["open", "all"], { error: "status must be open or all" }).default("open"),
});

export interface AdminQuestionReport {
  id: number;
  reason: QuestionReportReason;
  note: string | null;
  reporter: { id: number; username: string };
  tournamentId: number | null;
  createdAt: string;
  resolution: QuestionReportResolution | null;
  resolvedBy: string | null;
  resolvedAt: string | null;
}

/** Reports grouped by question: the questions with open reports first, most reported first. */
export interface QuestionReportGroup {
  question: {
    id: number;
    categoryId: number;
    text: string;
    options: string[];
    correctAnswer: string;
    explanation: string | null;
    retiredAt: string | null;
  };
  open: number;
  reports: AdminQuestionReport[];
}
