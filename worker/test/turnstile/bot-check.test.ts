// The bot check switched on: registration and paid joins need a Turnstile token that the Worker
// verifies at the local siteverify double (worker/test/turnstile/turnstile-double.ts).
import { beforeEach, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { FAIR_PLAY } from "../../../common/messages";
import { call, freshIp } from "../helpers";
import { all, balanceOf, ledgerMismatches, makeCategory, makePlayer, makeTournament, one, type Player } from "../tournament-fixtures";
import type { ReceivedVerification } from "./turnstile-double";

const testEnv = env as unknown as Env;
const doubleUrl = (path: string) => new URL(path, testEnv.TURNSTILE_VERIFY_URL).toString();

const received = async (): Promise<ReceivedVerification[]> => (await fetch(doubleUrl("/__double/requests"))).json();

beforeEach(async () => {
  await fetch(doubleUrl("/__double/requests"), { method: "DELETE" });
});

const refused = { code: "bot_check_failed", message: FAIR_PLAY.botCheckFailed };

let n = 0;
const newAccount = () => {
  const name = `bot${Date.now().toString(36)}${++n}`;
  return { username: name, email: `${name}@example.com`, password: "secret123", acceptTerms: true };
};
const usersNamed = async (username: string) => (await one<{ n: number }>("SELECT count(*) AS n FROM users WHERE username = ?", username)).n;

const joinWith = (player: Player, tournamentId: number, body?: Record<string, unknown>, ip?: string) =>
  call(`/api/tournaments/${tournamentId}/join`, {
    method: "POST",
    cookie: player.cookie,
    ...(body ? { body } : {}),
    ...(ip ? { ip } : {}),
  });

async function seatsAndFees(tournamentId: number) {
  const seats = await one<{ n: number; current: number; pool: number }>(
    `SELECT (SELECT count(*) FROM tournament_participants WHERE tournament_id = ?1) AS n, current_participants AS current, prize_pool_cents AS pool
     FROM tournaments WHERE id = ?1`,
    tournamentId,
  );
  const fees = await all("SELECT id FROM transactions WHERE reference LIKE ?", `entry:${tournamentId}:%`);
  return { ...seats, fees: fees.length };
}

describe("the bot check, on", () => {
  it("publishes the site key for the web app", async () => {
    const res = await call("/api/config");
    expect(res.status).toBe(200);
    expect(res.body.turnstileSiteKey).toBe(testEnv.TURNSTILE_SITE_KEY);
  });

  it("refuses a registration without a token, asking siteverify nothing and creating no account", async () => {
    const account = newAccount();
    const res = await call("/api/register", { body: account });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(refused);
    expect(res.setCookie).toBeNull();
    expect(await usersNamed(account.username)).toBe(0);
    expect(await received()).toEqual([]);
  });

  it("refuses a registration whose token siteverify rejects, having sent it the secret, the token and the address", async () => {
    const account = newAccount();
    const ip = freshIp();
    const res = await call("/api/register", { body: { ...account, turnstileToken: "made-up" }, ip });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(refused);
    expect(await usersNamed(account.username)).toBe(0);
    expect(await received()).toEqual([
      {
        contentType: "application/x-www-form-urlencoded;charset=UTF-8",
        fields: { secret: testEnv.TURNSTILE_SECRET, response: "made-up", remoteip: ip },
      },
    ]);
  });

  it("registers with a token that passes", async () => {
    const account = newAccount();
    const ip = freshIp();
    const res = await call("/api/register", { body: { ...account, turnstileToken: "pass:register" }, ip });
    expect(res.status).toBe(201);
    expect(res.body.username).toBe(account.username);
    expect(await usersNamed(account.username)).toBe(1);
    const [sent] = await received();
    expect(sent?.fields).toEqual({ secret: testEnv.TURNSTILE_SECRET, response: "pass:register", remoteip: ip });
  });

  it("refuses a passing token solved for another form or on another site", async () => {
    for (const token of ["pass:join", "pass:register@evil.example"]) {
      const account = newAccount();
      const res = await call("/api/register", { body: { ...account, turnstileToken: token } });
      expect(res.status, token).toBe(403);
      expect(res.body).toEqual(refused);
      expect(await usersNamed(account.username)).toBe(0);
    }
  });

  it("fails closed when siteverify errs, answers something unreadable or hangs up", async () => {
    for (const token of ["http-500", "not-json", "hang-up"]) {
      const account = newAccount();
      const res = await call("/api/register", { body: { ...account, turnstileToken: token } });
      expect(res.status, token).toBe(403);
      expect(res.body).toEqual(refused);
      expect(await usersNamed(account.username)).toBe(0);
    }
  });

  it("refuses a paid join without a token or with a bad one: no seat, no fee, no money moved", async () => {
    const t = await makeTournament(await makeCategory(), { entryFeeCents: 500 });
    const p = await makePlayer({ balanceCents: 2000 });
    for (const body of [undefined, {}, { turnstileToken: "made-up" }, { turnstileToken: "pass:register" }]) {
      const res = await joinWith(p, t.id, body);
      expect(res.status, JSON.stringify(body)).toBe(403);
      expect(res.body).toEqual(refused);
    }
    expect(await balanceOf(p.id)).toBe(2000);
    expect(await seatsAndFees(t.id)).toEqual({ n: 0, current: 0, pool: 0, fees: 0 });
    expect(await ledgerMismatches()).toEqual([]);
  });

  it("seats and charges a paid join with a token that passes", async () => {
    const t = await makeTournament(await makeCategory(), { entryFeeCents: 500 });
    const p = await makePlayer({ balanceCents: 2000 });
    const ip = freshIp();
    const res = await joinWith(p, t.id, { turnstileToken: "pass:join" }, ip);
    expect(res.status, res.text).toBe(200);
    expect(res.body.joined).toBe(true);
    expect(res.body.balance).toBe(15);
    expect(await balanceOf(p.id)).toBe(1500);
    expect((await seatsAndFees(t.id)).fees).toBe(1);
    expect((await received()).map((r) => r.fields)).toEqual([{ secret: testEnv.TURNSTILE_SECRET, response: "pass:join", remoteip: ip }]);
  });

  it("lets a free join through without a token and without asking siteverify", async () => {
    const t = await makeTournament(await makeCategory());
    const p = await makePlayer();
    const res = await joinWith(p, t.id);
    expect(res.status, res.text).toBe(200);
    expect(res.body.joined).toBe(true);
    expect(await received()).toEqual([]);
  });
});
