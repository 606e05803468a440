// Many players pressing Join on one tournament at once: the room seats them in groups, one D1
// batch per group, checking each player's money on their own row, so a player without the fee
// is refused without failing anyone else's seat. Capacity is never exceeded, nobody pays twice,
// a retry with the request's key answers what the first request did, and a room that restarts
// in the middle of it loses nobody's seat or money.
import { afterAll, describe, expect, it } from "vitest";
import { runInDurableObject } from "cloudflare:test";
import { IDEMPOTENCY, JOIN } from "../../common/messages";
import { prizePoolFromFees } from "../../common/domain/prizes";
import type { TournamentRoom } from "../durable/tournament-room";
import { call, type CallResult } from "./helpers";
import { all, balanceOf, ledgerMismatches, makeCategory, makePlayer, makeTournament, one, room, type Player } from "./tournament-fixtures";

const FEE = 500;
const RICH = 2_000;
const POOR = 300;

const press = (p: Player, tournamentId: number, key?: string) =>
  call(`/api/tournaments/${tournamentId}/join`, { method: "POST", cookie: p.cookie, headers: key ? { "idempotency-key": key } : {} });

const entries = (tournamentId: number) =>
  all<{ user_id: number; n: number }>(
    "SELECT user_id, count(*) AS n FROM transactions WHERE reference LIKE ? GROUP BY user_id",
    `entry:${tournamentId}:%`,
  );
const seatedIds = async (tournamentId: number) =>
  new Set(
    (await all<{ user_id: number }>("SELECT user_id FROM tournament_participants WHERE tournament_id = ?", tournamentId)).map(
      (r) => r.user_id,
    ),
  );
const counters = (tournamentId: number) =>
  one<{ current: number; pool: number }>(
    "SELECT current_participants AS current, prize_pool_cents AS pool FROM tournaments WHERE id = ?",
    tournamentId,
  );
const leaderboard = async (tournamentId: number) => (await call<unknown[]>(`/api/tournaments/${tournamentId}/leaderboard`)).body;

const shortOfFee = { code: "insufficient_balance", message: JOIN.balanceDescription("2.00", "5.00"), title: JOIN.balanceTitle };
const full = { code: "tournament_full", message: JOIN.full.description, title: JOIN.full.title };

let keyCounter = 0;
const newKey = () => `storm-${Date.now().toString(36)}-${++keyCounter}-${crypto.randomUUID().slice(0, 8)}`;

/** Checks what every player would notice and what the books say, for any storm. */
async function expectStormOutcome(o: {
  tournamentId: number;
  capacity: number;
  rich: Player[];
  poor: Player[];
  answers: Map<number, CallResult[]>;
}) {
  const seated = await seatedIds(o.tournamentId);
  const charged = await entries(o.tournamentId);
  expect(seated.size).toBe(Math.min(o.capacity, o.rich.length));
  // Every seat is paid once, by a player who had the fee.
  expect(charged).toHaveLength(seated.size);
  expect(charged.every((c) => c.n === 1 && seated.has(c.user_id))).toBe(true);
  for (const p of o.poor) expect(seated.has(p.id)).toBe(false);
  for (const p of o.rich) {
    const answers = o.answers.get(p.id) ?? [];
    if (seated.has(p.id)) {
      expect(answers.every((a) => a.status === 200 && a.body.joined === true)).toBe(true);
      expect(await balanceOf(p.id)).toBe(RICH - FEE);
    } else {
      expect(answers.map((a) => a.body)).toEqual(answers.map(() => full));
      expect(await balanceOf(p.id)).toBe(RICH);
    }
  }
  for (const p of o.poor) {
    for (const a of o.answers.get(p.id) ?? []) expect([shortOfFee, full]).toContainEqual(a.body);
    expect(await balanceOf(p.id)).toBe(POOR);
  }
  expect(await counters(o.tournamentId)).toEqual({ current: seated.size, pool: prizePoolFromFees(seated.size * FEE) });
  expect(await leaderboard(o.tournamentId)).toHaveLength(seated.size);
}

/** Dozens of players made and joining on a shared 2-core machine. */
const STORM_TIMEOUT_MS = 60_000;

describe("a join storm on one tournament", () => {
  it(
    "seats exactly the capacity among 60 players, 12 of them without the fee and some pressing twice; nobody pays twice",
    async () => {
      const t = await makeTournament(await makeCategory(), { entryFeeCents: FEE, maxParticipants: 40 });
      const players = await Promise.all(Array.from({ length: 60 }, (_, i) => makePlayer({ balanceCents: i % 5 === 4 ? POOR : RICH })));
      const poor = players.filter((_, i) => i % 5 === 4);
      const rich = players.filter((_, i) => i % 5 !== 4);
      // Every third player double-clicks.
      const presses = players.flatMap((p, i) => (i % 3 === 0 ? [p, p] : [p]));
      const answers = new Map<number, CallResult[]>();
      await Promise.all(
        presses.map(async (p) => {
          const res = await press(p, t.id);
          answers.set(p.id, [...(answers.get(p.id) ?? []), res]);
        }),
      );
      await expectStormOutcome({ tournamentId: t.id, capacity: 40, rich, poor, answers });
    },
    STORM_TIMEOUT_MS,
  );

  it(
    "refuses the players without the fee with the short-balance message and seats everyone else pressing with them",
    async () => {
      const t = await makeTournament(await makeCategory(), { entryFeeCents: FEE, maxParticipants: 50 });
      const rich = await Promise.all(Array.from({ length: 30 }, () => makePlayer({ balanceCents: RICH })));
      const poor = await Promise.all(Array.from({ length: 10 }, () => makePlayer({ balanceCents: POOR })));
      const everyone = rich.flatMap((p, i) => (i < 10 ? [p, poor[i]!] : [p]));
      const answers = new Map<number, CallResult[]>();
      await Promise.all(everyone.map(async (p) => answers.set(p.id, [await press(p, t.id)])));
      for (const p of poor) expect(answers.get(p.id)![0]!.body).toEqual(shortOfFee);
      for (const p of rich) expect(answers.get(p.id)![0]!.body).toMatchObject({ joined: true, balance: (RICH - FEE) / 100 });
      await expectStormOutcome({ tournamentId: t.id, capacity: 50, rich, poor, answers });
    },
    STORM_TIMEOUT_MS,
  );

  it(
    "answers each press with an Idempotency-Key as the first request with that key did, and charges once",
    async () => {
      const t = await makeTournament(await makeCategory(), { entryFeeCents: FEE, maxParticipants: 10 });
      const players = await Promise.all(Array.from({ length: 16 }, (_, i) => makePlayer({ balanceCents: i % 4 === 3 ? POOR : RICH })));
      const keys = new Map(players.map((p) => [p.id, newKey()]));
      // Each player presses twice with the key of their join attempt, as the web app does.
      const answers = new Map<number, CallResult[]>();
      await Promise.all(
        players.flatMap((p) =>
          [0, 1].map(async () => {
            const res = await press(p, t.id, keys.get(p.id));
            answers.set(p.id, [...(answers.get(p.id) ?? []), res]);
          }),
        ),
      );
      const seated = await seatedIds(t.id);
      expect(seated.size).toBe(10);
      for (const p of players) {
        const [a, b] = answers.get(p.id)!;
        // The second press of the same key waits its turn or repeats the first answer.
        for (const res of [a!, b!]) {
          if (res.body?.code === "idempotency_key_in_progress") expect(res.body.message).toBe(IDEMPOTENCY.inProgress);
          else if (seated.has(p.id)) expect(res.body).toMatchObject({ joined: true });
          else expect([shortOfFee, full]).toContainEqual(res.body);
        }
        // Once the first request is done, the key answers as it did.
        const again = await press(p, t.id, keys.get(p.id));
        if (seated.has(p.id)) {
          expect(again.status).toBe(200);
          const first = [a!, b!].find((r) => r.status === 200);
          if (first) expect(again.text).toBe(first.text);
          expect(
            (await one<{ reference: string }>("SELECT reference FROM idempotency_keys WHERE user_id = ? AND key = ?", p.id, keys.get(p.id)))
              ?.reference,
          ).toBe(`entry:${t.id}:${p.id}`);
        } else {
          // A refusal is released, not replayed: the same key asks again and is refused again.
          expect(again.status).toBe(409);
        }
      }
      const charged = await entries(t.id);
      expect(charged).toHaveLength(10);
      expect(charged.every((c) => c.n === 1)).toBe(true);
    },
    STORM_TIMEOUT_MS,
  );

  it(
    "loses no seat and takes no second fee when the room restarts in the middle of a storm",
    async () => {
      const t = await makeTournament(await makeCategory(), { entryFeeCents: FEE, maxParticipants: 20 });
      const players = await Promise.all(Array.from({ length: 30 }, (_, i) => makePlayer({ balanceCents: i % 5 === 4 ? POOR : RICH })));
      const poor = players.filter((_, i) => i % 5 === 4);
      const rich = players.filter((_, i) => i % 5 !== 4);
      const keys = new Map(players.map((p) => [p.id, newKey()]));
      const answers = new Map<number, CallResult>();
      const storm = Promise.all(players.map(async (p) => answers.set(p.id, await press(p, t.id, keys.get(p.id)))));
      // As soon as the first group's seats are in D1, the room goes down: whatever it had in flight fails.
      for (let i = 0; i < 200 && (await seatedIds(t.id)).size === 0; i++) await new Promise((r) => setTimeout(r, 1));
      await runInDurableObject(room(t.id), (_instance: TournamentRoom, state) => state.abort("restart")).catch(() => undefined);
      await storm;
      // Every player whose request failed presses again with the same key, until they get an answer.
      for (let round = 0; round < 5; round++) {
        const pending = players.filter((p) => {
          const a = answers.get(p.id)!;
          return a.status >= 500 || a.body?.code === "idempotency_key_in_progress";
        });
        if (pending.length === 0) break;
        await Promise.all(pending.map(async (p) => answers.set(p.id, await press(p, t.id, keys.get(p.id)))));
      }
      await expectStormOutcome({
        tournamentId: t.id,
        capacity: 20,
        rich,
        poor,
        answers: new Map([...answers].map(([id, a]) => [id, [a]])),
      });
    },
    STORM_TIMEOUT_MS,
  );
});

afterAll(async () => {
  expect(await ledgerMismatches()).toEqual([]);
});
