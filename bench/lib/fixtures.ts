// The harness's fixtures and checks in the bench D1, through the bench entry's SQL route
// (bench/worker/entry.ts). Players themselves are made through the API (register, deposit).
import { DIFFICULTY_RAMP, TOURNAMENT_DURATION_MS } from "../../common/spec";
import { CURRENT_LEGAL_VERSIONS } from "../../common/legal/documents";
import type { HttpClient } from "./http";
import { sessionCookie } from "./http";
import { now, parallel } from "./stats";
import { createHash, randomBytes } from "node:crypto";

export interface Player {
  i: number;
  id: number;
  username: string;
  cookie: string;
}

export interface BenchQuestion {
  id: number;
  ord: number;
  correct: string;
  options: string[];
}

export interface BenchTournament {
  id: number;
  title: string;
  /** Its end time (ms): a self-paced prize tournament's locked answers are revealed then. */
  endTime: number;
  questions: Map<number, BenchQuestion>;
}

export type D1Counters = Record<
  string,
  { statements: number; reads: number; writes: number; batches: number; rowsRead: number; rowsWritten: number }
>;

export class Fixtures {
  constructor(readonly http: HttpClient) {}

  /**
   * Runs statements through the bench entry's SQL route. Reads are tried up to three times (a
   * timeout or a 5xx after a phase with thousands of sockets is the harness's problem, not a
   * finding); writes once, since a write that timed out may still have been applied.
   */
  async sql<T = any>(statements: { sql: string; params?: unknown[] }[]): Promise<T[][]> {
    const reads = statements.every((s) => /^\s*(select|with)\b/i.test(s.sql));
    const attempts = reads ? 3 : 1;
    let last: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      try {
        // Generous: after a scenario with thousands of sockets the local D1 can be busy for a while.
        const res = await this.http.request("POST", "/api/__bench/sql", { body: { statements }, timeoutMs: reads ? 60_000 : 180_000 });
        if (res.status === 200) return (res.json as { results: T[] }[]).map((r) => r.results);
        last = new Error(`bench SQL failed: ${res.status} ${res.text.slice(0, 500)}`);
        if (res.status < 500) break;
      } catch (e) {
        last = e;
      }
      if (attempt < attempts) await new Promise((r) => setTimeout(r, 1000 * attempt));
    }
    throw last;
  }

  async one<T = any>(sql: string, ...params: unknown[]): Promise<T> {
    const [rows] = await this.sql<T>([{ sql, params }]);
    return rows![0]!;
  }

  async all<T = any>(sql: string, ...params: unknown[]): Promise<T[]> {
    const [rows] = await this.sql<T>([{ sql, params }]);
    return rows!;
  }

  async d1(): Promise<D1Counters> {
    const res = await this.http.getWithRetries("/api/__bench/d1");
    if (res.status !== 200) throw new Error(`bench counters: ${res.status}`);
    return res.json as D1Counters;
  }

  /**
   * A tournament in category 1 with 10 seeded questions on the difficulty ramp, written as the
   * scheduler would (the admin endpoint for tournaments has not landed).
   */
  async tournament(o: {
    title: string;
    status: "upcoming" | "live";
    entryFeeCents?: number;
    prizePoolCents?: number;
    maxParticipants?: number | null;
    startTime?: number;
    format?: "self_paced" | "live_show";
    /** The first questions of the ramp only (a shorter live show); all ten by default. */
    questions?: number;
    /** Play shards of a live show (tournaments.shard_count, decision 011); 1, one room, by default. */
    shardCount?: number;
  }): Promise<BenchTournament> {
    const start = o.startTime ?? Date.now() - 1000;
    const fee = o.entryFeeCents ?? 0;
    const t = await this.one<{ id: number }>(
      `INSERT INTO tournaments (title, description, category_id, entry_fee_cents, prize_pool_cents, max_participants, min_level, start_time, end_time, status, is_free, format, shard_count)
       VALUES (?, 'Benchmark tournament', 1, ?, ?, ?, 1, ?, ?, ?, ?, ?, ?) RETURNING id`,
      o.title,
      fee,
      o.prizePoolCents ?? 0,
      o.maxParticipants ?? null,
      start,
      start + TOURNAMENT_DURATION_MS,
      o.status,
      fee === 0 ? 1 : 0,
      o.format ?? "self_paced",
      o.shardCount ?? 1,
    );
    const pool = await this.all<{ id: number; difficulty_level: number; correct_answer: string; options: string }>(
      "SELECT id, difficulty_level, correct_answer, options FROM questions WHERE category_id = 1 ORDER BY id",
    );
    const used = new Set<number>();
    const picked = DIFFICULTY_RAMP.slice(0, o.questions ?? DIFFICULTY_RAMP.length).map((d) => {
      const q = pool.find((x) => x.difficulty_level === d && !used.has(x.id));
      if (!q) throw new Error(`category 1 has too few questions of difficulty ${d}`);
      used.add(q.id);
      return q;
    });
    await this.sql(
      picked.map((q, ord) => ({
        sql: 'INSERT INTO tournament_questions (tournament_id, question_id, "order") VALUES (?, ?, ?)',
        params: [t.id, q.id, ord],
      })),
    );
    const questions = new Map(
      picked.map((q, ord) => [q.id, { id: q.id, ord, correct: q.correct_answer, options: JSON.parse(q.options) as string[] }] as const),
    );
    return { id: t.id, title: o.title, endTime: start + TOURNAMENT_DURATION_MS, questions };
  }

  /**
   * Seats players in a free tournament directly (a room loads its participants from D1 on first
   * use), each on the play shard `shardOf` gives (0, one room, by default), as the join would store it.
   */
  async seat(tournamentId: number, players: Player[], shardOf: (p: Player) => number = () => 0): Promise<void> {
    const at = Date.now();
    for (let i = 0; i < players.length; i += 2000) {
      const seats = JSON.stringify(players.slice(i, i + 2000).map((p) => [p.id, shardOf(p)]));
      await this.sql([
        {
          sql: `INSERT INTO tournament_participants (tournament_id, user_id, joined_at, shard)
                SELECT ?, json_extract(j.value, '$[0]'), ?, json_extract(j.value, '$[1]') FROM json_each(?) AS j`,
          params: [tournamentId, at, seats],
        },
      ]);
    }
    await this.sql([
      {
        sql: "UPDATE tournaments SET current_participants = (SELECT count(*) FROM tournament_participants WHERE tournament_id = ?1) WHERE id = ?1",
        params: [tournamentId],
      },
    ]);
  }
}

/**
 * Players written straight to D1 with a session each (the Worker tests' way), for scenarios that
 * need more players than signing up through the API would fit in the budget. Same password-less
 * rows as any user; the session token is kept only as its SHA-256, as the Worker stores it.
 */
export async function directPlayers(fx: Fixtures, count: number, tag: string): Promise<Player[]> {
  const players: Player[] = [];
  const at = Date.now();
  for (let from = 0; from < count; from += 1000) {
    const batch = Array.from({ length: Math.min(1000, count - from) }, (_, k) => {
      const i = from + k;
      const token = randomBytes(32).toString("base64url");
      return { username: `b${tag}_${i}`, token, hash: createHash("sha256").update(token).digest("hex") };
    });
    const rows = batch.map((b) => ({ u: b.username, e: `${b.username}@bench.example`, h: b.hash }));
    const [inserted] = await fx.sql<{ id: number; username: string }>([
      {
        sql: `INSERT INTO users (username, email, password_hash, date_of_birth) SELECT json_extract(j.value, '$.u'), json_extract(j.value, '$.e'), 'bench-no-login', '1990-05-17'
              FROM json_each(?) AS j RETURNING id, username`,
        params: [JSON.stringify(rows)],
      },
    ]);
    const ids = new Map(inserted!.map((r) => [r.username, r.id]));
    const sessions = batch.map((b) => ({ h: b.hash, id: ids.get(b.username) }));
    await fx.sql([
      {
        sql: `INSERT INTO sessions (id, user_id, created_at, last_seen_at, expires_at)
              SELECT json_extract(j.value, '$.h'), json_extract(j.value, '$.id'), ?, ?, ? FROM json_each(?) AS j`,
        params: [at, at, at + 86_400_000, JSON.stringify(sessions)],
      },
      // As the sign-up's checkbox would: the legal documents in force accepted, so money moves.
      {
        sql: `INSERT INTO terms_acceptances (user_id, document, version, accepted_at)
              SELECT u.value, d.key, d.value, ? FROM json_each(?) AS u, json_each(?) AS d`,
        params: [at, JSON.stringify(sessions.map((x) => x.id)), JSON.stringify(CURRENT_LEGAL_VERSIONS)],
      },
    ]);
    for (const [k, b] of batch.entries())
      players.push({ i: from + k, id: ids.get(b.username)!, username: b.username, cookie: `sid=${b.token}` });
  }
  return players;
}

/** Registers `count` players through POST /api/register, `lanes` at a time. */
export async function registerPlayers(
  http: HttpClient,
  count: number,
  lanes: number,
  tag: string,
): Promise<{ players: Player[]; ms: number; errors: string[] }> {
  const players: Player[] = new Array(count);
  const errors: string[] = [];
  let next = 0;
  const started = now();
  await parallel(lanes, async () => {
    while (next < count) {
      const i = next++;
      const username = `b${tag}_${i}`;
      const res = await http.post("/api/register", {
        username,
        email: `${username}@bench.example`,
        password: "bench-password",
        acceptTerms: true,
      });
      const cookie = sessionCookie(res.setCookie);
      if (res.status !== 201 || !cookie || typeof res.json?.id !== "number") {
        errors.push(`register ${username}: ${res.status} ${res.text.slice(0, 200)}`);
        continue;
      }
      // An adult date of birth, as a player gives it before the first deposit or paid entry.
      const dob = await http.request("PUT", "/api/user/date-of-birth", { cookie, body: { dateOfBirth: "1990-05-17" } });
      if (dob.status !== 200) {
        errors.push(`date of birth ${username}: ${dob.status} ${dob.text.slice(0, 200)}`);
        continue;
      }
      players[i] = { i, id: res.json.id, username, cookie };
    }
  });
  return { players: players.filter(Boolean), ms: now() - started, errors };
}

/** Difference of two counter snapshots, per tag. */
export function diffCounters(before: D1Counters, after: D1Counters): D1Counters {
  const out: D1Counters = {};
  for (const tag of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = after[tag] ?? { statements: 0, reads: 0, writes: 0, batches: 0, rowsRead: 0, rowsWritten: 0 };
    const b = before[tag] ?? { statements: 0, reads: 0, writes: 0, batches: 0, rowsRead: 0, rowsWritten: 0 };
    const d = {
      statements: a.statements - b.statements,
      reads: a.reads - b.reads,
      writes: a.writes - b.writes,
      batches: a.batches - b.batches,
      rowsRead: a.rowsRead - b.rowsRead,
      rowsWritten: a.rowsWritten - b.rowsWritten,
    };
    if (d.statements || d.batches) out[tag] = d;
  }
  return out;
}

/** Counters divided by `n` (per operation), rounded to 3 decimals. */
export function perOp(c: D1Counters, n: number): D1Counters {
  const r = (x: number) => Math.round((x / n) * 1000) / 1000;
  return Object.fromEntries(
    Object.entries(c).map(([k, v]) => [
      k,
      {
        statements: r(v.statements),
        reads: r(v.reads),
        writes: r(v.writes),
        batches: r(v.batches),
        rowsRead: r(v.rowsRead),
        rowsWritten: r(v.rowsWritten),
      },
    ]),
  );
}

/** What a self-paced prize answer's reply must not carry before the tournament has ended: anything of the verdict. */
const VERDICT_FIELDS = ["isCorrect", "pointsEarned", "xpEarned", "correctAnswer", "explanation", "withheldUntil"] as const;

/**
 * Checks an answer's reply in a self-paced standard tournament (prize play, free ones included):
 * until the tournament has ended it is only locked in (docs/fair-play.md): the answer, the
 * response time, `revealAt` = the tournament's end and a signed receipt whose points are null,
 * with nothing that tells right from wrong. Returns what is wrong with it, or null.
 */
export function lockedReplyProblem(
  r: any,
  t: BenchTournament,
  expected: { userId: number; questionId: number; answer: string },
): string | null {
  if (r?.locked !== true) return "not locked in";
  const leaked = VERDICT_FIELDS.filter((k) => k in r);
  if (leaked.length > 0) return `verdict fields before the end: ${leaked.join(", ")}`;
  if (r.questionId !== expected.questionId || r.answer !== expected.answer) return "another question or answer";
  if (!Number.isInteger(r.responseTime) || r.responseTime < 0) return "no response time";
  if (r.revealAt !== new Date(t.endTime).toISOString()) return `revealAt ${r.revealAt}, not the tournament's end`;
  const c = r.receipt;
  if (
    !c ||
    c.points !== null ||
    c.tournamentId !== t.id ||
    c.userId !== expected.userId ||
    c.questionId !== expected.questionId ||
    c.answer !== expected.answer ||
    c.responseMs !== r.responseTime ||
    !/^[0-9a-f]{64}$/.test(c.signature ?? "")
  )
    return "its receipt is not the answer's, or carries points";
  return null;
}
