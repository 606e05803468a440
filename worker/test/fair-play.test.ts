// Fair play: answers withheld while they could be passed on, refusals that do not tell question
// ids apart, the fairness commitment, signed receipts, per-player draws, and flags that hold a prize.
import { describe, expect, it } from "vitest";
import { CHEAT, PLAY } from "../../common/messages";
import { checkTreeReveal, drawCandidate } from "../../common/domain/fairness";
import type { AnswerReceipt, FairnessReport, TournamentReceipts } from "../../common/api/fair-play";
import type { PlayerQuestion, UserTournamentEntry } from "../../common/api/tournaments";
import { call } from "./helpers";
import { makeOperator } from "./fair-play-fixtures";
import {
  all,
  answer,
  balanceOf,
  complete,
  correctOf,
  endNow,
  join,
  ledgerMismatches,
  makeCategory,
  makeDrawnTournament,
  makePlayer,
  makePractice,
  keepForPractice,
  makeTournament,
  next,
  one,
  play,
  startNow,
  type Player,
} from "./tournament-fixtures";

type MerkleReport = Extract<FairnessReport, { scheme: "merkle-v2" }>;

/** The report of a settled tournament committed under v2 (decision 015; v1 rooms: fairness-merkle.test.ts). */
async function merkleReport(tournamentId: number): Promise<MerkleReport> {
  const res = await call<FairnessReport>(`/api/tournaments/${tournamentId}/fairness`);
  expect(res.status, res.text).toBe(200);
  expect(res.body.scheme).toBe("merkle-v2");
  return res.body as MerkleReport;
}

/** Whether every revealed question's leaf and proof lead to this commitment. */
const verifies = (r: MerkleReport, commitment: string) => checkTreeReveal({ ...r, commitment }).ok;

const cheats = (tournamentId: number, userId: number) =>
  all<{ reason: string }>("SELECT reason FROM cheat_attempts WHERE tournament_id = ? AND user_id = ? ORDER BY id", tournamentId, userId);

async function joined(t: { id: number }, n: number): Promise<Player[]> {
  const ps: Player[] = [];
  for (let i = 0; i < n; i++) {
    const p = await makePlayer();
    expect((await join(p, t.id)).status).toBe(200);
    ps.push(p);
  }
  return ps;
}

describe("withheld answers", () => {
  it("a self-paced prize tournament locks answers in and shows right or wrong, points and the correct answer only once it has ended", async () => {
    const t = await makeTournament(await makeCategory(), { startTime: Date.now() - 1000, prizePoolCents: 1000 });
    const [p] = await joined(t, 1);
    const r = await play(p!, t, true, 1500);
    const end = await one<{ end_time: number }>("SELECT end_time FROM tournaments WHERE id = ?", t.id);
    expect(r).toMatchObject({ locked: true, revealAt: new Date(end.end_time).toISOString(), receipt: { points: null } });
    expect(JSON.stringify(r)).not.toMatch(/isCorrect|pointsEarned|correctAnswer|explanation/);
    const during = await call<PlayerQuestion[]>(`/api/tournaments/${t.id}/questions`, { cookie: p!.cookie });
    expect(during.text).not.toContain(correctOf(t, during.body[0]!.id).replace(/^Right /, "Because "));
    expect(during.body[0]!.result).toMatchObject({ locked: true });

    await endNow(t.id);
    const after = await call<PlayerQuestion[]>(`/api/tournaments/${t.id}/questions`, { cookie: p!.cookie });
    expect(after.body[0]!.result).toMatchObject({ isCorrect: true, correctAnswer: correctOf(t, after.body[0]!.id), withheldUntil: null });
    expect((after.body[0]!.result as { explanation: string }).explanation).toContain("Because");
  });

  it("practice still shows the correct answer and explanation at once", async () => {
    const category = await makeCategory();
    await keepForPractice(category);
    const practice = await makePractice(category);
    const p = await makePlayer();
    const run = await join(p, practice.id);
    expect(run.status).toBe(200);
    const runId = run.body.tournament.id as number;
    const q = await next(p, runId);
    const bank = category.questions.find((x) => x.id === q.body.id)!;
    const res = await answer(p, runId, q.body.id, bank.correct);
    expect(res.body).toMatchObject({ isCorrect: true, correctAnswer: bank.correct, withheldUntil: null });
    expect(res.body.explanation).toContain("Because");
  });
});

describe("refusals that do not tell question ids apart", () => {
  const refusal = (r: { status: number; body: unknown }) => ({ status: r.status, body: r.body });

  it("before the start, for a question not issued, and after finishing: the same status and message for a tournament's question and any other id", async () => {
    const t = await makeTournament(await makeCategory());
    const [p] = await joined(t, 1);
    const real = t.questions[5]!.id;
    const bogus = 987_654_321;

    const early = [await answer(p!, t.id, real, correctOf(t, real)), await answer(p!, t.id, bogus, "x")];
    expect(refusal(early[0]!)).toEqual(refusal(early[1]!));
    expect(early[0]!.body).toEqual({ code: "not_live", message: PLAY.notLive });

    await startNow(t.id);
    await next(p!, t.id);
    const notIssued = [await answer(p!, t.id, real, correctOf(t, real)), await answer(p!, t.id, bogus, "x")];
    expect(refusal(notIssued[0]!)).toEqual(refusal(notIssued[1]!));
    expect(notIssued[0]!.body).toEqual({ code: "not_issued", message: PLAY.notIssued });

    await complete(p!, t.id);
    const finished = [await answer(p!, t.id, real, correctOf(t, real)), await answer(p!, t.id, bogus, "x")];
    expect(refusal(finished[0]!)).toEqual(refusal(finished[1]!));
    expect(finished[0]!.body).toEqual({ code: "already_finished", message: PLAY.alreadyFinished });

    // Operators still see which it was.
    expect((await cheats(t.id, p!.id)).map((c) => c.reason)).toEqual([
      CHEAT.beforeStart(real),
      CHEAT.beforeStart(bogus),
      CHEAT.notIssued(real),
      CHEAT.unknownQuestion(bogus),
      CHEAT.afterFinish(real),
      CHEAT.afterFinish(bogus),
    ]);
  });

  it("in a live show, a question not yet sent and an unknown id get the same refusal", async () => {
    const t = await makeTournament(await makeCategory(), { format: "live_show" });
    const [p] = await joined(t, 1);
    await startNow(t.id);
    const later = t.questions[4]!.id;
    const a = await answer(p!, t.id, later, correctOf(t, later));
    const b = await answer(p!, t.id, 987_654_321, "x");
    expect({ status: a.status, body: a.body }).toEqual({ status: b.status, body: b.body });
    expect(a.body).toEqual({ code: "not_issued", message: PLAY.notIssued });
  });
});

describe("the fairness commitment", () => {
  it("is published before the start and opens after settlement; a tampered answer key does not match", async () => {
    const t = await makeTournament(await makeCategory(), { prizePoolCents: 1000 });
    const [p] = await joined(t, 1);
    const detail = await call(`/api/tournaments/${t.id}`);
    const published = detail.body.fairnessCommitment as string;
    expect(published).toMatch(/^[0-9a-f]{64}$/);

    const early = await call(`/api/tournaments/${t.id}/fairness`);
    expect(early.status).toBe(409);
    expect(early.body.code).toBe("fairness_not_revealed");

    await startNow(t.id);
    for (let i = 0; i < 10; i++) await play(p!, t, i % 2 === 0, 1500 + 300 * i);
    expect((await call(`/api/tournaments/${t.id}/fairness`)).status).toBe(409);
    await complete(p!, t.id);

    const report = await merkleReport(t.id);
    expect(report.commitment).toBe(published);
    expect(report.drawWidth).toBe(1);
    expect(report.leafCount).toBe(10);
    // Everyone plays the same ten, so all ten were drawn and all ten are revealed.
    expect(report.questions.map((q) => [q.order, q.questionId, q.question, q.correctAnswer])).toEqual(
      t.questions.map((q, order) => [order, q.id, q.question, q.correct]),
    );
    for (const q of report.questions) {
      expect(q.timesIssued).toBe(1);
      expect(Date.parse(q.closedAt!)).toBeGreaterThanOrEqual(Date.parse(q.issuedAt!));
    }
    expect(verifies(report, published)).toBe(true);

    const tampered = structuredClone(report);
    tampered.questions[3]!.correctAnswer = tampered.questions[3]!.correctAnswer + " ";
    expect(verifies(tampered, published)).toBe(false);
    const flipped = (hex: string) => hex.replace(/^./, (c) => (c === "0" ? "1" : "0"));
    expect(verifies({ ...report, questions: report.questions.map((q) => ({ ...q, leafSalt: flipped(q.leafSalt) })) }, published)).toBe(
      false,
    );
    expect(verifies({ ...report, drawKey: flipped(report.drawKey) }, published)).toBe(false);
  });

  it("is never opened for a cancelled tournament, whose questions nobody saw", async () => {
    const t = await makeTournament(await makeCategory(), { entryFeeCents: 500 });
    await call(`/api/tournaments/${t.id}`);
    await startNow(t.id); // no players: a paid tournament below its minimum is cancelled
    const res = await call(`/api/tournaments/${t.id}/fairness`);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe("fairness_not_revealed");
  });
});

describe("answer receipts", () => {
  it("every accepted answer carries a receipt that verifies; a changed receipt does not; the history lists them", async () => {
    const t = await makeTournament(await makeCategory(), { startTime: Date.now() - 1000 });
    const [p] = await joined(t, 1);
    const result = await play(p!, t, true, 1200);
    const receipt = result.receipt as AnswerReceipt;
    // Prize play: the points are not known until the end (docs/fair-play.md).
    expect(receipt).toMatchObject({
      v: 1,
      tournamentId: t.id,
      userId: p!.id,
      points: null,
      responseMs: result.responseTime,
    });

    const verify = (r: unknown) => call("/api/receipts/verify", { body: r });
    expect((await verify(receipt)).body).toEqual({ genuine: true });
    expect((await verify({ ...receipt, points: 600 })).body).toEqual({ genuine: false });
    expect((await verify({ ...receipt, answer: "Something else" })).body).toEqual({ genuine: false });
    expect((await verify({ ...receipt, userId: receipt.userId + 1 })).body).toEqual({ genuine: false });
    const malformed = await verify({ ...receipt, signature: "not-hex" });
    expect(malformed.status).toBe(400);

    for (let i = 1; i < 10; i++) await play(p!, t, i % 3 === 0, 1500 + 200 * i);
    // The only player finishing settles the tournament: the history's receipts carry the points.
    await complete(p!, t.id);
    const history = await call<TournamentReceipts>(`/api/user/tournaments/${t.id}/receipts`, { cookie: p!.cookie });
    expect(history.status).toBe(200);
    expect(history.body.receipts).toHaveLength(10);
    const { points: _points, signature: _signature, ...kept } = receipt;
    expect(history.body.receipts[0]).toMatchObject({ ...kept, question: t.questions[0]!.question });
    expect(history.body.receipts[0]!.points).toBeGreaterThan(100);
    for (const r of history.body.receipts) {
      const { question: _question, ...bare } = r;
      expect((await verify(bare)).body).toEqual({ genuine: true });
    }
    // Another player's receipts are not theirs to list.
    const other = await makePlayer();
    expect((await call<TournamentReceipts>(`/api/user/tournaments/${t.id}/receipts`, { cookie: other.cookie })).body.receipts).toEqual([]);
  });

  it("a live show's answer is receipted at once, without points until the reveal", async () => {
    const t = await makeTournament(await makeCategory(), { format: "live_show" });
    const [p] = await joined(t, 1);
    await startNow(t.id);
    const q = await next(p!, t.id);
    const locked = await answer(p!, t.id, q.body.id, correctOf(t, q.body.id));
    expect(locked.body).toMatchObject({ locked: true, receipt: { points: null, questionId: q.body.id } });
    expect(JSON.stringify(locked.body)).not.toMatch(/correctAnswer|isCorrect|explanation/);
    expect((await call("/api/receipts/verify", { body: locked.body.receipt })).body).toEqual({ genuine: true });
  });
});

describe("per-player draws", () => {
  it("each player draws one question per slot from the committed pool, as the revealed draw key says, on the same ramp", async () => {
    const t = await makeDrawnTournament(3);
    const players = await joined(t, 4);
    expect((await call(`/api/tournaments/${t.id}`)).body.questionCount).toBe(10);
    const seen = new Map<number, number[]>();
    for (const p of players) {
      const mine: number[] = [];
      for (let slot = 0; slot < 10; slot++) {
        const q = await next(p, t.id);
        expect(q.body).toMatchObject({ index: slot, total: 10 });
        expect(t.pool.slice(slot * 3, slot * 3 + 3)).toContain(q.body.id);
        mine.push(q.body.id);
        await answer(p, t.id, q.body.id, correctOf(t, q.body.id));
      }
      seen.set(p.id, mine);
      await complete(p, t.id);
    }
    // Four players over ten slots of three: not everyone got the same ten.
    expect(new Set([...seen.values()].map((ids) => ids.join())).size).toBeGreaterThan(1);

    const report = await merkleReport(t.id);
    expect(report.drawWidth).toBe(3);
    expect(report.leafCount).toBe(30);
    // The pool is committed whole; what was drawn is revealed, in committed order.
    const drawn = new Set([...seen.values()].flat());
    expect(report.questions.map((q) => q.questionId)).toEqual(t.pool.filter((id) => drawn.has(id)));
    expect(verifies(report, (await call(`/api/tournaments/${t.id}`)).body.fairnessCommitment)).toBe(true);
    for (const p of players) {
      const expected = Array.from({ length: 10 }, (_, slot) => t.pool[slot * 3 + drawCandidate(report.drawKey, p.id, slot, 3)]);
      expect(seen.get(p.id)).toEqual(expected);
    }
  });
});

describe("bots and collusion", () => {
  it("a scripted sub-second perfect run is flagged and its prize held, out of the balance", async () => {
    const t = await makeTournament(await makeCategory(), { startTime: Date.now() - 1000, prizePoolCents: 10_000 });
    const [bot, human] = await joined(t, 2);
    for (let i = 0; i < 10; i++) {
      await play(bot!, t, true, 150);
      await play(human!, t, i % 3 !== 0, 2500 + 900 * i);
    }
    await complete(human!, t.id);
    await complete(bot!, t.id);

    const flags = await one<{ flags: string | null }>(
      "SELECT flags FROM tournament_participants WHERE tournament_id = ? AND user_id = ?",
      t.id,
      bot!.id,
    );
    const kinds = (JSON.parse(flags.flags!) as { kind: string }[]).map((f) => f.kind);
    expect(kinds).toContain("sub_second_perfect");
    expect(kinds).toContain("inhuman_speed");
    expect(
      (
        await one<{ flags: string | null }>(
          "SELECT flags FROM tournament_participants WHERE tournament_id = ? AND user_id = ?",
          t.id,
          human!.id,
        )
      ).flags,
    ).toBeNull();

    const prize = await one<{ status: string; amount_cents: number }>(
      "SELECT status, amount_cents FROM transactions WHERE reference = ?",
      `prize:${t.id}:${bot!.id}`,
    );
    expect(prize).toEqual({ status: "held", amount_cents: 6500 });
    expect(await balanceOf(bot!.id)).toBe(0);
    expect(
      (await one<{ status: string }>("SELECT status FROM transactions WHERE reference = ?", `prize:${t.id}:${human!.id}`)).status,
    ).toBe("completed");
    expect(await ledgerMismatches()).toEqual([]);

    const mine = (await call<UserTournamentEntry[]>("/api/user/tournaments", { cookie: bot!.cookie })).body.find((e) => e.id === t.id)!;
    expect(mine).toMatchObject({ prizeStatus: "held", reviewReason: "Unusual answer timing", prize: 65 });
    expect(JSON.stringify(mine)).not.toMatch(/sub_second|inhuman|1000 ms/);

    // An operator sees it and releases it: into the balance exactly once, however often it is asked.
    const op = await makeOperator();
    const report = await call(`/api/admin/tournaments/${t.id}/integrity`, { cookie: op.cookie });
    expect(report.body.flagged.map((f: { userId: number }) => f.userId)).toEqual([bot!.id]);
    const held = (await call("/api/admin/held-prizes", { cookie: op.cookie })).body.find((h: { userId: number }) => h.userId === bot!.id);
    const releases = await Promise.all(
      [1, 2, 3].map(() => call(`/api/admin/held-prizes/${held.id}/release`, { cookie: op.cookie, method: "POST" })),
    );
    expect(releases.map((r) => r.status).sort()).toEqual([200, 409, 409]);
    expect(await balanceOf(bot!.id)).toBe(6500);
    const forfeitAfter = await call(`/api/admin/held-prizes/${held.id}/forfeit`, {
      cookie: op.cookie,
      body: { reason: "Too late to forfeit." },
    });
    expect(forfeitAfter.status).toBe(409);
    expect(await balanceOf(bot!.id)).toBe(6500);
    expect(await ledgerMismatches()).toEqual([]);
  });

  it("a flagged prize forfeited goes to the house exactly once", async () => {
    const t = await makeTournament(await makeCategory(), { startTime: Date.now() - 1000, prizePoolCents: 10_000 });
    const [bot] = await joined(t, 1);
    for (let i = 0; i < 10; i++) await play(bot!, t, true, 150);
    await complete(bot!, t.id);
    const op = await makeOperator();
    const held = (await call("/api/admin/held-prizes", { cookie: op.cookie })).body.find((h: { userId: number }) => h.userId === bot!.id);
    const forfeit = () => call(`/api/admin/held-prizes/${held.id}/forfeit`, { cookie: op.cookie, body: { reason: "Scripted answers." } });
    expect((await forfeit()).status).toBe(200);
    expect((await forfeit()).status).toBe(409);
    expect(await balanceOf(bot!.id)).toBe(0);
    const house = await all<{ amount_cents: number }>(
      "SELECT amount_cents FROM house_ledger WHERE reference = ?",
      `forfeit:${t.id}:${bot!.id}`,
    );
    expect(house).toEqual([{ amount_cents: 6500 }]);
    const mine = (await call<UserTournamentEntry[]>("/api/user/tournaments", { cookie: bot!.cookie })).body.find((e) => e.id === t.id)!;
    expect(mine.prizeStatus).toBe("forfeited");
    expect(await ledgerMismatches()).toEqual([]);
  });

  it("two accounts on one network with the same answers are both flagged; a human pace is not", async () => {
    const t = await makeTournament(await makeCategory(), { startTime: Date.now() - 1000, prizePoolCents: 1000 });
    const [a, b] = [await makePlayer(), await makePlayer()];
    for (const p of [a, b])
      expect((await call(`/api/tournaments/${t.id}/join`, { method: "POST", cookie: p.cookie, ip: "198.51.100.7" })).status).toBe(200);
    for (let i = 0; i < 10; i++) {
      for (const p of [a, b]) await play(p, t, i % 4 !== 1, 2000 + 1100 * i + (p === a ? 0 : 400));
    }
    await complete(a, t.id);
    await complete(b, t.id);
    for (const [p, other] of [
      [a, b],
      [b, a],
    ] as const) {
      const row = await one<{ flags: string | null }>(
        "SELECT flags FROM tournament_participants WHERE tournament_id = ? AND user_id = ?",
        t.id,
        p.id,
      );
      expect(JSON.parse(row.flags!)).toEqual([expect.objectContaining({ kind: "shared_network", otherUserId: other.id })]);
    }
  });
});
