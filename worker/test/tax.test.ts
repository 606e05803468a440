// Tax details of US winners (docs/identity-and-tax.md, "Tax"): the W-9 a withdrawal needs once a
// US player's prizes in the calendar year reach the threshold, the TIN sealed and never shown
// beyond its last 4 digits, and the operators' 1099-MISC export reconciled with the ledger.
import { afterEach, describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { TAX } from "../../common/messages";
import { TAX_CONSOLE } from "../../common/console-messages";
import { FORM_1099_COLUMNS, MISSING_W9_NOTE, taxYearBounds } from "../../common/domain/tax";
import { postEntry } from "../money/ledger";
import { open } from "../crypto/sealed";
import { taxFormSealContext } from "../tax/forms";
import { call, registerUser } from "./helpers";
import { markSteppedUp } from "./session-helpers";
import { dumpDatabase, expectLedgerBalanced, makeAdmin, withdraw } from "./money-helpers";
import { all, endNow, humanPace, join, makeCategory, makePlayer, makeTournament, one, play, type Player } from "./tournament-fixtures";
import { waitForMail } from "./email-helpers";
import { verifyIdentityOf } from "./identity-helpers";

afterEach(expectLedgerBalanced);

const THIS_YEAR = new Date().getUTCFullYear();

/**
 * A player who may withdraw but for tax: a verified address, a verified identity (a document of
 * `documentCountry`: by default the account's country, else Great Britain), a step-up just now, and a country.
 */
async function player(country: string | null = "US", documentCountry = country ?? "GB"): Promise<Player> {
  const p = await makePlayer();
  await env.DB.prepare("UPDATE users SET country = ?, email_verified_at = ? WHERE id = ?").bind(country, Date.now(), p.id).run();
  await verifyIdentityOf(p.id, { documentCountry });
  await markSteppedUp(p.id);
  return p;
}

/**
 * Credits a prize through the real ledger function (postEntry, the same `prize:{t}:{u}` reference
 * form and type as settlement writes), dated `at`: settling a real tournament per prize would not
 * let a test place prizes in other years. One test below settles a real tournament too.
 */
async function creditPrize(userId: number, cents: number, at = Date.now(), status: "completed" | "held" | "forfeited" = "completed") {
  const reference = `prize:fixture${crypto.randomUUID().replace(/-/g, "")}:${userId}`;
  await postEntry(env.DB, { userId, amountCents: cents, type: "prize", status, reference, description: "Prize (test fixture)" });
  await env.DB.prepare("UPDATE transactions SET created_at = ? WHERE reference = ?").bind(at, reference).run();
}

const SSN = "536227481";
const SSN_FORMATTED = "536-22-7481";

const w9 = (o: Record<string, unknown> = {}) => ({
  legalName: "Ada Lovelace",
  taxClassification: "individual",
  tinType: "ssn",
  tin: SSN_FORMATTED,
  street: "12 Analytical Way",
  city: "Boston",
  state: "MA",
  zip: "02110",
  certified: true,
  signatureName: "Ada Lovelace",
  ...o,
});

const fileW9 = (p: Player, o: Record<string, unknown> = {}) => call("/api/user/tax-form", { cookie: p.cookie, body: w9(o) });

const formRows = (userId: number) => all<{ id: number }>("SELECT id FROM tax_forms WHERE user_id = ?", userId);

describe("the W-9 a withdrawal needs", () => {
  it("refuses a US player whose prizes this year (a real settled tournament) reached $2,000 until the form is on file", async () => {
    const t = await makeTournament(await makeCategory(), { startTime: Date.now() - 1000, prizePoolCents: 400_000 });
    const p = await player("US");
    expect((await join(p, t.id)).status).toBe(200);
    for (let i = 0; i < 10; i++) await play(p, t, true, humanPace(i));
    await endNow(t.id);
    // Alone, the player takes 1st place: 65% of the pool, $2,600, paid (not held) by the settlement.
    expect(await one("SELECT amount_cents, status FROM transactions WHERE reference = ?", `prize:${t.id}:${p.id}`)).toEqual({
      amount_cents: 260_000,
      status: "completed",
    });

    const status = await call("/api/user/tax-form", { cookie: p.cookie });
    expect(status.body).toMatchObject({
      usPayee: true,
      year: THIS_YEAR,
      yearPrizes: 2600,
      threshold: 2000,
      formRequired: true,
      form: null,
    });

    const refused = await withdraw(p.cookie, 50);
    expect(refused.status).toBe(403);
    expect(refused.body).toEqual({ code: "tax_form_required", message: TAX.formRequired("2,000", THIS_YEAR) });
    expect(await all("SELECT id FROM payouts WHERE user_id = ?", p.id)).toEqual([]);

    const filed = await fileW9(p);
    expect(filed.status, filed.text).toBe(200);
    expect(filed.body).toMatchObject({ formRequired: false, message: TAX.saved, form: { tinType: "ssn", tinLast4: "7481" } });
    const ok = await withdraw(p.cookie, 50);
    expect(ok.status, ok.text).toBe(200);
  });

  it("counts a total that reaches the threshold exactly over several prizes", async () => {
    const p = await player("us");
    await creditPrize(p.id, 120_000);
    await creditPrize(p.id, 79_999);
    expect((await withdraw(p.cookie, 10)).status).toBe(200);
    await creditPrize(p.id, 1);
    const res = await withdraw(p.cookie, 10);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("tax_form_required");
  });

  it("does not refuse under the threshold, a non-US player, or prizes of a previous year", async () => {
    const under = await player("US");
    await creditPrize(under.id, 199_999);
    const abroad = await player("CA");
    await creditPrize(abroad.id, 500_000);
    const lastYear = await player("US");
    await creditPrize(lastYear.id, 500_000, taxYearBounds(THIS_YEAR).from - 1);
    await creditPrize(lastYear.id, 1_000);
    for (const p of [under, abroad, lastYear]) {
      const res = await withdraw(p.cookie, 10);
      expect(res.status, res.text).toBe(200);
    }
  });

  it("leaves held and forfeited prizes out until released", async () => {
    const p = await player("US");
    await creditPrize(p.id, 150_000);
    await creditPrize(p.id, 100_000, Date.now(), "held");
    await creditPrize(p.id, 100_000, Date.now(), "forfeited");
    expect((await withdraw(p.cookie, 10)).status).toBe(200);
  });

  it("asks a player who set another country in the profile but withdraws from the US", async () => {
    const p = await player("CA");
    await creditPrize(p.id, 300_000);
    expect((await withdraw(p.cookie, 10)).status).toBe(200);
    const res = await call("/api/withdrawal/confirm", {
      cookie: p.cookie,
      cf: { country: "US" },
      headers: { "idempotency-key": crypto.randomUUID() },
      body: { amount: 10, withdrawalMethod: "bank_account", bankAccount: (await import("./money-helpers")).validBank() },
    });
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("tax_form_required");
  });

  it("asks a player whose verified identity document is American, whatever the profile says; a foreign document excuses nobody", async () => {
    const american = await player("CA", "US");
    await creditPrize(american.id, 300_000);
    const refused = await withdraw(american.cookie, 10);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("tax_form_required");
    const usResident = await player("US", "GB");
    await creditPrize(usResident.id, 300_000);
    expect((await withdraw(usResident.cookie, 10)).body.code).toBe("tax_form_required");
  });
});

describe("filing a W-9", () => {
  it("needs a step-up", async () => {
    const p = await player();
    await env.DB.prepare("UPDATE sessions SET step_up_at = NULL WHERE user_id = ?").bind(p.id).run();
    const res = await fileW9(p);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe("step_up_required");
    expect(await formRows(p.id)).toEqual([]);
  });

  it.each([
    ["an SSN with area 000", { tin: "000-12-3456" }, TAX.ssnInvalid],
    ["an SSN with area 666", { tin: "666123456" }, TAX.ssnInvalid],
    ["an ITIN given as SSN", { tin: "912-70-1234" }, TAX.ssnInvalid],
    ["an SSN with group 00", { tin: "123-00-4567" }, TAX.ssnInvalid],
    ["an SSN with serial 0000", { tin: "123-45-0000" }, TAX.ssnInvalid],
    ["8 digits", { tin: "12345678" }, TAX.tinFormat],
    ["letters", { tin: "12345678a" }, TAX.tinFormat],
    ["an EIN under an unassigned prefix", { tinType: "ein", tin: "07-1234567" }, TAX.einInvalid],
    ["a corporation with an SSN", { taxClassification: "c_corporation" }, TAX.einForEntities],
    ["the certification unticked", { certified: false }, TAX.certificationRequired],
    ["the certification missing", { certified: undefined }, TAX.certificationRequired],
    ["the certification as text", { certified: "true" }, TAX.certificationRequired],
    ["no signature", { signatureName: "" }, TAX.signatureRequired],
    ["a signature of another name", { signatureName: "Charles Babbage" }, TAX.signatureMismatch],
    ["a state that is not one", { state: "XX" }, TAX.stateInvalid],
    ["a ZIP of 4 digits", { zip: "0211" }, TAX.zipInvalid],
    ["an unknown classification", { taxClassification: "pirate" }, TAX.classificationRequired],
    ["no legal name", { legalName: " " }, TAX.legalNameRequired],
  ])("refuses %s and stores nothing", async (_name, change, message) => {
    const p = await player();
    const res = await fileW9(p, change);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: "invalid_request", message });
    expect(await formRows(p.id)).toEqual([]);
  });

  it("keeps the TIN sealed and bound to its player, and shows nothing of it but the last 4 digits anywhere", async () => {
    const p = await player();
    const op = await player("US");
    await makeAdmin(op.id);
    const filed = await fileW9(p, { businessName: "Ada's Engines" });
    expect(filed.status, filed.text).toBe(200);
    const status = await call("/api/user/tax-form", { cookie: p.cookie });
    expect(status.body.form).toEqual({
      legalName: "Ada Lovelace",
      businessName: "Ada's Engines",
      taxClassification: "individual",
      tinType: "ssn",
      tinLast4: "7481",
      street: "12 Analytical Way",
      city: "Boston",
      state: "MA",
      zip: "02110",
      certifiedAt: expect.any(String),
    });
    const answers = [
      filed,
      status,
      await call(`/api/admin/users/${p.id}`, { cookie: op.cookie }),
      await call(`/api/admin/users/${p.id}/ledger`, { cookie: op.cookie }),
      await call("/api/admin/audit", { cookie: op.cookie }),
      await call(`/api/admin/tax/1099-misc/summary?year=${THIS_YEAR}`, { cookie: op.cookie }),
    ];
    for (const a of answers) {
      expect(a.status, a.text).toBe(200);
      expect(a.text).not.toContain(SSN);
      expect(a.text).not.toContain(SSN_FORMATTED);
    }
    const mail = await waitForMail(`${p.username}@example.com`, "tax_form_filed");
    expect(mail.text_body).toContain("7481");
    expect(mail.text_body).not.toContain(SSN);

    // At rest: nowhere in the database in clear, and the sealed value opens only as this player's.
    expect(await dumpDatabase()).not.toContain(SSN);
    const row = await one<{ tin_sealed: string; tin_type: string; tin_last4: string }>(
      "SELECT tin_sealed, tin_type, tin_last4 FROM tax_forms WHERE user_id = ?",
      p.id,
    );
    expect(await open(env, row.tin_sealed, taxFormSealContext({ userId: p.id, tinType: "ssn", tinLast4: "7481" }))).toBe(SSN);
    await expect(open(env, row.tin_sealed, taxFormSealContext({ userId: op.id, tinType: "ssn", tinLast4: "7481" }))).rejects.toThrow();
  });

  it("takes at most 5 filings an hour", async () => {
    const p = await player();
    for (let i = 0; i < 5; i++) expect((await fileW9(p)).status).toBe(200);
    const res = await fileW9(p);
    expect(res.status).toBe(429);
    expect(res.body.code).toBe("rate_limited");
    expect((await formRows(p.id)).length).toBe(5);
  });

  it("replaces the form in force with a new one and keeps the old one, which cannot be changed", async () => {
    const p = await player();
    expect((await fileW9(p)).status).toBe(200);
    const second = await fileW9(p, { tinType: "ein", tin: "12-3456789", taxClassification: "llc", legalName: "Ada Lovelace" });
    expect(second.status, second.text).toBe(200);
    expect(second.body.form).toMatchObject({ tinType: "ein", tinLast4: "6789", taxClassification: "llc" });
    expect((await formRows(p.id)).length).toBe(2);
    await expect(env.DB.prepare("UPDATE tax_forms SET legal_name = 'X' WHERE user_id = ?").bind(p.id).run()).rejects.toThrow(/append-only/);
    await expect(env.DB.prepare("DELETE FROM tax_forms WHERE user_id = ?").bind(p.id).run()).rejects.toThrow(/append-only/);
  });
});

/** The CSV as rows of fields (the export quotes nothing these fixtures need quoted, but a name may). */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  for (const line of text.trim().split("\r\n")) {
    const fields: string[] = [];
    let cur = "";
    let quoted = false;
    for (let i = 0; i < line.length; i++) {
      const ch = line[i]!;
      if (quoted && ch === '"' && line[i + 1] === '"') {
        cur += '"';
        i++;
      } else if (ch === '"') quoted = !quoted;
      else if (ch === "," && !quoted) {
        fields.push(cur);
        cur = "";
      } else cur += ch;
    }
    fields.push(cur);
    rows.push(fields);
  }
  return rows;
}

const col = (row: string[], name: (typeof FORM_1099_COLUMNS)[number]) => row[FORM_1099_COLUMNS.indexOf(name)]!;

describe("the 1099-MISC export", () => {
  // Each test that credits prizes uses its own year: the tests of a file share one database.
  const YEAR = 2024;

  async function yearOfPrizes(YEAR: number) {
    const inYear = (dayOfYear: number) => taxYearBounds(YEAR).from + dayOfYear * 86_400_000 + 3_600_000;
    const a = await player("US"); // W-9 (filed twice: the newest counts), three prizes, one other year's, one held
    const b = await player("US"); // no W-9, exactly the threshold
    const c = await player("US"); // W-9 with an EIN
    const d = await player("CA"); // not a US payee
    const e = await player("US"); // under the threshold
    await creditPrize(a.id, 150_000, inYear(3));
    await creditPrize(a.id, 75_050, inYear(200));
    await creditPrize(a.id, 1, taxYearBounds(YEAR).to - 1);
    await creditPrize(a.id, 500_000, taxYearBounds(YEAR).from - 1);
    await creditPrize(a.id, 90_000, inYear(100), "held");
    await creditPrize(b.id, 120_000, inYear(10));
    await creditPrize(b.id, 80_000, inYear(11));
    await creditPrize(c.id, 333_333, inYear(50));
    await creditPrize(d.id, 900_000, inYear(60));
    await creditPrize(e.id, 199_999, inYear(70));
    await creditPrize(e.id, 5_000, taxYearBounds(YEAR).to);
    expect((await fileW9(a, { tin: "123-45-6789" })).status).toBe(200);
    expect((await fileW9(a)).status).toBe(200);
    const cForm = { legalName: "Carol Ng", signatureName: "Carol Ng", businessName: "Ng Trivia, LLC", taxClassification: "llc" };
    expect((await fileW9(c, { ...cForm, tinType: "ein", tin: "98-7654321", state: "ny", zip: "10001-1234" })).status).toBe(200);
    const op = await player("US");
    await makeAdmin(op.id);
    return { a, b, c, d, e, op };
  }

  it("lists the year's US payees at the threshold with box 3 and TINs, and its total reconciles with the ledger to the cent", async () => {
    const { a, b, c, d, e, op } = await yearOfPrizes(YEAR);
    const res = await call(`/api/admin/tax/1099-misc?year=${YEAR}`, { cookie: op.cookie });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="1099-misc-${YEAR}.csv"`);
    const rows = parseCsv(res.text);
    expect(rows[0]).toEqual([...FORM_1099_COLUMNS]);
    expect(rows.map((r) => r[0])).toEqual(["record_type", "A", "B", "B", "B", "C"]);

    const payer = rows[1]!;
    expect([col(payer, "tin"), col(payer, "name"), col(payer, "state")]).toEqual(["123456789", env.TAX_PAYER_NAME, env.TAX_PAYER_STATE]);

    const byAccount = new Map(rows.filter((r) => r[0] === "B").map((r) => [col(r, "account_number"), r]));
    expect([...byAccount.keys()].sort()).toEqual([a.id, b.id, c.id].map(String).sort());
    const ra = byAccount.get(String(a.id))!;
    expect([
      col(ra, "tin_type"),
      col(ra, "tin"),
      col(ra, "name"),
      col(ra, "payment_amount_3_cents"),
      col(ra, "box_3_other_income_usd"),
    ]).toEqual(["2", SSN, "Ada Lovelace", "225051", "2250.51"]);
    expect([col(ra, "address"), col(ra, "city"), col(ra, "state"), col(ra, "zip"), col(ra, "w9_on_file")]).toEqual([
      "12 Analytical Way",
      "Boston",
      "MA",
      "02110",
      "yes",
    ]);
    const rb = byAccount.get(String(b.id))!;
    expect([
      col(rb, "tin_type"),
      col(rb, "tin"),
      col(rb, "name"),
      col(rb, "payment_amount_3_cents"),
      col(rb, "w9_on_file"),
      col(rb, "note"),
    ]).toEqual(["", "", b.username, "200000", "no", MISSING_W9_NOTE]);
    const rc = byAccount.get(String(c.id))!;
    expect([
      col(rc, "tin_type"),
      col(rc, "tin"),
      col(rc, "second_name"),
      col(rc, "state"),
      col(rc, "zip"),
      col(rc, "payment_amount_3_cents"),
    ]).toEqual(["1", "987654321", "Ng Trivia, LLC", "NY", "10001-1234", "333333"]);
    expect(byAccount.has(String(d.id))).toBe(false);
    expect(byAccount.has(String(e.id))).toBe(false);

    // Reconciliation: the C row's total is the sum of the B rows and of the listed payees' paid prize rows in the ledger that year.
    const { from, to } = taxYearBounds(YEAR);
    const listed = [a.id, b.id, c.id];
    const ledger = await one<{ cents: number }>(
      `SELECT sum(amount_cents) AS cents FROM transactions WHERE type = 'prize' AND status IN ('completed', 'pending')
       AND created_at >= ? AND created_at < ? AND user_id IN (?, ?, ?)`,
      from,
      to,
      ...listed,
    );
    const total = rows.at(-1)!;
    const bSum = rows.filter((r) => r[0] === "B").reduce((s, r) => s + Number(col(r, "payment_amount_3_cents")), 0);
    expect(ledger.cents).toBe(758_384);
    expect(Number(col(total, "payment_amount_3_cents"))).toBe(ledger.cents);
    expect(bSum).toBe(ledger.cents);
    expect(col(total, "box_3_other_income_usd")).toBe("7583.84");
    expect(col(total, "number_of_payees")).toBe("3");

    // The console's summary: the year's prizes against what is reported, and what is left out.
    const all = await one<{ cents: number }>(
      "SELECT sum(amount_cents) AS cents FROM transactions WHERE type = 'prize' AND status IN ('completed', 'pending') AND created_at >= ? AND created_at < ?",
      from,
      to,
    );
    const summary = await call(`/api/admin/tax/1099-misc/summary?year=${YEAR}`, { cookie: op.cookie });
    expect(summary.body).toEqual({
      year: YEAR,
      threshold: 2000,
      totalPrizes: all.cents / 100,
      reportedTotal: 7583.84,
      payees: 3,
      payeesWithoutForm: 1,
      withoutForm: [{ userId: b.id, username: b.username, prizes: 2000 }],
      belowThreshold: 1999.99,
      notUs: 9000,
    });
    expect(all.cents).toBe(758_384 + 900_000 + 199_999);
  });

  it("still lists a US winner without a W-9 who deleted the account, and its total still reconciles with the ledger", async () => {
    const YEAR = 2018;
    const { from, to } = taxYearBounds(YEAR);
    /** An account that can delete itself (a password), of `country`, verified with a document of `documentCountry`. */
    async function winner(country: string, documentCountry: string, cents: number) {
      const u = await registerUser();
      await env.DB.prepare("UPDATE users SET country = ?, email_verified_at = ? WHERE id = ?").bind(country, Date.now(), u.user.id).run();
      await verifyIdentityOf(u.user.id, { documentCountry });
      await creditPrize(u.user.id, cents, from + 86_400_000);
      // The winnings went on entry fees since: a zero balance, as deleting needs.
      await postEntry(env.DB, {
        userId: u.user.id,
        amountCents: -cents,
        type: "tournament_entry",
        reference: `entry:fixture${crypto.randomUUID().replace(/-/g, "")}:${u.user.id}`,
        description: "Entry (test fixture)",
      });
      return u;
    }
    // A US resident verified with a British passport, no W-9: a US payee by the account's country alone.
    const us = await winner("US", "GB", 250_000);
    const ca = await winner("CA", "CA", 300_000);
    const op = await player("US");
    await makeAdmin(op.id);
    const exportNow = async () => {
      const res = await call(`/api/admin/tax/1099-misc?year=${YEAR}`, { cookie: op.cookie });
      expect(res.status, res.text).toBe(200);
      return parseCsv(res.text);
    };
    const summaryBefore = (await call(`/api/admin/tax/1099-misc/summary?year=${YEAR}`, { cookie: op.cookie })).body;
    const payeeRows = (rows: string[][]) =>
      rows.filter((r) => r[0] === "B").map((r) => [col(r, "account_number"), col(r, "payment_amount_3_cents")]);
    expect(payeeRows(await exportNow())).toEqual([[String(us.user.id), "250000"]]);

    for (const u of [us, ca]) {
      const deleted = await call("/api/user", { method: "DELETE", cookie: u.cookie, body: { password: u.password, confirm: "DELETE" } });
      expect(deleted.status, deleted.text).toBe(200);
    }

    const rows = await exportNow();
    expect(payeeRows(rows)).toEqual([[String(us.user.id), "250000"]]);
    const payee = rows.find((r) => r[0] === "B")!;
    expect([col(payee, "name"), col(payee, "w9_on_file"), col(payee, "note")]).toEqual([
      `Deleted player ${us.user.id}`,
      "no",
      MISSING_W9_NOTE,
    ]);
    const ledger = await one<{ cents: number }>(
      `SELECT sum(amount_cents) AS cents FROM transactions WHERE type = 'prize' AND status IN ('completed', 'pending')
       AND created_at >= ? AND created_at < ? AND user_id = ?`,
      from,
      to,
      us.user.id,
    );
    expect(Number(col(rows.at(-1)!, "payment_amount_3_cents"))).toBe(ledger.cents);
    const summaryAfter = (await call(`/api/admin/tax/1099-misc/summary?year=${YEAR}`, { cookie: op.cookie })).body;
    expect(summaryAfter).toEqual({
      ...summaryBefore,
      withoutForm: [{ userId: us.user.id, username: `Deleted player ${us.user.id}`, prizes: 2500 }],
    });
    expect(summaryAfter).toMatchObject({ totalPrizes: 5500, reportedTotal: 2500, notUs: 3000, payees: 1, payeesWithoutForm: 1 });
    // The non-US winner's country is erased; the US winner's is kept, as a tax record.
    expect(await one("SELECT country FROM users WHERE id = ?", ca.user.id)).toEqual({ country: null });
    expect(await one("SELECT country FROM users WHERE id = ?", us.user.id)).toEqual({ country: "US" });
  });

  it("is audited, without the TINs in the audit row", async () => {
    const { op } = await yearOfPrizes(2021);
    const res = await call("/api/admin/tax/1099-misc?year=2021", { cookie: op.cookie });
    expect(res.status).toBe(200);
    const audit = await all<{ actor_user_id: number; target_type: string; target_id: string; after: string }>(
      "SELECT actor_user_id, target_type, target_id, after FROM audit_log WHERE action = 'tax.export_1099' AND actor_user_id = ?",
      op.id,
    );
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ actor_user_id: op.id, target_type: "tax_year", target_id: "2021" });
    expect(JSON.parse(audit[0]!.after)).toMatchObject({ fileName: "1099-misc-2021.csv", payees: 3, reportedTotal: 7583.84 });
    expect(audit[0]!.after).not.toContain(SSN);
  });

  it("is refused to a player, to an operator without two-factor or a recent step-up, and for a malformed year; nothing is audited", async () => {
    const p = await player("US");
    const asPlayer = await call(`/api/admin/tax/1099-misc?year=${YEAR}`, { cookie: p.cookie });
    expect(asPlayer.status).toBe(403);
    expect(asPlayer.body.code).toBe("forbidden");
    expect((await call(`/api/admin/tax/1099-misc/summary?year=${YEAR}`, { cookie: p.cookie })).status).toBe(403);

    const noTwoFactor = await player("US");
    await env.DB.prepare("UPDATE users SET role = 'admin' WHERE id = ?").bind(noTwoFactor.id).run();
    const no2fa = await call(`/api/admin/tax/1099-misc?year=${YEAR}`, { cookie: noTwoFactor.cookie });
    expect(no2fa.body.code).toBe("admin_two_factor_required");

    const op = await player("US");
    await makeAdmin(op.id);
    await env.DB.prepare("UPDATE sessions SET step_up_at = NULL WHERE user_id = ?").bind(op.id).run();
    const stale = await call(`/api/admin/tax/1099-misc?year=${YEAR}`, { cookie: op.cookie });
    expect(stale.status).toBe(403);
    expect(stale.body.code).toBe("step_up_required");
    // The summary holds no TIN: no step-up needed.
    expect((await call(`/api/admin/tax/1099-misc/summary?year=${YEAR}`, { cookie: op.cookie })).status).toBe(200);

    await markSteppedUp(op.id);
    for (const year of ["abc", "1999", String(THIS_YEAR + 2), "2024.5", ""]) {
      const res = await call(`/api/admin/tax/1099-misc?year=${year}`, { cookie: op.cookie });
      expect(res.status, year).toBe(400);
      expect(res.body).toEqual({ code: "invalid_request", message: TAX_CONSOLE.yearInvalid });
    }
    expect(
      await all("SELECT id FROM audit_log WHERE action = 'tax.export_1099' AND actor_user_id IN (?, ?, ?)", p.id, noTwoFactor.id, op.id),
    ).toEqual([]);
  });

  it("names a missing or malformed payer setting instead of making a file", async () => {
    const op = await player("US");
    await makeAdmin(op.id);
    const res = await call(`/api/admin/tax/1099-misc?year=${YEAR}`, { cookie: op.cookie, env: { TAX_PAYER_TIN: "" } });
    expect(res.status).toBe(503);
    expect(res.body).toEqual({
      code: "tax_payer_not_configured",
      message: TAX_CONSOLE.payerNotConfigured("TAX_PAYER_TIN", "must be your EIN, 9 digits under a prefix the IRS assigns"),
    });
    const zip = await call(`/api/admin/tax/1099-misc?year=${YEAR}`, { cookie: op.cookie, env: { TAX_PAYER_ZIP: "abc" } });
    expect(zip.body.code).toBe("tax_payer_not_configured");
    expect(zip.body.message).toContain("TAX_PAYER_ZIP");
    expect(await all("SELECT id FROM audit_log WHERE action = 'tax.export_1099' AND actor_user_id = ?", op.id)).toEqual([]);
  });
});
