// The host's tools in a live show (docs/operating.md, "Host tools"): pausing before the next
// question (held through alarms and a restart, resumed on the server's clock), voiding a question
// (it counts for nobody: reveal, settlement, prizes, the fairness report), disqualifying a player
// (free: at once; with money: a second operator's approval, carried out once), the results as CSV,
// and who may do any of it. Everything audited.
import { afterAll, describe, expect, it } from "vitest";
import { evictDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import type { FairnessReport } from "../../common/api/fair-play";
import { NOTIFY, PLAY } from "../../common/messages";
import { HOST_TOOLS } from "../../common/console-messages";
import { LIVE_SHOW_WINDOW_MS } from "../../common/domain/live-show";
import { checkTreeReveal } from "../../common/domain/fairness";
import { prizePoolFromFees, splitPrizePool } from "../../common/domain/prizes";
import { REVEAL_PAUSE_MS } from "../../common/spec";
import { call } from "./helpers";
import { makeOperator } from "./fair-play-fixtures";
import {
  all,
  correctOf,
  join,
  ledgerMismatches,
  liveShow,
  makeCategory,
  makePlayer,
  makeTournament,
  one,
  request,
  room,
  roomAlarm,
  roomSql,
  sleep,
  socketOf,
  startNow,
  stepShow,
  wrongOf,
  type Player,
  type SocketClient,
  type TournamentFixture,
} from "./tournament-fixtures";

/** A whole show of ten questions is some dozens of alarm runs and D1 batches: more than the default 5 s on a busy machine. */
const SHOW_TIMEOUT_MS = 30_000;

const host = (op: Player, t: { id: number }, action: string, body: unknown = {}) =>
  call<any>(`/api/admin/tournaments/${t.id}/${action}`, { cookie: op.cookie, body });

const auditOf = (action: string, t: { id: number }) =>
  all<{ actor_user_id: number; before: string | null; after: string | null; note: string | null }>(
    "SELECT actor_user_id, before, after, note FROM audit_log WHERE action = ? AND target_type = 'tournament' AND target_id = ? ORDER BY id",
    action,
    String(t.id),
  );

/** A live show with a house prize or an entry fee, these players joined with their sockets open, started. */
async function showWith(o: { prizePoolCents?: number; entryFeeCents?: number }, players: Player[]) {
  const t = await makeTournament(await makeCategory(), { format: "live_show", ...o });
  for (const p of players) expect((await join(p, t.id)).status).toBe(200);
  const sockets = await Promise.all(players.map((p) => socketOf(t, p)));
  // Three players, whatever the paid minimum: the tests are about the host, not the minimum.
  await roomSql(t.id, "UPDATE meta SET min_players = 0 WHERE id = 1");
  await startNow(t.id);
  return { t, sockets };
}

/** Plays question i of the show: each socket's answer (right, wrong, or none), then the window closes. */
async function playQuestion(t: TournamentFixture, sockets: SocketClient[], i: number, plan: ("right" | "wrong" | null)[]) {
  const q = await sockets[0]!.waitFor((f) => f.type === "question" && f.question.index === i);
  const qid = q.question.id as number;
  for (const [k, s] of sockets.entries()) {
    const how = plan[k];
    if (how)
      await request(s, {
        type: "answer",
        id: `q${i}-${k}`,
        questionId: qid,
        answer: how === "right" ? correctOf(t, qid) : wrongOf(t, qid),
      });
  }
  return qid;
}

const reveal = async (t: TournamentFixture, sockets: SocketClient[], i: number) => {
  await stepShow(t, LIVE_SHOW_WINDOW_MS);
  return Promise.all(sockets.map((s) => s.waitFor((f) => f.type === "reveal" && f.index === i)));
};

describe("pausing a live show", () => {
  it(
    "lets the open question reveal, holds the next through alarms and a restart, and resumes on the server's clock",
    { timeout: SHOW_TIMEOUT_MS },
    async () => {
      const op = await makeOperator();
      const { t, ps, sockets } = await liveShow(2);
      await startNow(t.id);
      await playQuestion(t, sockets, 0, ["right", "wrong"]);

      const paused = await host(op, t, "pause", { note: "sponsor break" });
      expect(paused.status, paused.text).toBe(200);
      expect(paused.body).toMatchObject({ changed: true, message: HOST_TOOLS.paused });
      for (const s of sockets) await s.waitFor((f) => f.type === "host" && f.paused === true);
      expect((await host(op, t, "pause")).body).toMatchObject({ changed: false });

      // The open window still runs to its close and reveal, with no countdown to a next question.
      const revealed = await reveal(t, sockets, 0);
      for (const r of revealed) expect(r.nextAt).toBeNull();
      expect(revealed[0]!.you.isCorrect).toBe(true);

      // However late the alarm runs, and after the object restarts, question 2 does not open.
      await stepShow(t, 10 * REVEAL_PAUSE_MS);
      await evictDurableObject(room(t.id));
      await stepShow(t, 100 * REVEAL_PAUSE_MS);
      await sleep(200);
      for (const s of sockets) expect(s.frames.some((f) => f.type === "question" && f.question.index === 1)).toBe(false);
      const live = await call<any>(`/api/admin/tournaments/${t.id}/live`, { cookie: op.cookie });
      expect(live.body).toMatchObject({ paused: true, show: { index: 0, stage: "reveal", closesAt: null } });
      // The show's end time is not reached while it waits (the lifecycle does not settle a held show).
      await roomSql(t.id, "UPDATE meta SET end_time = ? WHERE id = 1", Date.now() - 1);
      await stepShow(t, 100 * REVEAL_PAUSE_MS);
      expect((await one<{ status: string }>("SELECT status FROM tournaments WHERE id = ?", t.id)).status).toBe("live");

      // A player who reconnects is told at once.
      const late = await socketOf(t, ps[1]!);
      await late.waitFor((f) => f.type === "host" && f.paused === true && f.disqualified === null);
      await late.waitFor((f) => f.type === "status" && f.show?.paused === true);

      const before = Date.now();
      const resumed = await host(op, t, "resume");
      expect(resumed.body).toMatchObject({ changed: true, message: HOST_TOOLS.resumed });
      const status = await late.waitFor((f) => f.type === "status" && f.show?.stage === "reveal" && f.show.paused === undefined);
      // The next question goes out a reveal's pause after the resume, the same instant for everyone.
      expect(Date.parse(status.show.nextAt)).toBeGreaterThanOrEqual(before + REVEAL_PAUSE_MS - 1000);
      expect(Date.parse(status.show.nextAt)).toBeLessThanOrEqual(Date.now() + REVEAL_PAUSE_MS + 1000);
      expect(await roomAlarm(t.id)).not.toBeNull();
      // The end time moved by the pause.
      const end = await one<{ end_time: number }>("SELECT end_time FROM tournaments WHERE id = ?", t.id);
      expect(end.end_time).toBeGreaterThan(Date.now());
      await stepShow(t, REVEAL_PAUSE_MS);
      for (const s of [sockets[0]!, late]) await s.waitFor((f) => f.type === "question" && f.question.index === 1);
      expect((await host(op, t, "resume")).body).toMatchObject({ changed: false });

      const pauses = await auditOf("tournament.pause", t);
      expect(pauses).toHaveLength(1);
      expect(pauses[0]).toMatchObject({ actor_user_id: op.id, note: "sponsor break" });
      expect(await auditOf("tournament.resume", t)).toHaveLength(1);
      for (const s of [...sockets, late]) s.ws.close(1000);
    },
  );

  it("refuses a self-paced tournament and one that is not running", async () => {
    const op = await makeOperator();
    const category = await makeCategory();
    const selfPaced = await makeTournament(category, { startTime: Date.now() - 1000 });
    await startNow(selfPaced.id);
    const res = await host(op, selfPaced, "pause");
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: "live_show_only", message: HOST_TOOLS.liveShowOnly });
    const upcoming = await makeTournament(category, { format: "live_show" });
    expect((await host(op, upcoming, "pause")).body).toMatchObject({ code: "tournament_not_running" });
    expect(await auditOf("tournament.pause", selfPaced)).toHaveLength(0);
  });
});

describe("voiding a question", () => {
  it(
    "counts it for nobody: the reveal says so, settlement uses the other nine, prizes to the cent, the fairness report marks it",
    { timeout: SHOW_TIMEOUT_MS },
    async () => {
      const op = await makeOperator();
      const [a, b] = [await makePlayer(), await makePlayer()];
      // A username a spreadsheet would run as a formula: the export must not.
      await env.DB.prepare("UPDATE users SET username = ? WHERE id = ?").bind(`=cmd${a.id}`, a.id).run();
      const { t, sockets } = await showWith({ prizePoolCents: 1001 }, [a, b]);
      const before = (await one<{ c: string }>("SELECT fairness_commitment AS c FROM tournaments WHERE id = ?", t.id)).c;

      // Question 1: A right, B wrong; the host voids it while it is open.
      await playQuestion(t, sockets, 0, ["right", "wrong"]);
      expect((await host(op, t, "void-question", { index: 3, reason: "Not out yet" })).body).toMatchObject({ code: "question_not_opened" });
      const voided = await host(op, t, "void-question", { index: 0, reason: "Two options were right" });
      expect(voided.status, voided.text).toBe(200);
      expect(voided.body).toMatchObject({ changed: true, message: HOST_TOOLS.voided(0) });
      expect((await host(op, t, "void-question", { index: 0, reason: "Again" })).body).toMatchObject({ changed: false });
      const [ra, rb] = await reveal(t, sockets, 0);
      expect(ra).toMatchObject({ voided: true, you: { isCorrect: true, pointsEarned: 0, receipt: { points: 0 } } });
      expect(rb).toMatchObject({ voided: true });
      for (const s of sockets) await s.waitFor((f) => f.type === "host" && f.voided.includes(0));

      // Question 2: B answers (wrong), A does not; the rest nobody answers.
      for (let i = 1; i < 10; i++) {
        await stepShow(t, REVEAL_PAUSE_MS);
        await playQuestion(t, sockets, i, i === 1 ? [null, "wrong"] : [null, null]);
        await reveal(t, sockets, i);
      }
      await stepShow(t, REVEAL_PAUSE_MS);
      await sockets[0]!.waitFor((f) => f.type === "status" && f.status === "completed");

      // Without question 1 both scored 0; B answered one counted question (A none), so B leads on
      // the tiebreak (A's nine count as timed out) and is the only one to qualify for a prize.
      const rows = await all<{ user_id: number; score: number; rank: number; answered: number; correct: number; prize: number }>(
        `SELECT user_id, score, rank, questions_answered AS answered, correct_answers AS correct, prize_cents AS prize
       FROM tournament_participants WHERE tournament_id = ? ORDER BY rank`,
        t.id,
      );
      expect(rows.map((r) => [r.user_id, r.score, r.answered, r.correct])).toEqual([
        [b.id, 0, 1, 0],
        [a.id, 0, 0, 0],
      ]);
      const [first, second, third] = splitPrizePool(1001, 3);
      expect(first).toBe(651);
      const prizes = await all<{ user_id: number; amount_cents: number }>(
        "SELECT user_id, amount_cents FROM transactions WHERE reference LIKE ? ORDER BY user_id",
        `prize:${t.id}:%`,
      );
      expect(prizes).toEqual([{ user_id: b.id, amount_cents: 651 }]);
      const house = await all<{ amount_cents: number }>(
        "SELECT amount_cents FROM house_ledger WHERE tournament_id = ? AND type = 'unclaimed_prize' ORDER BY amount_cents DESC",
        t.id,
      );
      expect(house.map((h) => h.amount_cents)).toEqual([second, third]);
      expect(651 + second! + third!).toBe(1001);
      // Nine responses each: the voided question's answers are not in the stats.
      const responses = await all<{ user_id: number; n: number }>(
        "SELECT user_id, count(*) AS n FROM user_responses WHERE tournament_id = ? GROUP BY user_id",
        t.id,
      );
      expect(responses.map((r) => r.n)).toEqual([9, 9]);

      // The fairness report marks it and every question still verifies against the commitment.
      const report = (await call<FairnessReport>(`/api/tournaments/${t.id}/fairness`)).body;
      expect(report.scheme).toBe("merkle-v2");
      if (report.scheme !== "merkle-v2") return;
      expect(report.questions.map((q) => q.voided ?? false)).toEqual([true, ...Array(9).fill(false)]);
      expect(checkTreeReveal({ ...report, commitment: before })).toMatchObject({ verified: 10, ok: true });

      // The export: each answer with its receipt, the voided flag, the formula-like name defused.
      const csv = await call(`/api/admin/tournaments/${t.id}/results.csv`, { cookie: op.cookie });
      expect(csv.status).toBe(200);
      expect(csv.headers.get("content-type")).toMatch(/^text\/csv/);
      expect(csv.headers.get("content-disposition")).toContain(`tournament-${t.id}-results.csv`);
      const lines = csv.text.trimEnd().split("\r\n");
      expect(lines[0]).toBe(
        "rank,user_id,username,score,correct_answers,total_response_ms,disqualified,disqualified_reason,question_index,question_id,answer,correct,response_ms,voided,receipt",
      );
      expect(csv.text).not.toMatch(/(^|,)=cmd/m);
      const aLine = lines.find((l) => l.includes(`'=cmd${a.id}`))!;
      expect(aLine.startsWith(`2,${a.id},'=cmd${a.id},0,0,`)).toBe(true);
      expect(aLine).toContain(",true,");
      const receiptJson = aLine.slice(aLine.indexOf(',"{') + 2, -1).replace(/""/g, '"');
      const receipt = JSON.parse(receiptJson);
      expect(receipt).toMatchObject({ tournamentId: t.id, userId: a.id, points: 0 });
      expect((await call("/api/receipts/verify", { body: receipt })).body).toEqual({ genuine: true });
      expect(await auditOf("tournament.export_results", t)).toHaveLength(1);

      const voids = await auditOf("tournament.void_question", t);
      expect(voids).toHaveLength(1);
      expect(voids[0]).toMatchObject({ actor_user_id: op.id, note: "Two options were right" });
      expect(JSON.parse(voids[0]!.after!)).toMatchObject({ index: 0, voided: true });
      // Settled: nothing more to void.
      expect((await host(op, t, "void-question", { index: 1, reason: "Too late" })).body).toMatchObject({ code: "tournament_not_running" });
      for (const s of sockets) s.ws.close(1000);
    },
  );
});

describe("voiding a question already revealed", () => {
  it("tells every screen at once: the reveal again, marked voided, and the board without its points", async () => {
    const op = await makeOperator();
    const { t, sockets } = await liveShow(2);
    await startNow(t.id);
    await playQuestion(t, sockets, 0, ["right", "wrong"]);
    const [first] = await reveal(t, sockets, 0);
    expect(first.you.pointsEarned).toBeGreaterThan(0);
    expect(first.voided).toBeUndefined();
    const from = sockets[0]!.frames.length;

    expect((await host(op, t, "void-question", { index: 0, reason: "The answer was outdated" })).body).toMatchObject({ changed: true });
    const again = await sockets[0]!.waitFor((f) => f.type === "reveal" && f.index === 0 && f.voided === true, 3000, from);
    expect(again.you).toMatchObject({ isCorrect: true, pointsEarned: 0, receipt: { points: 0 } });
    await sockets[0]!.waitFor((f) => f.type === "host" && f.voided.length === 1 && f.voided[0] === 0, 3000, from);
    const board = await sockets[0]!.waitFor((f) => f.type === "leaderboard", 3000, from);
    expect(board.top.map((r: { score: number }) => r.score)).toEqual([0, 0]);
    for (const s of sockets) s.ws.close(1000);
  });
});

describe("disqualifying a player", () => {
  it("in a free tournament: out of the ranking at once, told why, no more answers", { timeout: SHOW_TIMEOUT_MS }, async () => {
    const op = await makeOperator();
    const { t, ps, sockets } = await liveShow(3);
    const [a, b, c] = ps as [Player, Player, Player];
    await startNow(t.id);
    await playQuestion(t, sockets, 0, ["right", "right", "wrong"]);
    await reveal(t, sockets, 0);

    const res = await host(op, t, "disqualify", { userId: a.id, reason: "Shared answers in the chat" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ changed: true });
    await sockets[0]!.waitFor((f) => f.type === "host" && f.disqualified === "Shared answers in the chat");
    expect(sockets[1]!.frames.some((f) => f.type === "host")).toBe(false);
    const note = await one<{ message: string; action: string }>(
      "SELECT message, action FROM notifications WHERE user_id = ? AND tournament_id = ? AND action = 'player_disqualified'",
      a.id,
      t.id,
    );
    expect(note.message).toBe(NOTIFY.disqualified(t.title, "Shared answers in the chat"));
    expect((await host(op, t, "disqualify", { userId: a.id, reason: "Again" })).body).toMatchObject({ changed: false });

    await stepShow(t, REVEAL_PAUSE_MS);
    const q = await sockets[1]!.waitFor((f) => f.type === "question" && f.question.index === 1);
    const refused = await request(sockets[0]!, {
      type: "answer",
      id: "late",
      questionId: q.question.id,
      answer: correctOf(t, q.question.id),
    });
    expect(refused).toMatchObject({ type: "error", code: "player_disqualified", message: PLAY.disqualified("Shared answers in the chat") });
    const board = await call<any[]>(`/api/tournaments/${t.id}/leaderboard`);
    expect(board.body.map((r) => r.userId)).toEqual([b.id, c.id]);

    for (let i = 1; i < 10; i++) {
      if (i > 1) {
        await stepShow(t, REVEAL_PAUSE_MS);
        await sockets[1]!.waitFor((f) => f.type === "question" && f.question.index === i);
      }
      await reveal(t, sockets.slice(1), i);
    }
    await stepShow(t, REVEAL_PAUSE_MS);
    await sockets[1]!.waitFor((f) => f.type === "status" && f.status === "completed");
    const ranks = await all<{ user_id: number; rank: number | null; reason: string | null }>(
      "SELECT user_id, rank, disqualified_reason AS reason FROM tournament_participants WHERE tournament_id = ? ORDER BY user_id",
      t.id,
    );
    expect(ranks).toEqual(
      [
        { user_id: a.id, rank: null, reason: "Shared answers in the chat" },
        { user_id: b.id, rank: 1, reason: null },
        { user_id: c.id, rank: 2, reason: null },
      ].sort((x, y) => x.user_id - y.user_id),
    );
    const final = await call<any[]>(`/api/tournaments/${t.id}/leaderboard`);
    expect(final.body.map((r) => [r.userId, r.rank])).toEqual([
      [b.id, 1],
      [c.id, 2],
    ]);
    const audit = await auditOf("tournament.disqualify", t);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_user_id: op.id, note: "Shared answers in the chat" });
    // The export lists the disqualified player, without a rank and with the reason.
    const csv = await call(`/api/admin/tournaments/${t.id}/results.csv`, { cookie: op.cookie });
    expect(csv.text).toContain(`,${a.id},${a.username},0,0,0,true,Shared answers in the chat,1,`);
    for (const s of sockets) s.ws.close(1000);
  });

  it(
    "in a paid tournament: a second operator approves, applied once; before settlement the places go to the next players, after it a held prize goes to the house",
    { timeout: SHOW_TIMEOUT_MS },
    async () => {
      const [op1, op2] = [await makeOperator(), await makeOperator()];
      const players = [
        await makePlayer({ balanceCents: 2000 }),
        await makePlayer({ balanceCents: 2000 }),
        await makePlayer({ balanceCents: 2000 }),
      ];
      const [a, b, c] = players as [Player, Player, Player];
      const { t, sockets } = await showWith({ entryFeeCents: 500 }, players);
      await playQuestion(t, sockets, 0, ["right", "right", "right"]);
      await reveal(t, sockets, 0);

      const asked = await host(op1, t, "disqualify", { userId: a.id, reason: "Second account of a banned player" });
      expect(asked.status, asked.text).toBe(202);
      expect(asked.body.message).toBe(HOST_TOOLS.disqualifyApprovalRequested);
      const approvalId = asked.body.approvalId as number;
      // A second click is the same request; nothing happened yet.
      expect((await host(op1, t, "disqualify", { userId: a.id, reason: "Second account of a banned player" })).body.approvalId).toBe(
        approvalId,
      );
      expect(
        (
          await one<{ d: number | null }>(
            "SELECT disqualified_at AS d FROM tournament_participants WHERE tournament_id = ? AND user_id = ?",
            t.id,
            a.id,
          )
        ).d,
      ).toBeNull();
      expect((await call(`/api/admin/approvals/${approvalId}/approve`, { cookie: op1.cookie, body: {} })).body).toMatchObject({
        code: "own_approval",
      });

      const approved = await call<any>(`/api/admin/approvals/${approvalId}/approve`, { cookie: op2.cookie, body: {} });
      expect(approved.status, approved.text).toBe(200);
      expect(approved.body).toMatchObject({ status: "approved", resultRef: `disqualification:${t.id}:${a.id}` });
      await sockets[0]!.waitFor((f) => f.type === "host" && f.disqualified === "Second account of a banned player");
      // Approving again changes nothing; neither does asking again now that the player is out.
      expect((await call(`/api/admin/approvals/${approvalId}/approve`, { cookie: op2.cookie, body: {} })).body).toMatchObject({
        code: "approval_decided",
      });
      expect((await host(op2, t, "disqualify", { userId: a.id, reason: "Again" })).body).toMatchObject({ changed: false });

      for (let i = 1; i < 10; i++) {
        await stepShow(t, REVEAL_PAUSE_MS);
        await playQuestion(t, sockets.slice(1), i, i === 1 ? ["right", "wrong"] : [null, null]);
        await reveal(t, sockets.slice(1), i);
      }
      await stepShow(t, REVEAL_PAUSE_MS);
      await sockets[1]!.waitFor((f) => f.type === "status" && f.status === "completed");

      const pool = prizePoolFromFees(3 * 500);
      const [p1, p2, p3] = splitPrizePool(pool, 3);
      const prizes = await all<{ user_id: number; amount_cents: number }>(
        "SELECT user_id, amount_cents FROM transactions WHERE reference LIKE ? ORDER BY amount_cents DESC",
        `prize:${t.id}:%`,
      );
      // A, first on the board before, gets nothing; B and C move up to 1st and 2nd.
      expect(prizes).toEqual([
        { user_id: b.id, amount_cents: p1 },
        { user_id: c.id, amount_cents: p2 },
      ]);
      const house = await all<{ amount_cents: number; reference: string }>(
        "SELECT amount_cents, reference FROM house_ledger WHERE tournament_id = ?",
        t.id,
      );
      // The third place has no qualifying player left: its share stays with the house, once.
      expect(house).toEqual([{ amount_cents: p3, reference: `unclaimed:${t.id}:3` }]);
      const audit = await auditOf("tournament.disqualify", t);
      expect(audit).toHaveLength(1);
      expect(audit[0]!.actor_user_id).toBe(op2.id);
      expect(JSON.parse(audit[0]!.after!)).toMatchObject({ approvalId, disqualified: true });

      // After settlement: B's prize is held for review (two correct answers faster than reading), C's was paid.
      const status = async (u: Player) =>
        (await one<{ status: string }>("SELECT status FROM transactions WHERE reference = ?", `prize:${t.id}:${u.id}`)).status;
      expect([await status(b), await status(c)]).toEqual(["held", "completed"]);
      const paid = await host(op1, t, "disqualify", { userId: c.id, reason: "Too late for a paid prize" });
      expect(paid.status).toBe(409);
      expect(paid.body).toMatchObject({ code: "prize_not_held", message: HOST_TOOLS.prizePaid });
      const later = await host(op1, t, "disqualify", { userId: b.id, reason: "Read the answers off a second screen" });
      expect(later.status, later.text).toBe(202);
      expect((await call<any>(`/api/admin/approvals/${later.body.approvalId}/approve`, { cookie: op2.cookie, body: {} })).status).toBe(200);
      expect((await call(`/api/admin/approvals/${later.body.approvalId}/approve`, { cookie: op2.cookie, body: {} })).status).toBe(409);
      expect((await host(op2, t, "disqualify", { userId: b.id, reason: "Again" })).body).toMatchObject({ changed: false });
      // The held prize went to the house ledger exactly once; nobody's balance moved.
      expect(await status(b)).toBe("forfeited");
      const forfeits = await all<{ amount_cents: number }>(
        "SELECT amount_cents FROM house_ledger WHERE reference = ? AND type = 'forfeited_prize'",
        `forfeit:${t.id}:${b.id}`,
      );
      expect(forfeits).toEqual([{ amount_cents: p1 }]);
      const settled = await call<any[]>(`/api/tournaments/${t.id}/leaderboard`);
      expect(settled.body.map((r) => [r.userId, r.rank])).toEqual([[c.id, 2]]);
      expect(await auditOf("tournament.disqualify", t)).toHaveLength(2);
      for (const s of sockets) s.ws.close(1000);
    },
  );
});

describe("a voided question and the fair-play checks", () => {
  // Answers to a voided question are left out of the checks (common/domain/fair-play.ts): the
  // room's records mark them (worker/durable/room/settlement.ts, playerRecords).
  it(
    "a player whose only second too-fast answer is on the voided question is not flagged, and the prize is paid",
    { timeout: SHOW_TIMEOUT_MS },
    async () => {
      const op = await makeOperator();
      const [a, b] = [await makePlayer(), await makePlayer()];
      const { t, sockets } = await showWith({ prizePoolCents: 1001 }, [a, b]);
      // A answers questions 1 and 2 right at once (faster than anyone reads: two such answers are a
      // flag); question 1 is voided. B answers nothing right.
      await playQuestion(t, sockets, 0, ["right", "wrong"]);
      expect((await host(op, t, "void-question", { index: 0, reason: "The answer was in the title" })).status).toBe(200);
      await reveal(t, sockets, 0);
      for (let i = 1; i < 10; i++) {
        await stepShow(t, REVEAL_PAUSE_MS);
        await playQuestion(t, sockets, i, i === 1 ? ["right", "wrong"] : [null, null]);
        await reveal(t, sockets, i);
      }
      await stepShow(t, REVEAL_PAUSE_MS);
      await sockets[0]!.waitFor((f) => f.type === "status" && f.status === "completed");
      const row = await one<{ flags: string | null; prize: number }>(
        "SELECT flags, prize_cents AS prize FROM tournament_participants WHERE tournament_id = ? AND user_id = ?",
        t.id,
        a.id,
      );
      expect(row.prize).toBe(651);
      expect(row.flags).toBeNull();
      const prize = await one<{ status: string }>("SELECT status FROM transactions WHERE reference = ?", `prize:${t.id}:${a.id}`);
      expect(prize.status).toBe("completed");
      for (const s of sockets) s.ws.close(1000);
    },
  );
});

describe("who may use the host's tools", () => {
  it("refuses players (403) and operators without step-up", async () => {
    const player = await makePlayer();
    const { t, sockets } = await liveShow(1);
    for (const [action, body] of [
      ["pause", {}],
      ["resume", {}],
      ["void-question", { index: 0, reason: "No reason" }],
      ["disqualify", { userId: player.id, reason: "No reason" }],
    ] as const) {
      expect((await host(player, t, action, body)).status).toBe(403);
    }
    expect((await call(`/api/admin/tournaments/${t.id}/results.csv`, { cookie: player.cookie })).status).toBe(403);
    const op = await makeOperator();
    await env.DB.prepare("UPDATE sessions SET step_up_at = NULL WHERE user_id = ?").bind(op.id).run();
    expect((await host(op, t, "pause")).body).toMatchObject({ code: "step_up_required" });
    for (const s of sockets) s.ws.close(1000);
  });

  it("hands out the results CSV (every answer with its receipt) only after a recent step-up, and audits each copy", async () => {
    const { t, sockets } = await liveShow(1);
    const op = await makeOperator();
    await env.DB.prepare("UPDATE sessions SET step_up_at = NULL WHERE user_id = ?").bind(op.id).run();
    const refused = await call<any>(`/api/admin/tournaments/${t.id}/results.csv`, { cookie: op.cookie });
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ code: "step_up_required" });
    expect(await auditOf("tournament.export_results", t)).toEqual([]);
    // A step-up older than the operators' window counts for nothing either.
    await env.DB.prepare("UPDATE sessions SET step_up_at = ? WHERE user_id = ?")
      .bind(Date.now() - 16 * 60_000, op.id)
      .run();
    expect((await call<any>(`/api/admin/tournaments/${t.id}/results.csv`, { cookie: op.cookie })).body).toMatchObject({
      code: "step_up_required",
    });
    await env.DB.prepare("UPDATE sessions SET step_up_at = ? WHERE user_id = ?").bind(Date.now(), op.id).run();
    const csv = await call(`/api/admin/tournaments/${t.id}/results.csv`, { cookie: op.cookie });
    expect(csv.status).toBe(200);
    expect(csv.text.startsWith("rank,user_id,")).toBe(true);
    expect(await auditOf("tournament.export_results", t)).toEqual([expect.objectContaining({ actor_user_id: op.id })]);
    for (const s of sockets) s.ws.close(1000);
  });
});

afterAll(async () => {
  expect(await ledgerMismatches()).toEqual([]);
});
