// A second account of a verified person (docs/identity-and-tax.md, "One person, one account") is
// refused every way a player gets a seat in prize play: the plain join, the invite code of a paid
// custom tournament, a featured event's priority day, a retried join with an Idempotency-Key,
// joins that arrive together and are seated as one group, and a free tournament with a house
// prize. Each refusal charges nothing and seats nobody; the first account keeps its joins.
import { afterAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { IDENTITY } from "../../common/messages";
import { CUSTOM_TOURNAMENT_MIN_LEVEL, IDEMPOTENCY_KEY_HEADER } from "../../common/spec";
import type { CustomTournament } from "../../common/api/custom-tournaments";
import { call } from "./helpers";
import { freshDocumentNumber, verifyIdentityOf } from "./identity-helpers";
import { balanceOf, join, ledgerMismatches, makeCategory, makePlayer, makeTournament, one, room, type Player } from "./tournament-fixtures";

const H = 3_600_000;
const D = 24 * H;
const duplicate = { code: "identity_duplicate_account", message: IDENTITY.duplicateAccount };

/** Two accounts verified as the same person: the first keeps money, the second is its duplicate. */
async function samePerson(o: { level?: number } = {}) {
  const documentNumber = freshDocumentNumber();
  const first = await makePlayer({ balanceCents: 5_000, ...o });
  const second = await makePlayer({ balanceCents: 5_000, ...o });
  await verifyIdentityOf(first.id, { documentNumber });
  const state = await verifyIdentityOf(second.id, { documentNumber });
  expect(state).toMatchObject({ state: "verified", duplicateAccount: true });
  return { first, second };
}

const seated = async (tournamentId: number, userId: number) =>
  (
    await one<{ n: number }>(
      "SELECT count(*) AS n FROM tournament_participants WHERE tournament_id = ? AND user_id = ?",
      tournamentId,
      userId,
    )
  ).n;

const entriesOf = async (userId: number) =>
  (await one<{ n: number }>("SELECT count(*) AS n FROM transactions WHERE user_id = ? AND type = 'tournament_entry'", userId)).n;

/** The refusal a user would see, and nothing charged or seated. */
async function expectRefused(res: { status: number; body: unknown }, p: Player, tournamentId: number) {
  expect(res.status).toBe(403);
  expect(res.body).toEqual(duplicate);
  expect(await balanceOf(p.id)).toBe(5_000);
  expect(await entriesOf(p.id)).toBe(0);
  expect(await seated(tournamentId, p.id)).toBe(0);
}

describe("a second account of a verified person and prize play", () => {
  it("the plain join of a paid tournament is refused; the first account joins", async () => {
    const { first, second } = await samePerson();
    const t = await makeTournament(await makeCategory(), { entryFeeCents: 500 });
    await expectRefused(await join(second, t.id), second, t.id);
    expect((await join(first, t.id)).status).toBe(200);
    expect(await balanceOf(first.id)).toBe(4_500);
  });

  it("a free tournament with a prize the house funds is refused too; a free one without a prize stays open", async () => {
    const { second } = await samePerson();
    const category = await makeCategory();
    const prize = await makeTournament(category, { prizePoolCents: 10_000 });
    await expectRefused(await join(second, prize.id), second, prize.id);
    const free = await makeTournament(category);
    expect((await join(second, free.id)).status).toBe(200);
  });

  it("joining a paid custom tournament with its invite code is refused", async () => {
    const category = await makeCategory(12);
    const creator = await makePlayer({ level: CUSTOM_TOURNAMENT_MIN_LEVEL });
    const made = await call<CustomTournament>("/api/tournaments/custom", {
      cookie: creator.cookie,
      body: {
        title: "Friends only",
        categoryId: category.id,
        startTime: new Date(Date.now() + H).toISOString(),
        seats: 12,
        entryFeeCents: 500,
        format: "self_paced",
      },
    });
    expect(made.status, made.text).toBe(200);
    const t = made.body;
    const { first, second } = await samePerson();
    const invited = await call(`/api/tournaments/invite/${t.inviteCode}`, { cookie: second.cookie });
    expect(invited.status).toBe(200);
    await expectRefused(
      await call(`/api/tournaments/${t.id}/join`, { cookie: second.cookie, body: { inviteCode: t.inviteCode } }),
      second,
      t.id,
    );
    expect((await call(`/api/tournaments/${t.id}/join`, { cookie: first.cookie, body: { inviteCode: t.inviteCode } })).status).toBe(200);
  });

  it("a featured event's priority day (level 6+) is refused to the second account", async () => {
    const { first, second } = await samePerson({ level: 6 });
    const start = Date.now() + 8 * D;
    const t = await makeTournament(await makeCategory(), { startTime: start, entryFeeCents: 500 });
    // Everyone registers in 12 hours: Advanced players are in already.
    await env.DB.prepare("UPDATE tournaments SET featured_at = ?, registration_opens_at = ? WHERE id = ?")
      .bind(start - 8 * D, Date.now() + 12 * H, t.id)
      .run();
    const detail = await call(`/api/tournaments/${t.id}`, { cookie: second.cookie });
    expect(detail.body.featured).toMatchObject({ priority: true, open: true });
    await expectRefused(await join(second, t.id), second, t.id);
    expect((await join(first, t.id)).status).toBe(200);
  });

  it("a retried join with the same Idempotency-Key is refused each time and charges nothing", async () => {
    const { second } = await samePerson();
    const t = await makeTournament(await makeCategory(), { entryFeeCents: 500 });
    const key = crypto.randomUUID();
    for (let i = 0; i < 3; i++) {
      const res = await call(`/api/tournaments/${t.id}/join`, {
        cookie: second.cookie,
        body: {},
        headers: { [IDEMPOTENCY_KEY_HEADER]: key },
      });
      await expectRefused(res, second, t.id);
    }
  });

  it("joins that arrive together and are seated as one group: only the second account's are refused", async () => {
    const { first, second } = await samePerson();
    const others = await Promise.all(Array.from({ length: 6 }, () => makePlayer({ balanceCents: 5_000 })));
    const t = await makeTournament(await makeCategory(), { entryFeeCents: 500 });
    const everyone = [second, first, ...others, second];
    const answers = await Promise.all(everyone.map((p) => join(p, t.id)));
    for (const [i, p] of everyone.entries()) expect(answers[i]!.status, p.username).toBe(p === second ? 403 : 200);
    await expectRefused(answers[0]!, second, t.id);
    expect((await one<{ n: number }>("SELECT count(*) AS n FROM tournament_participants WHERE tournament_id = ?", t.id)).n).toBe(7);
  });

  // The room's seat write (worker/durable/room/join-group.ts) holds the rule in its own batch, as
  // it holds the freeze, the suspension, breaks and limits: an account linked between the route's
  // check and the batch, or a caller of the room other than the join route, gets no seat.
  it("the room's seat write refuses a second account by itself", async () => {
    const { second } = await samePerson();
    const t = await makeTournament(await makeCategory(), { entryFeeCents: 500 });
    const outcome = await room(t.id).join(t.id, {
      userId: second.id,
      username: second.username,
      level: 1,
      showLevel: true,
      deviceHash: null,
      networkHash: null,
    });
    expect(outcome).toMatchObject({ ok: false, status: 403, code: "identity_duplicate_account", message: IDENTITY.duplicateAccount });
    expect(await seated(t.id, second.id)).toBe(0);
    expect(await balanceOf(second.id)).toBe(5_000);
  });
});

afterAll(async () => {
  expect(await ledgerMismatches()).toEqual([]);
});
