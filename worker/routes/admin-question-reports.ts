// Operators work players' question reports: the queue grouped by question (open ones first), and
// resolving a report as fixed, retired (the question leaves every draw) or dismissed. Resolving
// notifies the reporter; a report is resolved once. The notification, the retirement, the audit
// rows and the resolution are one batch whose statements all hold only while the report is open,
// so a second resolve (even at the same moment) changes nothing and notifies nobody.
import { Hono } from "hono";
import {
  questionReportListQuerySchema,
  resolveQuestionReportSchema,
  type AdminQuestionReport,
  type QuestionReportGroup,
  type QuestionReportReason,
  type QuestionReportResolution,
} from "../../common/api/question-bank";
import { NOTIFY, QUESTION_REPORT } from "../../common/messages";
import { auditStatementIf } from "../admin/audit";
import { iso } from "../db/present";
import { pushStoredNotification } from "../durable/hub-client";
import { conflict, notFound } from "../http/errors";
import { currentUser, requireAdmin, requireUser } from "../http/middleware";
import { idParam, validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";

/** The queue is a working list, not an archive: enough rows for any day's work. */
const LIST_LIMIT = 500;

interface ReportRow {
  id: number;
  question_id: number;
  feedback_type: string;
  comment: string | null;
  tournament_id: number | null;
  created_at: number;
  resolution: string | null;
  resolved_at: number | null;
  reporter_id: number;
  reporter: string;
  resolver: string | null;
  category_id: number;
  question: string;
  options: string;
  correct_answer: string;
  explanation: string | null;
  retired_at: number | null;
}

const SELECT_REPORTS = `SELECT f.id, f.question_id, f.feedback_type, f.comment, f.tournament_id, f.created_at, f.resolution, f.resolved_at,
    f.user_id AS reporter_id, u.username AS reporter, r.username AS resolver,
    q.category_id, q.question, q.options, q.correct_answer, q.explanation, q.retired_at
  FROM question_feedback f JOIN users u ON u.id = f.user_id JOIN questions q ON q.id = f.question_id
  LEFT JOIN users r ON r.id = f.resolved_by`;

const presentReport = (r: ReportRow): AdminQuestionReport => ({
  id: r.id,
  reason: r.feedback_type as QuestionReportReason,
  note: r.comment,
  reporter: { id: r.reporter_id, username: r.reporter },
  tournamentId: r.tournament_id,
  createdAt: iso(r.created_at),
  resolution: r.resolution as QuestionReportResolution | null,
  resolvedBy: r.resolver,
  resolvedAt: r.resolved_at === null ? null : iso(r.resolved_at),
});

/** Groups in the order of their first row: open reports first, oldest first. */
function groupByQuestion(rows: ReportRow[]): QuestionReportGroup[] {
  const groups = new Map<number, QuestionReportGroup>();
  for (const r of rows) {
    let g = groups.get(r.question_id);
    if (!g) {
      g = {
        question: {
          id: r.question_id,
          categoryId: r.category_id,
          text: r.question,
          options: JSON.parse(r.options) as string[],
          correctAnswer: r.correct_answer,
          explanation: r.explanation,
          retiredAt: r.retired_at === null ? null : iso(r.retired_at),
        },
        open: 0,
        reports: [],
      };
      groups.set(r.question_id, g);
    }
    if (r.resolution === null) g.open++;
    g.reports.push(presentReport(r));
  }
  return [...groups.values()];
}

export const adminQuestionReportRoutes = new Hono<AppEnv>()
  .use(requireUser, requireAdmin)
  .get("/", validate("query", questionReportListQuerySchema), async (c) => {
    const { status } = c.req.valid("query");
    const { results } = await c.env.DB.prepare(
      `${SELECT_REPORTS} ${status === "open" ? "WHERE f.resolved = 0" : ""} ORDER BY f.resolved, f.created_at, f.id LIMIT ${LIST_LIMIT}`,
    ).all<ReportRow>();
    return c.json(groupByQuestion(results));
  })
  .post("/:id/resolve", idParam, validate("json", resolveQuestionReportSchema), async (c) => {
    const { id } = c.req.valid("param");
    const { resolution, note } = c.req.valid("json");
    const d1 = c.env.DB;
    const actor = currentUser(c).id;
    const load = () => d1.prepare(`${SELECT_REPORTS} WHERE f.id = ?`).bind(id).first<ReportRow>();
    const before = await load();
    if (!before) throw notFound(QUESTION_REPORT.reportNotFound, "question_report_not_found");
    if (before.resolution !== null) throw conflict(QUESTION_REPORT.alreadyResolved(before.resolution), "question_report_already_resolved");

    const stamp = Date.now();
    const open = "EXISTS (SELECT 1 FROM question_feedback WHERE id = ? AND resolved = 0)";
    const message = NOTIFY.questionReportResolved(before.question, resolution);
    const retiring =
      resolution === "retired"
        ? [
            auditStatementIf(
              d1,
              actor,
              {
                action: "question.retire",
                targetType: "question",
                targetId: before.question_id,
                before: { retiredAt: null },
                after: { retiredAt: stamp },
                note: `Report #${id}${note ? `: ${note}` : ""}`,
              },
              `${open} AND EXISTS (SELECT 1 FROM questions WHERE id = ? AND retired_at IS NULL)`,
              id,
              before.question_id,
            ),
            d1
              .prepare(`UPDATE questions SET retired_at = ? WHERE id = ? AND retired_at IS NULL AND ${open}`)
              .bind(stamp, before.question_id, id),
          ]
        : [];
    const results = await d1.batch([
      d1
        .prepare(
          `INSERT INTO notifications (user_id, message, action, tournament_id, status)
           SELECT user_id, ?, 'question_report_resolved', tournament_id, ? FROM question_feedback WHERE id = ? AND resolved = 0`,
        )
        .bind(message, resolution, id),
      ...retiring,
      auditStatementIf(
        d1,
        actor,
        {
          action: "question_report.resolve",
          targetType: "question_report",
          targetId: id,
          before: { resolution: null },
          after: { resolution, questionId: before.question_id },
          note: note ?? null,
        },
        open,
        id,
      ),
      d1
        .prepare(
          "UPDATE question_feedback SET resolved = 1, resolution = ?, resolved_by = ?, resolved_at = ? WHERE id = ? AND resolved = 0",
        )
        .bind(resolution, actor, stamp, id),
    ]);
    const after = (await load())!;
    if (results.at(-1)!.meta.changes === 0)
      throw conflict(QUESTION_REPORT.alreadyResolved(after.resolution ?? resolution), "question_report_already_resolved");
    await pushStoredNotification(c.env, before.reporter_id, {
      type: "notification",
      message,
      data: { action: "question_report_resolved", tournamentId: before.tournament_id, status: resolution },
    });
    return c.json(presentReport(after));
  });
