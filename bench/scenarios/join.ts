// 3. Join storm: P players press Join on one paid tournament at the same moment, each of them
// twice (a double click), against a capacity below P; every fifth player has no money. Checked
// from D1 and the room: exactly min(paying players, capacity) seated, each charged the fee once
// (one `entry:` ledger row, balance down by the fee and no more), the players without money
// refused with the short-balance message (or as full, once it is) and not charged, everyone else
// refused as full, the tournament's count and 85% prize pool right, and every touched balance
// equal to the sum of its ledger rows.
// Join stream: J players join one paid room at a fixed rate, open loop (each join's latency runs
// from its scheduled time), every one of them seated and charged once.
// Each run is followed by its floor: the same requests, connections and timing to GET
// /api/session, the least a signed-in request does. And the large storm is played once more
// straight into the room, without HTTP or sessions: the room's own share of it.
import { prizePoolFromFees } from "../../common/domain/prizes";
import { HttpClient } from "../lib/http";
import { diffCounters, perOp, type D1Counters, type Fixtures, type Player } from "../lib/fixtures";
import { now, parallel, round, Samples, type LatencySummary } from "../lib/stats";

/** What a join run left in D1 and the room, and what its checks found. */
export interface JoinOutcome {
  seated: number;
  charged: number;
  chargedTwice: number;
  errors: number;
  errorSamples: string[];
  checks: Record<string, boolean>;
}

export interface JoinRun extends JoinOutcome {
  players: number;
  /** Players without the fee (no deposit): refused as short of money, never seated. */
  poor: number;
  capacity: number;
  requests: number;
  feeCents: number;
  tournamentId: number;
  secondsToSeatAll: number;
  seatsPerSecond: number;
  joinLatencyMs: LatencySummary;
  accepted: number;
  refusedFull: number;
  refusedBalance: number;
  otherReplies: number;
  /** D1 work of the whole storm per join request (every press, accepted or refused). */
  d1PerRequest: D1Counters;
  /** D1 work of the whole storm per seat taken. */
  d1PerSeat: D1Counters;
  /** The same presses to GET /api/session: the least any signed-in request costs here. */
  floor: RequestFloor;
}

/** Deposits `dollars` for each player through the sandbox card flow, as the web app does. */
export async function deposit(
  http: HttpClient,
  players: Player[],
  dollars: number,
  lanes: number,
): Promise<{ ms: number; errors: string[] }> {
  const errors: string[] = [];
  const queue = [...players];
  const started = now();
  await parallel(lanes, async () => {
    for (let p = queue.shift(); p; p = queue.shift()) {
      const intent = await http.post("/api/create-payment-intent", { amount: dollars }, p.cookie);
      if (intent.status !== 200) {
        errors.push(`intent ${p.username}: ${intent.status} ${intent.text.slice(0, 120)}`);
        continue;
      }
      const card = { clientSecret: intent.json.clientSecret, cardNumber: "4242 4242 4242 4242", expMonth: 12, expYear: 2035, cvc: "123" };
      const paid = await http.post("/api/sandbox/confirm-payment", card, p.cookie);
      if (paid.status !== 200) {
        errors.push(`card ${p.username}: ${paid.status} ${paid.text.slice(0, 120)}`);
        continue;
      }
      const credit = await http.post("/api/deposit/confirm", { paymentIntentId: intent.json.paymentIntentId }, p.cookie);
      if (credit.status !== 200) errors.push(`credit ${p.username}: ${credit.status} ${credit.text.slice(0, 120)}`);
    }
  });
  return { ms: now() - started, errors };
}

/**
 * Credits each player a deposit straight into the ledger (its triggers set the balance), for the
 * join stream's thousands of players: depositing through the card flow would take minutes.
 */
export async function fundDirectly(fx: Fixtures, players: Player[], cents: number, tag: string): Promise<void> {
  for (let i = 0; i < players.length; i += 2000) {
    await fx.sql([
      {
        sql: `INSERT INTO transactions (user_id, amount_cents, type, status, reference, description, provider)
              SELECT j.value, ?, 'deposit', 'completed', ? || j.value, 'Bench deposit', 'sandbox' FROM json_each(?) AS j`,
        params: [cents, `bench-fund:${tag}:`, JSON.stringify(players.slice(i, i + 2000).map((p) => p.id))],
      },
    ]);
  }
}

/** A paid tournament starting in an hour, its room woken (its first load is not part of a run). */
async function paidTournament(fx: Fixtures, o: { title: string; feeCents: number; capacity: number }) {
  const t = await fx.tournament({
    title: o.title,
    status: "upcoming",
    entryFeeCents: o.feeCents,
    maxParticipants: o.capacity,
    startTime: Date.now() + 3_600_000,
  });
  const warm = await fx.http.get(`/api/tournaments/${t.id}/leaderboard`);
  if (warm.status !== 200) throw new Error(`join room warm-up: ${warm.status}`);
  return t;
}

/** Counts errors and keeps the first few. */
function errorLog() {
  const log = {
    errors: 0,
    samples: [] as string[],
    fail: (m: string) => {
      log.errors++;
      if (log.samples.length < 10) log.samples.push(m);
    },
  };
  return log;
}

/**
 * What every signed-in request costs at least on this server, measured with the same players,
 * connections and timing as a join run: GET /api/session reads the session (one D1 statement)
 * and answers. A join cannot be faster than this; when this floor misses a target, so must the join.
 */
export interface RequestFloor {
  requests: number;
  seconds: number;
  latencyMs: LatencySummary;
  errors: number;
}

async function sessionFloor(client: HttpClient, sends: { player: Player; at: number }[]): Promise<RequestFloor> {
  const latency = new Samples();
  let errors = 0;
  const started = now();
  await Promise.all(
    sends.map(async ({ player, at }) => {
      const wait = started + at - now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      const r = await client.request("GET", "/api/session", { cookie: player.cookie, timeoutMs: 300_000 });
      latency.add(now() - (started + at));
      if (r.status !== 200 || r.json?.user?.id !== player.id) errors++;
    }),
  );
  return { requests: sends.length, seconds: round((now() - started) / 1000, 2), latencyMs: latency.summary(), errors };
}

interface StormOptions {
  capacity: number;
  feeCents: number;
  balanceCents: number;
  title: string;
  poor: Set<number>;
}

/** How each press was answered, counted as the checks need it. */
class StormTally {
  readonly acceptedBy = new Map<number, number>();
  readonly poorAnswers = new Map<number, string[]>();
  refusedFull = 0;
  refusedBalance = 0;
  other = 0;

  /** Every unexpected answer and failed check, the run's errors. */
  readonly log = errorLog();

  constructor(readonly poor: Set<number>) {}

  add(p: Player, outcome: string, detail: string): void {
    if (this.poor.has(p.id)) this.poorAnswers.set(p.id, [...(this.poorAnswers.get(p.id) ?? []), outcome]);
    if (outcome === "joined") this.acceptedBy.set(p.id, (this.acceptedBy.get(p.id) ?? 0) + 1);
    else if (outcome === "tournament_full") this.refusedFull++;
    else if (outcome === "insufficient_balance" && this.poor.has(p.id)) this.refusedBalance++;
    else {
      this.other++;
      this.log.fail(`join ${p.username}: ${detail}`);
    }
  }
}

/** The storm's promises, read back from D1 and the room. */
async function stormChecks(fx: Fixtures, t: { id: number }, players: Player[], o: StormOptions, tally: StormTally) {
  const ids = JSON.stringify(players.map((p) => p.id));
  const [seatRows, chargeRows, balanceRows, tRow, mismatchRows] = await fx.sql([
    { sql: "SELECT user_id FROM tournament_participants WHERE tournament_id = ?", params: [t.id] },
    {
      sql: "SELECT user_id, count(*) AS n, sum(amount_cents) AS total FROM transactions WHERE type = 'tournament_entry' AND reference LIKE ? GROUP BY user_id",
      // The reference as text: a bound number may arrive as REAL (12.0) and never match.
      params: [`entry:${t.id}:%`],
    },
    { sql: "SELECT id, balance_cents AS b FROM users WHERE id IN (SELECT value FROM json_each(?))", params: [ids] },
    { sql: "SELECT current_participants AS n, prize_pool_cents AS pool FROM tournaments WHERE id = ?", params: [t.id] },
    {
      sql: `SELECT u.id FROM users u WHERE u.id IN (SELECT value FROM json_each(?)) AND u.balance_cents <>
              (SELECT coalesce(sum(amount_cents), 0) FROM transactions x WHERE x.user_id = u.id AND x.status IN ('completed', 'pending'))`,
      params: [ids],
    },
  ]);
  const seated = new Set((seatRows as { user_id: number }[]).map((r) => r.user_id));
  const charges = chargeRows as { user_id: number; n: number; total: number }[];
  const board = await fx.http.get(`/api/tournaments/${t.id}/leaderboard`);
  const paying = players.filter((p) => !o.poor.has(p.id));
  const expected = Math.min(paying.length, o.capacity);
  const entryBalanceOk = (balanceRows as { id: number; b: number }[]).every((r) =>
    o.poor.has(r.id) ? r.b === 0 : r.b === o.balanceCents - (seated.has(r.id) ? o.feeCents : 0),
  );
  const tr = tRow![0] as { n: number; pool: number };
  const { acceptedBy, poorAnswers } = tally;
  const checks = {
    exactlyCapacitySeated: seated.size === expected,
    acceptedAreTheSeated: acceptedBy.size === expected && [...acceptedBy.keys()].every((id) => seated.has(id)),
    bothPressesAnsweredForSeated: [...acceptedBy.values()].every((n) => n === 2),
    // A player without money hears so, or that the tournament is full once it is; never seated.
    poorRefused:
      [...poorAnswers.values()].every((codes) => codes.every((c) => c === "insufficient_balance" || c === "tournament_full")) &&
      poorAnswers.size === o.poor.size &&
      [...o.poor].every((id) => !seated.has(id)),
    everyoneElseRefusedFull: tally.refusedFull + tally.refusedBalance === 2 * (players.length - expected) && tally.other === 0,
    chargedOnceEach: charges.length === expected && charges.every((c) => c.n === 1 && c.total === -o.feeCents && seated.has(c.user_id)),
    balancesRight: entryBalanceOk,
    ledgerMatchesBalances: (mismatchRows as unknown[]).length === 0,
    countAndPool: tr.n === expected && tr.pool === prizePoolFromFees(expected * o.feeCents),
    roomAgrees: board.status === 200 && board.json.length === expected,
  };
  for (const [k, ok] of Object.entries(checks)) if (!ok) tally.log.fail(`check ${k} failed`);
  const outcome: JoinOutcome = {
    seated: seated.size,
    charged: charges.length,
    chargedTwice: charges.filter((c) => c.n > 1).length,
    errors: tally.log.errors,
    errorSamples: tally.log.samples,
    checks,
  };
  return { outcome, expected };
}

export async function joinStorm(port: number, fx: Fixtures, players: Player[], o: StormOptions): Promise<JoinRun> {
  const t = await paidTournament(fx, o);
  const tally = new StormTally(o.poor);
  // One connection per request: every press leaves at once.
  const storm = new HttpClient(port, players.length * 2);
  const latency = new Samples();
  const before = await fx.d1();
  const started = now();
  await Promise.all(
    players.flatMap((p) =>
      [0, 1].map(async () => {
        const r = await storm.post(`/api/tournaments/${t.id}/join`, {}, p.cookie);
        latency.add(r.ms);
        const outcome =
          r.status === 200 && r.json?.joined === true ? "joined" : r.status === 409 ? String(r.json?.code) : `http ${r.status}`;
        tally.add(p, outcome, `${r.status} ${r.text.slice(0, 160)}`);
      }),
    ),
  );
  const seconds = (now() - started) / 1000;
  const after = await fx.d1();
  storm.close();
  // The same presses, on fresh connections again, to the cheapest signed-in route.
  const floorClient = new HttpClient(port, players.length * 2);
  const floor = await sessionFloor(
    floorClient,
    players.flatMap((player) => [0, 1].map(() => ({ player, at: 0 }))),
  );
  floorClient.close();
  if (floor.errors) tally.log.fail(`session floor: ${floor.errors} requests without their user`);
  const result = await stormChecks(fx, t, players, o, tally);

  return {
    players: players.length,
    poor: o.poor.size,
    capacity: o.capacity,
    requests: players.length * 2,
    feeCents: o.feeCents,
    tournamentId: t.id,
    secondsToSeatAll: round(seconds, 2),
    seatsPerSecond: round(result.expected / seconds, 0),
    joinLatencyMs: latency.summary(),
    accepted: [...tally.acceptedBy.values()].reduce((a, b) => a + b, 0),
    refusedFull: tally.refusedFull,
    refusedBalance: tally.refusedBalance,
    otherReplies: tally.other,
    ...result.outcome,
    d1PerRequest: perOp(diffCounters(before, after), players.length * 2),
    d1PerSeat: perOp(diffCounters(before, after), Math.max(1, result.expected)),
    floor,
  };
}

/**
 * The room's share of a storm: the same presses (admission, then join) sent to the room from
 * inside the Worker, without HTTP, sessions or the route's own checks (bench/worker/entry.ts).
 * In production the Worker's part of each request runs spread over many machines, and the room,
 * one object on one thread, is the part a storm queues on; here both share one thread.
 */
export interface RoomStormRun extends JoinOutcome {
  players: number;
  poor: number;
  capacity: number;
  presses: number;
  secondsToAnswerAll: number;
  latencyMs: LatencySummary;
}

export async function roomJoinStorm(fx: Fixtures, players: Player[], o: StormOptions): Promise<RoomStormRun> {
  const t = await paidTournament(fx, o);
  const tally = new StormTally(o.poor);
  const byId = new Map(players.map((p) => [p.id, p]));
  const reply = await fx.http.request<{ ms: number; presses: { userId: number; outcome: string; ms: number }[] }>(
    "POST",
    "/api/__bench/room-joins",
    { body: { tournamentId: t.id, users: players.map((p) => ({ userId: p.id, username: p.username })), presses: 2 }, timeoutMs: 300_000 },
  );
  if (reply.status !== 200) throw new Error(`room joins: ${reply.status} ${reply.text.slice(0, 200)}`);
  const latency = new Samples();
  for (const press of reply.json.presses) {
    latency.add(press.ms);
    tally.add(byId.get(press.userId)!, press.outcome, press.outcome);
  }
  const result = await stormChecks(fx, t, players, o, tally);
  return {
    players: players.length,
    poor: o.poor.size,
    capacity: o.capacity,
    presses: reply.json.presses.length,
    secondsToAnswerAll: round(reply.json.ms / 1000, 2),
    latencyMs: latency.summary(),
    ...result.outcome,
  };
}

export interface JoinStreamRun extends JoinOutcome {
  players: number;
  ratePerSecond: number;
  feeCents: number;
  tournamentId: number;
  /** From the first scheduled join to the last answer. */
  seconds: number;
  /** Joins answered per second over that time. */
  joinsPerSecond: number;
  /** From each join's scheduled time to its answer. */
  joinLatencyMs: LatencySummary;
  d1PerSeat: D1Counters;
  /** The same schedule to GET /api/session: the least any signed-in request costs here. */
  floor: RequestFloor;
}

/**
 * Open loop: join i is sent at i / rate seconds whatever happened to the others, so a room that
 * falls behind shows as latency. Every player has the fee and the capacity is the player count,
 * so every join is a seat (the path that writes).
 */
export async function joinStream(
  port: number,
  fx: Fixtures,
  players: Player[],
  o: { ratePerSecond: number; feeCents: number; title: string },
): Promise<JoinStreamRun> {
  const t = await paidTournament(fx, { title: o.title, feeCents: o.feeCents, capacity: players.length });
  const log = errorLog();
  const schedule = players.map((player, i) => ({ player, at: (i * 1000) / o.ratePerSecond }));
  const client = new HttpClient(port, 1000);
  const latency = new Samples();
  const accepted = new Set<number>();
  const before = await fx.d1();
  const started = now();
  await Promise.all(
    schedule.map(async ({ player: p, at }) => {
      const wait = started + at - now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      try {
        const r = await client.request("POST", `/api/tournaments/${t.id}/join`, { cookie: p.cookie, body: {}, timeoutMs: 300_000 });
        latency.add(now() - (started + at));
        if (r.status === 200 && r.json?.joined === true) accepted.add(p.id);
        else log.fail(`join ${p.username}: ${r.status} ${r.text.slice(0, 160)}`);
      } catch (e) {
        log.fail(`join ${p.username}: ${(e as Error).message}`);
      }
    }),
  );
  const seconds = (now() - started) / 1000;
  const after = await fx.d1();
  // The same schedule to the cheapest signed-in route.
  const floor = await sessionFloor(client, schedule);
  client.close();
  if (floor.errors) log.fail(`session floor: ${floor.errors} requests without their user`);
  const [seatRows, chargeRows, tRow, mismatchRows] = await fx.sql([
    { sql: "SELECT count(*) AS n FROM tournament_participants WHERE tournament_id = ?", params: [t.id] },
    {
      sql: "SELECT user_id, count(*) AS n FROM transactions WHERE type = 'tournament_entry' AND reference LIKE ? GROUP BY user_id",
      params: [`entry:${t.id}:%`],
    },
    { sql: "SELECT current_participants AS n, prize_pool_cents AS pool FROM tournaments WHERE id = ?", params: [t.id] },
    {
      sql: `SELECT u.id FROM users u WHERE u.id IN (SELECT value FROM json_each(?)) AND u.balance_cents <>
              (SELECT coalesce(sum(amount_cents), 0) FROM transactions x WHERE x.user_id = u.id AND x.status IN ('completed', 'pending'))`,
      params: [JSON.stringify(players.map((p) => p.id))],
    },
  ]);
  const seated = (seatRows![0] as { n: number }).n;
  const charges = chargeRows as { user_id: number; n: number }[];
  const tr = tRow![0] as { n: number; pool: number };
  const checks = {
    everyoneSeated: seated === players.length && accepted.size === players.length,
    chargedOnceEach: charges.length === players.length && charges.every((c) => c.n === 1),
    ledgerMatchesBalances: (mismatchRows as unknown[]).length === 0,
    countAndPool: tr.n === players.length && tr.pool === prizePoolFromFees(players.length * o.feeCents),
  };
  for (const [k, ok] of Object.entries(checks)) if (!ok) log.fail(`check ${k} failed`);
  return {
    players: players.length,
    ratePerSecond: o.ratePerSecond,
    feeCents: o.feeCents,
    tournamentId: t.id,
    seconds: round(seconds, 2),
    joinsPerSecond: round(players.length / seconds, 0),
    joinLatencyMs: latency.summary(),
    seated,
    charged: charges.length,
    chargedTwice: charges.filter((c) => c.n > 1).length,
    errors: log.errors,
    errorSamples: log.samples,
    checks,
    d1PerSeat: perOp(diffCounters(before, after), players.length),
    floor,
  };
}
