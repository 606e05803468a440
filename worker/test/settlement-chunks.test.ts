// Settlement at scale: a 10,000-player tournament settles in chunks whose statements each stay
// within D1's limits, every prize to the cent and every response stored; a settlement that fails
// at a chunk, or whose object restarts between chunks, resumes where it stopped and applies
// nothing twice. Players are made in bulk SQL and their answers written straight into the room's
// storage (as a finished room holds them), so the test measures settlement, not play.
import { env } from "cloudflare:workers";
import { evictDurableObject, runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { compareStandings } from "../../common/domain/scoring";
import { splitPrizePool } from "../../common/domain/prizes";
import { D1_MAX_BOUND_BYTES, D1_MAX_BOUND_PARAMS } from "../db/d1-limits";
import { SETTLEMENT_CHUNK_PLAYERS } from "../durable/room/d1";
import type { TournamentRoom } from "../durable/tournament-room";
import { newProbe, probeDurableObject } from "./d1-probe";
import {
  all,
  complete,
  forceAlarm,
  ledgerMismatches,
  makeCategory,
  makePlayer,
  makeTournament,
  one,
  room,
  roomSql,
  runAlarm,
} from "./tournament-fixtures";

const QUESTIONS = 10;

interface Expected {
  userId: number;
  score: number;
  answered: number;
  correct: number;
  rank: number;
}

/**
 * A live tournament of `players` players who have each answered all ten questions (about one in
 * four wrong, response times varying by player and question) and finished. Returns the standings
 * the room's stored answers imply.
 */
async function finishedCrowd(players: number, prizePoolCents: number) {
  const t = await makeTournament(await makeCategory(), {
    status: "live",
    startTime: Date.now() - 60_000,
    maxParticipants: null,
    prizePoolCents,
  });
  const tag = `s${t.id}x`;
  const base = Date.now() - 50_000;
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
     INSERT INTO users (username, email, password_hash, level, experience_points)
     SELECT ?2 || i, ?2 || i || '@example.com', 'not-a-login', 1, 0 FROM n`,
  )
    .bind(players, tag)
    .run();
  await env.DB.prepare(
    "INSERT INTO tournament_participants (tournament_id, user_id, joined_at) SELECT ?, id, ? + id FROM users WHERE username LIKE ?",
  )
    .bind(t.id, base, `${tag}%`)
    .run();
  // The room loads the tournament and its participants from D1.
  expect(await room(t.id).init(t.id)).toBe("live");
  const wrong = "(p.user_id + q.ord) % 4 = 0";
  const ms = "(1200 + (p.user_id * 37 + q.ord * 101) % 9000)";
  await roomSql(
    t.id,
    `INSERT INTO plays (user_id, ord, issued_at, answer, is_correct, response_ms, points, xp, answered_at)
     SELECT p.user_id, q.ord, ?1 + q.ord * 40000,
            CASE WHEN ${wrong} THEN json_extract(q.options, '$[1]') ELSE q.correct_answer END,
            CASE WHEN ${wrong} THEN 0 ELSE 1 END,
            ${ms},
            CASE WHEN ${wrong} THEN 0 ELSE 100 + (p.user_id * 7 + q.ord * 13) % 50 END,
            CASE WHEN ${wrong} THEN 0 ELSE 12 END,
            ?1 + q.ord * 40000 + ${ms}
     FROM participants p CROSS JOIN questions q`,
    base,
  );
  await roomSql(t.id, "UPDATE participants SET finished_at = ?", base + 450_000);
  const sums = await runInDurableObject(room(t.id), (_instance: TournamentRoom, state) =>
    state.storage.sql
      .exec<{ userId: number; score: number; totalResponseMs: number; answered: number; correct: number; finishedAt: number }>(
        `SELECT p.user_id AS userId, sum(p.points) AS score, sum(p.response_ms) AS totalResponseMs, count(*) AS answered,
                sum(p.is_correct) AS correct, max(x.finished_at) AS finishedAt
         FROM plays p JOIN participants x ON x.user_id = p.user_id GROUP BY p.user_id`,
      )
      .toArray(),
  );
  expect(sums).toHaveLength(players);
  const expected: Expected[] = [...sums].sort(compareStandings).map((s, i) => ({
    userId: s.userId,
    score: s.score,
    answered: s.answered,
    correct: s.correct,
    rank: i + 1,
  }));
  return { t, expected };
}

/** What D1 holds of the settlement, for comparing with what the room's answers imply. */
async function settled(tournamentId: number, expected: Expected[], prizePoolCents: number) {
  const rows = await all<{ user_id: number; score: number; rank: number; prize_cents: number; has_completed: number; answered: number }>(
    `SELECT user_id, score, rank, prize_cents, has_completed, questions_answered AS answered
     FROM tournament_participants WHERE tournament_id = ?`,
    tournamentId,
  );
  const byUser = new Map(rows.map((r) => [r.user_id, r]));
  const split = splitPrizePool(prizePoolCents, 3);
  const mismatches = expected.filter((e) => {
    const r = byUser.get(e.userId);
    return !r || r.score !== e.score || r.rank !== e.rank || r.has_completed !== 1 || r.answered !== e.answered
      ? true
      : r.prize_cents !== (split[e.rank - 1] ?? 0);
  });
  const prizes = await all<{ user_id: number; amount_cents: number }>(
    "SELECT user_id, amount_cents FROM transactions WHERE type = 'prize' AND reference LIKE ? ORDER BY amount_cents DESC",
    `prize:${tournamentId}:%`,
  );
  const counts = await one<{ responses: number; ended: number; played: number; chunks: number }>(
    `SELECT (SELECT count(*) FROM user_responses WHERE tournament_id = ?1) AS responses,
            (SELECT count(*) FROM notifications WHERE tournament_id = ?1 AND action = 'tournament_ended') AS ended,
            (SELECT count(*) FROM users WHERE tournaments_played = 1 AND id IN
               (SELECT user_id FROM tournament_participants WHERE tournament_id = ?1)) AS played,
            (SELECT count(*) FROM settlement_chunks WHERE tournament_id = ?1 AND chunk >= 0) AS chunks`,
    tournamentId,
  );
  return { mismatches: mismatches.length, prizes, counts };
}

const chunksFor = (players: number) => Math.ceil(players / SETTLEMENT_CHUNK_PLAYERS);

/** The tournament is completed and D1 holds all of it: every result, response and notice, the top three paid to the cent, the ledger whole. */
async function expectFullySettled(tournamentId: number, expected: Expected[], pool: number) {
  const players = expected.length;
  expect(await statusOf(tournamentId)).toBe("completed");
  const d1 = await settled(tournamentId, expected, pool);
  expect(d1.mismatches).toBe(0);
  const split = splitPrizePool(pool, 3);
  expect(d1.prizes).toEqual(expected.slice(0, 3).map((e, i) => ({ user_id: e.userId, amount_cents: split[i] })));
  expect(d1.prizes.reduce((s, p) => s + p.amount_cents, 0)).toBe(pool);
  expect(d1.counts).toEqual({ responses: players * QUESTIONS, ended: players, played: players, chunks: chunksFor(players) });
  expect(await ledgerMismatches()).toEqual([]);
  return d1;
}
const statusOf = async (id: number) => (await one<{ status: string }>("SELECT status FROM tournaments WHERE id = ?", id)).status;
const appliedChunks = (id: number) =>
  all<{ chunk: number; applied_at: number }>(
    "SELECT chunk, applied_at FROM settlement_chunks WHERE tournament_id = ? AND chunk >= 0 ORDER BY chunk",
    id,
  );

describe("settlement of a large tournament", () => {
  it("settles 10,000 players with every prize to the cent, every result and response in D1, no statement over 100 KB", async () => {
    const players = 10_000;
    const pool = 1_234_567;
    const { t, expected } = await finishedCrowd(players, pool);
    const probe = newProbe();
    await probeDurableObject(room(t.id), probe);
    // Everyone has finished: the alarm settles at once.
    expect(await runAlarm(t.id)).toBe(true);

    await expectFullySettled(t.id, expected, pool);

    // What went to D1: every statement's bound values within the limits, in some tens of batches.
    expect(probe.batches).toBeGreaterThanOrEqual(chunksFor(players) + 1);
    expect(probe.maxBoundBytes).toBeGreaterThan(0);
    expect(probe.maxBoundBytes).toBeLessThanOrEqual(D1_MAX_BOUND_BYTES);
    expect(probe.maxParams).toBeLessThanOrEqual(D1_MAX_BOUND_PARAMS);
  }, 180_000);
});

describe("a settlement interrupted part way", () => {
  const players = 2_000;
  const pool = 50_001;

  it("fails at chunk 2, keeps the tournament settling, and the retry finishes with the same totals and no double payment", async () => {
    expect(chunksFor(players)).toBeGreaterThan(3);
    const { t, expected } = await finishedCrowd(players, pool);
    // One player of chunk 2 cannot have responses written: that chunk's batch fails half way.
    const victim = expected[2 * SETTLEMENT_CHUNK_PLAYERS]!.userId;
    await env.DB.exec(
      `CREATE TRIGGER test_fail_chunk_${t.id} BEFORE INSERT ON user_responses WHEN NEW.tournament_id = ${t.id} AND NEW.user_id = ${victim} BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
    );
    try {
      await expect(forceAlarm(t.id)).rejects.toThrow(/injected failure/);
    } finally {
      await env.DB.exec(`DROP TRIGGER test_fail_chunk_${t.id}`);
    }
    // Chunks 0 and 1 are in; chunk 2 left nothing behind; nobody is paid yet; players still see it live.
    const before = await appliedChunks(t.id);
    expect(before.map((c) => c.chunk)).toEqual([0, 1]);
    expect(await statusOf(t.id)).toBe("live");
    expect((await one<{ n: number }>("SELECT count(*) AS n FROM user_responses WHERE tournament_id = ?", t.id)).n).toBe(
      2 * SETTLEMENT_CHUNK_PLAYERS * QUESTIONS,
    );
    expect((await settled(t.id, expected, pool)).prizes).toEqual([]);

    // The alarm's retry goes on from chunk 2.
    await forceAlarm(t.id);
    const after = await expectFullySettled(t.id, expected, pool);
    // The chunks applied before the failure were not applied again.
    expect((await appliedChunks(t.id)).slice(0, 2)).toEqual(before);

    // A further run, even after the room forgot it had settled, changes nothing in D1.
    await roomSql(t.id, "UPDATE meta SET phase = 'settling', settled = 0 WHERE id = 1");
    await forceAlarm(t.id);
    expect(await settled(t.id, expected, pool)).toEqual(after);
    expect(await ledgerMismatches()).toEqual([]);
  }, 120_000);

  it("resumes after the object restarts between chunks, even when chunk 1's reply was lost after it committed", async () => {
    const { t, expected } = await finishedCrowd(players, pool);
    const probe = newProbe();
    let chunkBatches = 0;
    probe.afterBatch = (sqls) => {
      if (!sqls[0]!.startsWith("INSERT INTO settlement_chunks")) return;
      if (++chunkBatches === 2) throw new Error("connection reset: the reply of chunk 1 was lost");
    };
    await probeDurableObject(room(t.id), probe);
    await expect(forceAlarm(t.id)).rejects.toThrow(/reply of chunk 1 was lost/);
    expect((await appliedChunks(t.id)).map((c) => c.chunk)).toEqual([0, 1]);
    expect(await statusOf(t.id)).toBe("live");

    // The object restarts (its memory gone, its storage kept) and the runtime retries its alarm.
    await evictDurableObject(room(t.id));
    await forceAlarm(t.id);
    await expectFullySettled(t.id, expected, pool);
  }, 120_000);
});

describe("completions at the same moment", () => {
  it("share D1 batches, and every player's results are there when their reply comes", async () => {
    const t = await makeTournament(await makeCategory(), { status: "live", startTime: Date.now() - 60_000 });
    const players = await Promise.all(Array.from({ length: 21 }, () => makePlayer()));
    await env.DB.batch(
      players.map((p) => env.DB.prepare("INSERT INTO tournament_participants (tournament_id, user_id) VALUES (?, ?)").bind(t.id, p.id)),
    );
    expect(await room(t.id).init(t.id)).toBe("live");
    const probe = newProbe();
    let resultBatches = 0;
    probe.afterBatch = (sqls) => {
      if (sqls.some((q) => q.startsWith("UPDATE tournament_participants SET score"))) resultBatches++;
    };
    await probeDurableObject(room(t.id), probe);

    // Twenty finish at once; the twenty-first is still playing, so nothing settles.
    const finishing = players.slice(0, 20);
    const replies = await Promise.all(finishing.map((p) => complete(p, t.id)));
    expect(replies.map((r) => r.status)).toEqual(finishing.map(() => 200));
    const completed = await all<{ user_id: number }>(
      "SELECT user_id FROM tournament_participants WHERE tournament_id = ? AND has_completed = 1",
      t.id,
    );
    expect(completed.map((r) => r.user_id).sort((a, b) => a - b)).toEqual(finishing.map((p) => p.id).sort((a, b) => a - b));
    expect(resultBatches).toBeGreaterThan(0);
    expect(resultBatches).toBeLessThan(finishing.length);
    expect(await statusOf(t.id)).toBe("live");
  }, 60_000);
});
