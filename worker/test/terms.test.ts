// The legal documents and their acceptance (docs/player-data.md): sign-up records the versions in
// force; a player who has not accepted the version in force cannot deposit, pay an entry fee or
// withdraw until they do; free play stays open. A new version is simulated the way a player meets
// it: their acceptance rows name an older version than the one in force.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { CURRENT_LEGAL_VERSIONS } from "../../common/legal/documents";
import { LEGAL } from "../../common/legal-messages";
import { call, registerUser } from "./helpers";
import { PAST_HOLD, fund, readyToWithdraw, withdraw } from "./money-helpers";
import { join, makeCategory, makeTournament, type Player } from "./tournament-fixtures";

const uniq = () => `t${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;

const acceptedRows = (userId: number) =>
  env.DB.prepare("SELECT document, version FROM terms_acceptances WHERE user_id = ? ORDER BY document, version")
    .bind(userId)
    .all<{ document: string; version: string }>()
    .then((r) => r.results);

/** The player accepted `document` only in a version before the one in force. */
async function acceptedOnlyOlder(userId: number, document: "terms" | "rules" | "privacy") {
  await env.DB.prepare("UPDATE terms_acceptances SET version = '0.9' WHERE user_id = ? AND document = ?").bind(userId, document).run();
}

const depositIntent = (cookie: string) => call("/api/create-payment-intent", { cookie, body: { amount: 10 } });
const accept = (cookie: string, versions: Record<string, string>) => call("/api/user/terms/accept", { cookie, body: { versions } });

describe("sign-up", () => {
  it("is refused without agreeing to the documents, with a message saying so, and creates nothing", async () => {
    const name = uniq();
    const res = await call("/api/register", { body: { username: name, email: `${name}@example.com`, password: "secret123" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "invalid_request", message: LEGAL.mustAgree });
    const unchecked = await call("/api/register", {
      body: { username: name, email: `${name}@example.com`, password: "secret123", acceptTerms: false },
    });
    expect(unchecked.body).toEqual({ code: "invalid_request", message: LEGAL.mustAgree });
    expect(await env.DB.prepare("SELECT id FROM users WHERE username = ?").bind(name).first()).toBeNull();
  });

  it("records the version of each document in force as accepted", async () => {
    const { cookie, user } = await registerUser();
    expect(await acceptedRows(user.id)).toEqual(
      Object.entries(CURRENT_LEGAL_VERSIONS)
        .map(([document, version]) => ({ document, version }))
        .sort((a, b) => a.document.localeCompare(b.document)),
    );
    const status = await call("/api/user/terms", { cookie });
    expect(status.status).toBe(200);
    expect(status.body.outstanding).toEqual([]);
    expect(status.body.current.map((d: { id: string; version: string }) => [d.id, d.version])).toEqual(
      Object.entries(CURRENT_LEGAL_VERSIONS),
    );
  });
});

describe("a new version of a document", () => {
  async function setUp(): Promise<{ player: Player; paid: { id: number }; free: { id: number }; housePrize: { id: number } }> {
    const category = await makeCategory();
    const paid = await makeTournament(category, { entryFeeCents: 500 });
    const free = await makeTournament(category);
    const housePrize = await makeTournament(category, { prizePoolCents: 1000 });
    const u = await registerUser();
    const player: Player = { id: u.user.id, username: u.username, cookie: u.cookie };
    await fund(player.id, 5000, { hoursAgo: PAST_HOLD });
    await readyToWithdraw(player.id);
    await acceptedOnlyOlder(player.id, "terms");
    return { player, paid, free, housePrize };
  }

  it("refuses deposits, paid joins and withdrawals until accepted; free play stays open", async () => {
    const { player, paid, free, housePrize } = await setUp();
    const refusal = {
      code: "terms_not_accepted",
      message: LEGAL.notAccepted("Terms of Service"),
    };
    const deposit = await depositIntent(player.cookie);
    expect(deposit.status).toBe(403);
    expect(deposit.body).toEqual(refusal);
    const paidJoin = await join(player, paid.id);
    expect(paidJoin.status).toBe(403);
    expect(paidJoin.body).toEqual(refusal);
    const out = await withdraw(player.cookie, 5);
    expect(out.status).toBe(403);
    expect(out.body).toEqual(refusal);
    // Nothing moved.
    const rows = await env.DB.prepare("SELECT type FROM transactions WHERE user_id = ?").bind(player.id).all<{ type: string }>();
    expect(rows.results.map((r) => r.type)).toEqual(["deposit"]);
    expect((await join(player, free.id)).status).toBe(200);
    // Free play is open, a free tournament with a prize the house funds included: its prize is
    // withdrawn only once the new version is accepted.
    expect((await join(player, housePrize.id)).status).toBe(200);
    // Reading stays open, and says what is outstanding.
    const status = await call("/api/user/terms", { cookie: player.cookie });
    expect(status.body.outstanding).toEqual(["terms"]);
    expect((await call("/api/legal/terms")).status).toBe(200);

    const accepted = await accept(player.cookie, { ...CURRENT_LEGAL_VERSIONS });
    expect(accepted.status).toBe(200);
    expect(accepted.body.outstanding).toEqual([]);
    expect((await depositIntent(player.cookie)).status).toBe(200);
    expect((await join(player, paid.id)).status).toBe(200);
    expect((await withdraw(player.cookie, 5)).status).toBe(200);
    // The older acceptance stays as the record of what was agreed before.
    expect((await acceptedRows(player.id)).filter((r) => r.document === "terms").map((r) => r.version)).toEqual([
      "0.9",
      CURRENT_LEGAL_VERSIONS.terms,
    ]);
  });

  it("names every document outstanding in the refusal", async () => {
    const { player } = await setUp();
    await acceptedOnlyOlder(player.id, "privacy");
    const res = await depositIntent(player.cookie);
    expect(res.body).toEqual({ code: "terms_not_accepted", message: LEGAL.notAccepted("Terms of Service and Privacy Policy") });
  });

  it("an account that never accepted anything (made before acceptances were recorded) is asked too", async () => {
    const { player } = await setUp();
    await env.DB.prepare("DELETE FROM terms_acceptances WHERE user_id = ?").bind(player.id).run();
    expect((await depositIntent(player.cookie)).body.code).toBe("terms_not_accepted");
  });

  it("is not accepted with the versions of a page read before it came out, nor with one left out", async () => {
    const { player } = await setUp();
    const stale = await accept(player.cookie, { ...CURRENT_LEGAL_VERSIONS, terms: "0.9" });
    expect(stale.status).toBe(409);
    expect(stale.body).toEqual({ code: "terms_version_stale", message: LEGAL.stale });
    const partial = await accept(player.cookie, { terms: CURRENT_LEGAL_VERSIONS.terms });
    expect(partial.status).toBe(409);
    expect((await call("/api/user/terms", { cookie: player.cookie })).body.outstanding).toEqual(["terms"]);
    expect((await depositIntent(player.cookie)).status).toBe(403);
  });

  it("accepting twice changes nothing the second time", async () => {
    const { player } = await setUp();
    expect((await accept(player.cookie, { ...CURRENT_LEGAL_VERSIONS })).status).toBe(200);
    expect((await accept(player.cookie, { ...CURRENT_LEGAL_VERSIONS })).status).toBe(200);
    expect((await acceptedRows(player.id)).length).toBe(4);
  });

  it("needs a signed-in player", async () => {
    expect((await call("/api/user/terms")).status).toBe(401);
    expect((await accept("sid=nobody", { ...CURRENT_LEGAL_VERSIONS })).status).toBe(401);
  });
});

describe("GET /api/legal/:doc", () => {
  it("serves each document with its version and date, the void regions and ages filled in from the settings", async () => {
    const env2 = { BARRED_REGIONS: "US-WA, us-id", REGION_MIN_AGES: "US-AL:19,US-MS:21", SUPPORT_EMAIL: "help@arena.example" };
    const rules = await call("/api/legal/rules", { env: env2 });
    expect(rules.status).toBe(200);
    expect(rules.body).toMatchObject({ id: "rules", title: "Official Contest Rules", version: CURRENT_LEGAL_VERSIONS.rules });
    expect(rules.body.effectiveDate).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(rules.body.text).toContain("refused from these regions: US-WA, US-ID.");
    expect(rules.body.text).toContain("US-AL: 19, US-MS: 21");
    expect(rules.body.text).toContain("help@arena.example");
    expect(rules.body.text).toContain("85% of the entry fees");
    expect(rules.body.text).not.toContain("{{");
    for (const doc of ["terms", "privacy"]) {
      const res = await call(`/api/legal/${doc}`);
      expect(res.status).toBe(200);
      expect(res.body.version).toBe(CURRENT_LEGAL_VERSIONS[doc as "terms" | "privacy"]);
      expect(res.body.text).not.toContain("{{");
    }
  });

  it("says so where no region is barred, and answers an unknown document with 400", async () => {
    const rules = await call("/api/legal/rules", { env: { BARRED_REGIONS: "" } });
    expect(rules.body.text).toContain("refused from these regions: none at present.");
    expect((await call("/api/legal/cookies")).status).toBe(400);
  });
});
