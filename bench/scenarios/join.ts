// 3. Join storm: P players press Join on one paid tournament at the same moment, each of them
// twice (a double click), against a capacity below P; every fifth player has no money. Checked
// from D1 and the room: exactly min(paying players, capacity) seated, each charged the fee once
// (one `entry:` ledger row, balance down by the fee and no more), the players without money
// refused with the short-balance message (or as full, once it is) and not charged, everyone else
// refused as full, the tournament's count and 85% prize pool right, and every touched balance
// equal to the sum of its ledger rows.
// Join stream: J players join one paid room at a fixed rate, open loop (each join's latency runs
// from its scheduled time), every one of them seated and charged once.
import { prizePoolFromFees } from "../../common/domain/prizes";
import { HttpClient } from "../lib/http";
import { diffCounters, perOp, type D1Counters, type Fixtures, type Player } from "../lib/fixtures";
import { now, parallel, round, Samples, type LatencySummary } from "../lib/stats";

export interface JoinRun {
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
  seated: number;
  charged: number;
  chargedTwice: number;
  errors: number;
  errorSamples: string[];
  checks: Record<string, boolean>;
  /** D1 work of the whole storm per join request (every press, accepted or refused). */
  d1PerRequest: D1Counters;
  /** D1 work of the whole storm per seat taken. */
  d1PerSeat: D1Counters;
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

export async function joinStorm(
  port: number,
  fx: Fixtures,
  players: Player[],
  o: { capacity: number; feeCents: number; balanceCents: number; title: string; poor: Set<number> },
): Promise<JoinRun> {
  const t = await fx.tournament({
    title: o.title,
    status: "upcoming",
    entryFeeCents: o.feeCents,
    maxParticipants: o.capacity,
    startTime: Date.now() + 3_600_000,
  });
  const errorSamples: string[] = [];
  let errors = 0;
  const fail = (m: string) => {
    errors++;
    if (errorSamples.length < 10) errorSamples.push(m);
  };
  // One connection per request: every press leaves at once.
  const storm = new HttpClient(port, players.length * 2);
  const warm = await storm.get(`/api/tournaments/${t.id}/leaderboard`);
  if (warm.status !== 200) throw new Error(`join room warm-up: ${warm.status}`);

  const latency = new Samples();
  const acceptedBy = new Map<number, number>();
  let refusedFull = 0;
  let refusedBalance = 0;
  const poorAnswers = new Map<number, string[]>();
  let other = 0;
  const before = await fx.d1();
  const started = now();
  await Promise.all(
    players.flatMap((p) =>
      [0, 1].map(async () => {
        const r = await storm.post(`/api/tournaments/${t.id}/join`, {}, p.cookie);
        latency.add(r.ms);
        if (o.poor.has(p.id)) poorAnswers.set(p.id, [...(poorAnswers.get(p.id) ?? []), String(r.json?.code ?? r.status)]);
        if (r.status === 200 && r.json?.joined === true) acceptedBy.set(p.id, (acceptedBy.get(p.id) ?? 0) + 1);
        else if (r.status === 409 && r.json?.code === "tournament_full") refusedFull++;
        else if (r.status === 409 && r.json?.code === "insufficient_balance" && o.poor.has(p.id)) refusedBalance++;
        else {
          other++;
          fail(`join ${p.username}: ${r.status} ${r.text.slice(0, 160)}`);
        }
      }),
    ),
  );
  const seconds = (now() - started) / 1000;
  const after = await fx.d1();
  storm.close();

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
  const checks = {
    exactlyCapacitySeated: seated.size === expected,
    acceptedAreTheSeated: acceptedBy.size === expected && [...acceptedBy.keys()].every((id) => seated.has(id)),
    bothPressesAnsweredForSeated: [...acceptedBy.values()].every((n) => n === 2),
    // A player without money hears so, or that the tournament is full once it is; never seated.
    poorRefused:
      [...poorAnswers.values()].every((codes) => codes.every((c) => c === "insufficient_balance" || c === "tournament_full")) &&
      poorAnswers.size === o.poor.size &&
      [...o.poor].every((id) => !seated.has(id)),
    everyoneElseRefusedFull: refusedFull + refusedBalance === 2 * (players.length - expected) && other === 0,
    chargedOnceEach: charges.length === expected && charges.every((c) => c.n === 1 && c.total === -o.feeCents && seated.has(c.user_id)),
    balancesRight: entryBalanceOk,
    ledgerMatchesBalances: (mismatchRows as unknown[]).length === 0,
    countAndPool: tr.n === expected && tr.pool === prizePoolFromFees(expected * o.feeCents),
    roomAgrees: board.status === 200 && board.json.length === expected,
  };
  for (const [k, ok] of Object.entries(checks)) if (!ok) fail(`check ${k} failed`);
  return {
    players: players.length,
    poor: o.poor.size,
    capacity: o.capacity,
    requests: players.length * 2,
    feeCents: o.feeCents,
    tournamentId: t.id,
    secondsToSeatAll: round(seconds, 2),
    seatsPerSecond: round(expected / seconds, 0),
    joinLatencyMs: latency.summary(),
    accepted: [...acceptedBy.values()].reduce((a, b) => a + b, 0),
    refusedFull,
    refusedBalance,
    otherReplies: other,
    seated: seated.size,
    charged: charges.length,
    chargedTwice: charges.filter((c) => c.n > 1).length,
    errors,
    errorSamples,
    checks,
    d1PerRequest: perOp(diffCounters(before, after), players.length * 2),
    d1PerSeat: perOp(diffCounters(before, after), Math.max(1, expected)),
  };
}

export interface JoinStreamRun {
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
  seated: number;
  charged: number;
  chargedTwice: number;
  errors: number;
  errorSamples: string[];
  checks: Record<string, boolean>;
  d1PerSeat: D1Counters;
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
  const t = await fx.tournament({
    title: o.title,
    status: "upcoming",
    entryFeeCents: o.feeCents,
    maxParticipants: players.length,
    startTime: Date.now() + 3_600_000,
  });
  const errorSamples: string[] = [];
  let errors = 0;
  const fail = (m: string) => {
    errors++;
    if (errorSamples.length < 10) errorSamples.push(m);
  };
  const client = new HttpClient(port, 1000);
  const warm = await client.get(`/api/tournaments/${t.id}/leaderboard`);
  if (warm.status !== 200) throw new Error(`join room warm-up: ${warm.status}`);
  const latency = new Samples();
  const accepted = new Set<number>();
  const before = await fx.d1();
  const started = now();
  await Promise.all(
    players.map(async (p, i) => {
      const at = started + (i * 1000) / o.ratePerSecond;
      const wait = at - now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      try {
        const r = await client.request("POST", `/api/tournaments/${t.id}/join`, { cookie: p.cookie, body: {}, timeoutMs: 300_000 });
        latency.add(now() - at);
        if (r.status === 200 && r.json?.joined === true) accepted.add(p.id);
        else fail(`join ${p.username}: ${r.status} ${r.text.slice(0, 160)}`);
      } catch (e) {
        fail(`join ${p.username}: ${(e as Error).message}`);
      }
    }),
  );
  const seconds = (now() - started) / 1000;
  const after = await fx.d1();
  client.close();
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
  for (const [k, ok] of Object.entries(checks)) if (!ok) fail(`check ${k} failed`);
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
    errors,
    errorSamples,
    checks,
    d1PerSeat: perOp(diffCounters(before, after), players.length),
  };
}
