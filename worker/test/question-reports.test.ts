// Players' question reports: only for a question the player was shown in that tournament, once
// per player and question; operators see them grouped by question and resolve each once, which
// notifies the reporter (and retires the question when so resolved), with an audit row.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { AUTH, NOTIFY, QUESTION_REPORT } from "../../common/messages";
import { call, registerUser } from "./helpers";
import { makeOperator } from "./fair-play-fixtures";
import { all, join, makeCategory, makePlayer, makeTournament, next, one, startNow, type Player } from "./tournament-fixtures";

const report = (who: Player, questionId: number, body: Record<string, unknown>) =>
  call(`/api/questions/${questionId}/report`, { cookie: who.cookie, body });

/** A started self-paced tournament the player joined and got their first question in. */
async function shownOne() {
  const cat = await makeCategory(4);
  const t = await makeTournament(cat);
  const player = await makePlayer();
  expect((await join(player, t.id)).status).toBe(200);
  await startNow(t.id);
  const q = await next(player, t.id);
  expect(q.status, q.text).toBe(200);
  return { cat, t, player, shown: q.body.id as number };
}

describe("POST /api/questions/:id/report", () => {
  it("takes a report of a question the player was shown, once, and 404s one they were not shown like an unknown id", async () => {
    const { t, player, shown } = await shownOne();
    expect((await call(`/api/questions/${shown}/report`, { body: { reason: "typo", tournamentId: t.id } })).status).toBe(401);
    const res = await report(player, shown, { reason: "wrong_answer", note: "  The answer is Saturn.  ", tournamentId: t.id });
    expect(res.status, res.text).toBe(201);
    expect(
      await one("SELECT user_id, feedback_type, comment, tournament_id, resolved FROM question_feedback WHERE question_id = ?", shown),
    ).toEqual({ user_id: player.id, feedback_type: "wrong_answer", comment: "The answer is Saturn.", tournament_id: t.id, resolved: 0 });

    const again = await report(player, shown, { reason: "typo", tournamentId: t.id });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ code: "question_already_reported", message: QUESTION_REPORT.already });

    const unknown = await report(player, 999_999_999, { reason: "typo", tournamentId: t.id });
    expect(unknown.status).toBe(404);
    const notShown = await report(player, t.questions.find((q) => q.id !== shown)!.id, { reason: "typo", tournamentId: t.id });
    expect(notShown.status).toBe(404);
    expect(notShown.body).toEqual(unknown.body);
    // Someone who did not play it.
    const stranger = await makePlayer();
    expect((await report(stranger, shown, { reason: "typo", tournamentId: t.id })).body).toEqual(unknown.body);

    expect((await report(player, shown, { reason: "boring", tournamentId: t.id })).body.message).toBe(QUESTION_REPORT.reason);
    expect((await report(player, shown, { reason: "typo", note: "x".repeat(501), tournamentId: t.id })).status).toBe(400);
    expect(await all("SELECT id FROM question_feedback WHERE question_id = ?", shown)).toHaveLength(1);
  });

  it("takes a report after the tournament, from the recorded answers", async () => {
    const cat = await makeCategory(4);
    const t = await makeTournament(cat, { status: "completed", startTime: Date.now() - 3_600_000 });
    const player = await makePlayer();
    const q = t.questions[0]!;
    await env.DB.prepare("INSERT INTO tournament_participants (tournament_id, user_id) VALUES (?, ?)").bind(t.id, player.id).run();
    await env.DB.prepare(
      "INSERT INTO user_responses (tournament_id, user_id, question_id, answer, is_correct, response_time) VALUES (?, ?, ?, NULL, 0, 30000)",
    )
      .bind(t.id, player.id, q.id)
      .run();
    expect((await report(player, q.id, { reason: "unclear", tournamentId: t.id })).status).toBe(201);
  });
});

describe("operators resolve reports", () => {
  it("is for operators with 2FA only", async () => {
    const player = await makePlayer();
    const noTwoFactor = await registerUser();
    await env.DB.prepare("UPDATE users SET role = 'admin' WHERE id = ?").bind(noTwoFactor.user.id).run();
    for (const [method, path, body] of [
      ["GET", "/api/admin/question-reports", undefined],
      ["POST", "/api/admin/question-reports/1/resolve", { resolution: "fixed" }],
    ] as const) {
      expect((await call(path, { method, cookie: player.cookie, body })).status).toBe(403);
      const refused = await call(path, { method, cookie: noTwoFactor.cookie, body });
      expect(refused.status).toBe(403);
      expect(refused.body).toEqual({ code: "admin_two_factor_required", message: AUTH.adminTwoFactorRequired });
    }
  });

  it("lists open reports grouped by question, resolves each once, notifies the reporter once, retires when so resolved, audits", async () => {
    const { t, player, shown } = await shownOne();
    const other = await makePlayer();
    expect((await join(other, t.id)).status).toBe(200);
    const theirs = await next(other, t.id);
    await report(player, shown, { reason: "wrong_answer", tournamentId: t.id });
    if (theirs.body.id === shown) await report(other, shown, { reason: "typo", tournamentId: t.id });
    const op = await makeOperator();

    const queue = await call("/api/admin/question-reports", { cookie: op.cookie });
    expect(queue.status, queue.text).toBe(200);
    const group = queue.body.find((g: { question: { id: number } }) => g.question.id === shown);
    expect(group).toMatchObject({ question: { id: shown, retiredAt: null }, open: theirs.body.id === shown ? 2 : 1 });
    const mine = group.reports.find((r: { reporter: { id: number } }) => r.reporter.id === player.id);
    expect(mine).toMatchObject({ reason: "wrong_answer", tournamentId: t.id, resolution: null, reporter: { username: player.username } });

    const resolve = (body: unknown) => call(`/api/admin/question-reports/${mine.id}/resolve`, { cookie: op.cookie, body });
    expect((await resolve({ resolution: "ignored" })).status).toBe(400);
    const done = await resolve({ resolution: "retired", note: "Two answers are right." });
    expect(done.status, done.text).toBe(200);
    expect(done.body).toMatchObject({ id: mine.id, resolution: "retired", resolvedBy: op.username });
    const second = await resolve({ resolution: "dismissed" });
    expect(second.status).toBe(409);
    expect(second.body.code).toBe("question_report_already_resolved");

    const question = await one<{ question: string; retired_at: number | null }>(
      "SELECT question, retired_at FROM questions WHERE id = ?",
      shown,
    );
    expect(question.retired_at).not.toBeNull();
    expect(
      await all(
        "SELECT message, action, tournament_id FROM notifications WHERE user_id = ? AND action = 'question_report_resolved'",
        player.id,
      ),
    ).toEqual([
      { message: NOTIFY.questionReportResolved(question.question, "retired"), action: "question_report_resolved", tournament_id: t.id },
    ]);
    expect(
      await all("SELECT actor_user_id, note FROM audit_log WHERE action = 'question_report.resolve' AND target_id = ?", String(mine.id)),
    ).toEqual([{ actor_user_id: op.id, note: "Two answers are right." }]);
    expect(await all("SELECT id FROM audit_log WHERE action = 'question.retire' AND target_id = ?", String(shown))).toHaveLength(1);
    expect((await call(`/api/admin/question-reports/999999999/resolve`, { cookie: op.cookie, body: { resolution: "fixed" } })).status).toBe(
      404,
    );
  });
});
