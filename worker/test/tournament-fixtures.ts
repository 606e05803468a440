// Rows and helpers for the tournament tests. Every test makes its own category, questions,
// tournament and players, so no test leans on another's data.
import { env, exports } from "cloudflare:workers";
import { evictDurableObject, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { expect } from "vitest";
import { DIFFICULTY_RAMP, TOURNAMENT_DURATION_MS } from "../../common/spec";
import type { PlayerQuestion } from "../../common/api/tournaments";
import { randomToken, sha256Hex } from "../auth/bytes";
import { SESSION_COOKIE } from "../auth/session";
import { postEntry } from "../money/ledger";
import { roomFor } from "../durable/room-client";
import type { TournamentRoom } from "../durable/tournament-room";
import { acceptCurrentTerms, call, ORIGIN, setDateOfBirth } from "./helpers";

let seq = 0;
const uniq = () => `${Date.now().toString(36)}${++seq}${Math.floor(Math.random() * 1e6)}`;

export interface QuestionFixture {
  id: number;
  question: string;
  difficulty: number;
  correct: string;
  options: string[];
}

export interface CategoryFixture {
  id: number;
  slug: string;
  name: string;
  questions: QuestionFixture[];
}

/** A category with `perDifficulty` questions at each difficulty 1-3; the right answer is always "Right …". */
export async function makeCategory(perDifficulty = 4): Promise<CategoryFixture> {
  const tag = uniq();
  const slug = `cat-${tag}`;
  const name = `Category ${tag}`;
  const cat = await env.DB.prepare(
    "INSERT INTO categories (slug, name, description, icon) VALUES (?, ?, 'Test category', 'brain') RETURNING id",
  )
    .bind(slug, name)
    .first<{ id: number }>();
  const questions: QuestionFixture[] = [];
  for (const difficulty of [1, 2, 3]) {
    for (let i = 0; i < perDifficulty; i++) {
      const key = `${tag}-${difficulty}-${i}`;
      const correct = `Right ${key}`;
      const options = [correct, `Wrong A ${key}`, `Wrong B ${key}`, `Wrong C ${key}`];
      const question = `Question ${key}?`;
      const row = await env.DB.prepare(
        "INSERT INTO questions (category_id, question, difficulty_level, correct_answer, options, explanation) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
      )
        .bind(cat!.id, question, difficulty, correct, JSON.stringify(options), `Because ${key}.`)
        .first<{ id: number }>();
      questions.push({ id: row!.id, question, difficulty, correct, options });
    }
  }
  return { id: cat!.id, slug, name, questions };
}

/** Keeps these questions (a category's, by default all) for practice: the only kind besides burned ones practice draws. */
export const keepForPractice = (category: CategoryFixture, ids = category.questions.map((q) => q.id)) =>
  env.DB.prepare("UPDATE questions SET practice_only = 1 WHERE id IN (SELECT value FROM json_each(?))").bind(JSON.stringify(ids)).run();

/** Burns these questions: their answers count as shown. */
export const burn = (ids: number[]) =>
  env.DB.prepare("UPDATE questions SET answer_shown_at = ? WHERE id IN (SELECT value FROM json_each(?))")
    .bind(Date.now(), JSON.stringify(ids))
    .run();

export interface TournamentOptions {
  title?: string;
  description?: string;
  entryFeeCents?: number;
  prizePoolCents?: number;
  maxParticipants?: number | null;
  minLevel?: number;
  startTime?: number;
  endTime?: number | null;
  status?: "upcoming" | "live" | "completed" | "cancelled";
  kind?: "standard" | "practice" | "practice_run";
  format?: "self_paced" | "live_show";
}

export interface TournamentFixture {
  id: number;
  title: string;
  questions: QuestionFixture[];
}

/** A tournament with 10 questions on the ramp. Defaults: free, upcoming, starting in an hour. */
export async function makeTournament(category: CategoryFixture, o: TournamentOptions = {}): Promise<TournamentFixture> {
  const title = o.title ?? `Cup ${uniq()}`;
  const start = o.startTime ?? Date.now() + 60 * 60_000;
  const fee = o.entryFeeCents ?? 0;
  const row = await env.DB.prepare(
    `INSERT INTO tournaments (title, description, category_id, entry_fee_cents, prize_pool_cents, max_participants, min_level, start_time, end_time, status, is_free, kind, format)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
  )
    .bind(
      title,
      o.description ?? "A test tournament",
      category.id,
      fee,
      o.prizePoolCents ?? 0,
      o.maxParticipants === undefined ? 50 : o.maxParticipants,
      o.minLevel ?? 1,
      start,
      o.endTime === undefined ? start + TOURNAMENT_DURATION_MS : o.endTime,
      o.status ?? "upcoming",
      fee === 0 ? 1 : 0,
      o.kind ?? "standard",
      o.format ?? "self_paced",
    )
    .first<{ id: number }>();
  const used = new Set<number>();
  const questions = DIFFICULTY_RAMP.map((d) => {
    const q = category.questions.find((x) => x.difficulty === d && !used.has(x.id))!;
    used.add(q.id);
    return q;
  });
  await env.DB.batch(
    questions.map((q, order) =>
      env.DB.prepare('INSERT INTO tournament_questions (tournament_id, question_id, "order") VALUES (?, ?, ?)').bind(row!.id, q.id, order),
    ),
  );
  return { id: row!.id, title, questions };
}

/**
 * A self-paced tournament whose pool has `width` candidates per ramp slot (order = slot * width +
 * candidate), as an operator's creation makes it. `questions` and `pool` are the whole pool.
 */
export async function makeDrawnTournament(width: number, o: TournamentOptions = {}): Promise<TournamentFixture & { pool: number[] }> {
  const category = await makeCategory(12);
  const t = await makeTournament(category, { startTime: Date.now() - 1000, prizePoolCents: 1000, ...o });
  await env.DB.prepare("DELETE FROM tournament_questions WHERE tournament_id = ?").bind(t.id).run();
  const used = new Set<number>();
  const pool = DIFFICULTY_RAMP.flatMap((d) =>
    Array.from({ length: width }, () => {
      const q = category.questions.find((x) => x.difficulty === d && !used.has(x.id))!;
      used.add(q.id);
      return q;
    }),
  );
  await env.DB.batch([
    env.DB.prepare("UPDATE tournaments SET question_draw = ? WHERE id = ?").bind(width, t.id),
    ...pool.map((q, order) =>
      env.DB.prepare('INSERT INTO tournament_questions (tournament_id, question_id, "order") VALUES (?, ?, ?)').bind(t.id, q.id, order),
    ),
  ]);
  return { id: t.id, title: t.title, questions: pool, pool: pool.map((q) => q.id) };
}

export interface Player {
  id: number;
  username: string;
  cookie: string;
}

/**
 * A signed-in player made directly in D1 (no password hashing), with XP matching the level and an
 * optional deposit, who has given an adult date of birth (through its route) so paid joins are open.
 */
export async function makePlayer(o: { level?: number; xp?: number; balanceCents?: number; preferences?: object } = {}): Promise<Player> {
  const username = `p${uniq()}`;
  const level = o.level ?? 1;
  const user = await env.DB.prepare(
    "INSERT INTO users (username, email, password_hash, level, experience_points, preferences) VALUES (?, ?, 'not-a-login', ?, ?, ?) RETURNING id",
  )
    .bind(username, `${username}@example.com`, level, o.xp ?? (level - 1) * 1000, o.preferences ? JSON.stringify(o.preferences) : null)
    .first<{ id: number }>();
  const token = randomToken(32);
  const now = Date.now();
  await env.DB.prepare("INSERT INTO sessions (id, user_id, created_at, last_seen_at, expires_at) VALUES (?, ?, ?, ?, ?)")
    .bind(sha256Hex(token), user!.id, now, now, now + 86_400_000)
    .run();
  const cookie = `${SESSION_COOKIE}=${token}`;
  await acceptCurrentTerms(user!.id);
  await setDateOfBirth(cookie);
  if (o.balanceCents) await deposit(user!.id, o.balanceCents);
  return { id: user!.id, username, cookie };
}

export const deposit = (userId: number, cents: number) =>
  postEntry(env.DB, { userId, amountCents: cents, type: "deposit", reference: `pi_test_${crypto.randomUUID()}` });

export const room = (tournamentId: number) => roomFor(env, tournamentId);

/** Runs the room's alarm now (as the runtime would when it is due). */
export const runAlarm = (tournamentId: number) => runDurableObjectAlarm(room(tournamentId));

/** Calls alarm() on the instance even when no alarm is set: what a retried alarm does. */
export const forceAlarm = (tournamentId: number) => runInDurableObject(room(tournamentId), (instance: TournamentRoom) => instance.alarm());

/**
 * Rewrites the room's own storage: the test clock (start, end, issue times) lives there. The room
 * keeps its rows in memory, so the object is then evicted and starts again from what storage holds
 * (its sockets stay open: they hibernate).
 */
export async function roomSql(tournamentId: number, query: string, ...params: (string | number | null)[]): Promise<void> {
  await runInDurableObject(room(tournamentId), (_instance: TournamentRoom, state) => {
    state.storage.sql.exec(query, ...params);
  });
  await evictDurableObject(room(tournamentId));
}

export const roomAlarm = (tournamentId: number) =>
  runInDurableObject(room(tournamentId), (_instance: TournamentRoom, state) => state.storage.getAlarm());

/** Moves the room's start into the past and runs the alarm that starts it. */
export async function startNow(tournamentId: number): Promise<void> {
  const now = Date.now();
  await roomSql(tournamentId, "UPDATE meta SET start_time = ?, end_time = ? WHERE id = 1", now - 1000, now + TOURNAMENT_DURATION_MS);
  await runAlarm(tournamentId);
}

/** Moves the room's end into the past and runs the alarm that ends it. */
export async function endNow(tournamentId: number): Promise<void> {
  await roomSql(tournamentId, "UPDATE meta SET end_time = ? WHERE id = 1", Date.now() - 1);
  await runAlarm(tournamentId);
}

/** Pretends the live show's current stage began `ms` ago, then runs its alarm: one step of the show. */
export async function stepShow(t: { id: number }, ms: number): Promise<void> {
  const since = Date.now() - ms;
  await roomSql(
    t.id,
    "UPDATE questions SET opened_at = ? WHERE ord = (SELECT show_ord FROM meta) AND (SELECT show_stage FROM meta) = 'question'",
    since,
  );
  await roomSql(t.id, "UPDATE meta SET show_since = ? WHERE id = 1", since);
  await runAlarm(t.id);
}

/** Pretends the player's current question was issued `ms` ago. */
export const backdateCurrent = (tournamentId: number, userId: number, ms: number) =>
  roomSql(
    tournamentId,
    "UPDATE plays SET issued_at = ? WHERE user_id = ? AND ord = (SELECT max(ord) FROM plays WHERE user_id = ?)",
    Date.now() - ms,
    userId,
    userId,
  );

export const join = (player: Player, tournamentId: number) =>
  call(`/api/tournaments/${tournamentId}/join`, { method: "POST", cookie: player.cookie });
/** A question, or a refusal with its message. */
export const next = (player: Player, tournamentId: number) =>
  call<PlayerQuestion & { message?: string }>(`/api/tournaments/${tournamentId}/next`, { method: "POST", cookie: player.cookie });
export const answer = (player: Player, tournamentId: number, questionId: number, text: string) =>
  call(`/api/tournaments/${tournamentId}/answer`, { cookie: player.cookie, body: { questionId, answer: text } });
export const complete = (player: Player, tournamentId: number) =>
  call(`/api/tournaments/${tournamentId}/complete`, { method: "POST", cookie: player.cookie });
export const leave = (player: Player, tournamentId: number) =>
  call(`/api/tournaments/${tournamentId}/leave`, { method: "POST", cookie: player.cookie });

/** The always-open practice entry of a category, as the schedule makes it. */
export const makePractice = (category: CategoryFixture) =>
  makeTournament(category, {
    title: `${category.name} Practice`,
    kind: "practice",
    status: "live",
    endTime: null,
    maxParticipants: null,
    startTime: Date.now() - 1000,
  });

export const correctOf = (t: TournamentFixture, questionId: number) => t.questions.find((q) => q.id === questionId)!.correct;
export const wrongOf = (t: TournamentFixture, questionId: number) => t.questions.find((q) => q.id === questionId)!.options[1]!;

/**
 * A person's response time for their i-th question: seconds, and never the same twice. A
 * scripted constant pace is exactly what the fair-play checks flag (docs/fair-play.md), and a
 * flagged winner's prize is held.
 */
export const humanPace = (i: number) => 1500 + 400 * i;

/**
 * Plays the next question: issued, backdated so the response time is about `ms`, then answered
 * right or wrong. Returns the answer result.
 */
export async function play(player: Player, t: TournamentFixture, right: boolean, ms = 2000) {
  const q = await next(player, t.id);
  expect(q.status, q.text).toBe(200);
  if (ms > 0) await backdateCurrent(t.id, player.id, ms);
  const res = await answer(player, t.id, q.body.id, right ? correctOf(t, q.body.id) : wrongOf(t, q.body.id));
  expect(res.status, res.text).toBe(200);
  return res.body;
}

export const one = async <T>(query: string, ...params: unknown[]) =>
  (await env.DB.prepare(query)
    .bind(...params)
    .first<T>())!;
export const all = async <T>(query: string, ...params: unknown[]) =>
  (
    await env.DB.prepare(query)
      .bind(...params)
      .all<T>()
  ).results;

export const balanceOf = async (userId: number) =>
  (await one<{ b: number }>("SELECT balance_cents AS b FROM users WHERE id = ?", userId)).b;

/** Users whose cached balance differs from the sum of their non-failed ledger rows (should be none). */
export const ledgerMismatches = () =>
  all<{ id: number; balance: number; ledger: number }>(
    `SELECT u.id, u.balance_cents AS balance,
            (SELECT coalesce(sum(amount_cents), 0) FROM transactions t WHERE t.user_id = u.id AND t.status IN ('completed', 'pending')) AS ledger
     FROM users u WHERE u.balance_cents <> (SELECT coalesce(sum(amount_cents), 0) FROM transactions t WHERE t.user_id = u.id AND t.status IN ('completed', 'pending'))`,
  );

export interface SocketClient {
  ws: WebSocket;
  frames: any[];
  closed: { code: number; reason: string } | null;
  /** Resolves with the first frame (from `from` on) matching `match`, or rejects after `timeoutMs`. */
  waitFor(match: (frame: any) => boolean, timeoutMs?: number, from?: number): Promise<any>;
}

/** Opens a socket through the Worker as a browser on our origin would. */
export async function openSocket(path: string, cookie?: string, origin = ORIGIN): Promise<{ status: number; client: SocketClient | null }> {
  const headers: Record<string, string> = { upgrade: "websocket", origin };
  if (cookie) headers.cookie = cookie;
  const res = await exports.default.fetch(new Request(`${ORIGIN}${path}`, { headers }));
  if (res.status !== 101 || !res.webSocket) return { status: res.status, client: null };
  const ws = res.webSocket;
  ws.accept();
  const client: SocketClient = {
    ws,
    frames: [],
    closed: null,
    async waitFor(match, timeoutMs = 3000, from = 0) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const found = client.frames.slice(from).find(match);
        if (found) return found;
        if (Date.now() > deadline) throw new Error(`no matching frame within ${timeoutMs} ms; got ${JSON.stringify(client.frames)}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    },
  };
  ws.addEventListener("message", (e) => {
    // Frames are JSON; the auto-response "pong" is plain text and is kept as it is.
    const text = String(e.data);
    try {
      client.frames.push(JSON.parse(text));
    } catch {
      client.frames.push(text);
    }
  });
  ws.addEventListener("close", (e) => {
    client.closed = { code: e.code, reason: e.reason };
  });
  return { status: 101, client };
}

/** Sends a frame with an id and waits for the reply that echoes it. */
export async function request(client: SocketClient, frame: Record<string, unknown> & { id: string }, timeoutMs = 3000): Promise<any> {
  const from = client.frames.length;
  client.ws.send(JSON.stringify(frame));
  return client.waitFor((f) => typeof f === "object" && f.id === frame.id, timeoutMs, from);
}

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A player's tournament socket, upgraded (101). */
export async function socketOf(t: { id: number }, p: Player): Promise<SocketClient> {
  const { status, client } = await openSocket(`/api/tournaments/${t.id}/ws`, p.cookie);
  expect(status).toBe(101);
  return client!;
}

/** A live show with `players` joined, each with a socket open and the show waiting to start. */
export async function liveShow(players: number): Promise<{ t: TournamentFixture; ps: Player[]; sockets: SocketClient[] }> {
  const t = await makeTournament(await makeCategory(), { format: "live_show" });
  const ps: Player[] = [];
  for (let i = 0; i < players; i++) ps.push(await makePlayer());
  for (const p of ps) expect((await join(p, t.id)).status).toBe(200);
  const sockets = await Promise.all(ps.map((p) => socketOf(t, p)));
  for (const s of sockets) await s.waitFor((f) => f.type === "status" && f.show?.stage === "waiting");
  return { t, ps, sockets };
}
