// Journey 13: running the site from the console. An operator signs in with a password and a
// two-factor code, imports five questions (the one bad row is reported), creates a tournament,
// cancels another (its player gets the fee back), exports the pending payout as an ACH file and
// marks the batch paid, resolves a player's question report, and releases a held prize.
// The players' side is set up through the API, as they would play it.
import { readFileSync } from "node:fs";
import type { AdminQuestion } from "../common/api/admin";
import type { OutboxMail } from "../common/api/email";
import type { PlayerQuestion, TournamentDetail } from "../common/api/tournaments";
import { QUESTION_REPORT } from "../common/messages";
import { ADMIN_TOURNAMENTS } from "../common/console-messages";
import {
  createAccount,
  createTournament,
  depositSandbox,
  expect,
  expectToast,
  freshTotp,
  getTransactions,
  getUser,
  joinByApi,
  newOperator,
  signIn,
  test,
  uniqueName,
  verifyIdentityByApi,
  type Account,
} from "./fixtures";

async function json<T>(res: { ok(): boolean; text(): Promise<string>; json(): Promise<unknown> }): Promise<T> {
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as T;
}

const statusOf = async (player: Account, id: number) =>
  (await json<TournamentDetail>(await player.api.get(`/api/tournaments/${id}`))).status;

async function untilStatus(player: Account, id: number, status: string) {
  await expect.poll(() => statusOf(player, id), { timeout: 90_000, intervals: [1_000] }).toBe(status);
}

/** Answers every question right the moment it is issued: faster than a person reads, so settlement holds the prize. */
async function playLikeABot(player: Account, id: number, answers: Map<number, string>) {
  await untilStatus(player, id, "live");
  for (;;) {
    const next = await player.api.post(`/api/tournaments/${id}/next`);
    if (next.status() === 409) break;
    const q = await json<PlayerQuestion>(next);
    await json(await player.api.post(`/api/tournaments/${id}/answer`, { data: { questionId: q.id, answer: answers.get(q.id) } }));
    if (q.index + 1 >= q.total) break;
  }
  await json(await player.api.post(`/api/tournaments/${id}/complete`));
}

/** One answer after a person's few seconds, then finish: alone, first place wins 65% of the pool. */
async function playLikeAPerson(player: Account, id: number) {
  await untilStatus(player, id, "live");
  const q = await json<PlayerQuestion>(await player.api.post(`/api/tournaments/${id}/next`));
  await new Promise((r) => setTimeout(r, 3_000));
  await json(await player.api.post(`/api/tournaments/${id}/answer`, { data: { questionId: q.id, answer: q.options[0] } }));
  await json(await player.api.post(`/api/tournaments/${id}/complete`));
}

/** Opens the verification link of the sign-up mail (the local outbox keeps it), as the player's browser would. */
async function verifyEmail(player: Account) {
  const mails = await json<OutboxMail[]>(await player.api.get("/api/dev/outbox"));
  const mail = mails.find((m) => m.to === player.email && /verify/i.test(m.subject));
  const token = mail?.text.match(/token=([\w-]+)/)?.[1];
  expect(token, `verification mail to ${player.email}`).toBeTruthy();
  await json(await player.api.post("/api/auth/verify-email", { data: { token } }));
}

test("an operator runs the site from the console: import, create, cancel, pay out, resolve a report, release a prize", async ({ page }) => {
  test.setTimeout(300_000);
  const op = await newOperator("console");
  const [bot, payee, refundee] = await Promise.all([createAccount("bot"), createAccount("payee"), createAccount("refundee")]);

  // The bot's tournament asks ten questions the operator picked, so the journey knows their answers.
  // Here (DEMO_QUESTION_REUSE, e2e/serve.ts) prize play may take any question an operator has not retired
  // or kept for practice; fresh ones first, as the draws prefer them (other journeys hold or burn some).
  const bank = await json<{ items: AdminQuestion[] }>(await op.api.get("/api/admin/questions?categoryId=1&pageSize=50"));
  const usable = bank.items.filter((q) => q.state !== "retired" && q.state !== "practice_only");
  const picked = [...usable.filter((q) => q.state === "fresh"), ...usable.filter((q) => q.state !== "fresh")].slice(0, 10);
  const answers = new Map(picked.map((q) => [q.id, q.correctAnswer]));
  const [botCup, payeeCup, doomed] = await Promise.all([
    createTournament({ title: `Bot Cup ${uniqueName("b")}`, prizePool: 20, startsInMs: 15_000, questionIds: picked.map((q) => q.id) }),
    createTournament({ title: `Payee Cup ${uniqueName("p")}`, prizePool: 20, startsInMs: 15_000 }),
    createTournament({ title: `Doomed Cup ${uniqueName("d")}`, isFree: false, entryFee: 5, maxParticipants: 50 }),
  ]);
  await depositSandbox(refundee, 10);
  await Promise.all([joinByApi(bot, botCup.id), joinByApi(payee, payeeCup.id), joinByApi(refundee, doomed.id)]);
  expect((await getUser(refundee)).balance).toBe(5);
  await Promise.all([playLikeABot(bot, botCup.id, answers), playLikeAPerson(payee, payeeCup.id)]);
  await Promise.all([untilStatus(bot, botCup.id, "completed"), untilStatus(payee, payeeCup.id, "completed")]);

  // The bot reports a question it was shown; the payee takes $10 of the prize to a bank account.
  const reported = picked[0]!;
  await json(
    await bot.api.post(`/api/questions/${reported.id}/report`, {
      data: { reason: "wrong_answer", note: "The answer looks wrong to me", tournamentId: botCup.id },
    }),
  );
  await verifyEmail(payee);
  // A bank withdrawal needs a verified identity in the holder's name (docs/identity-and-tax.md).
  await verifyIdentityByApi(payee, { firstName: "Ada", lastName: "Lovelace" });
  await json(await payee.api.post("/api/auth/step-up", { data: { password: payee.password } }));
  const { payout } = await json<{ payout: { id: number } }>(
    await payee.api.post("/api/withdrawal/confirm", {
      headers: { "Idempotency-Key": crypto.randomUUID() },
      data: {
        amount: 10,
        withdrawalMethod: "bank_account",
        bankAccount: {
          accountHolderName: "Ada Lovelace",
          accountNumber: "000123456789",
          routingNumber: "021000021",
          accountType: "checking",
        },
      },
    }),
  );

  // Signing in: the password, then the authenticator's code (the next one: enabling 2FA used this one).
  await page.goto("/auth");
  await page.getByLabel("Username").fill(op.username);
  await page.getByLabel("Password").fill(op.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  const code = page.getByLabel("Two-factor code (or a recovery code)");
  await expect(code).toBeVisible();
  await code.fill(await freshTotp(op.totpSecret));
  await page.getByRole("button", { name: "Sign In" }).click();
  await expectToast(page, "Login successful");
  await page.getByRole("banner").getByRole("link", { name: "Console" }).click();
  await expect(page).toHaveURL(/\/admin$/);
  const consoleNav = page.getByRole("navigation", { name: "Console" });

  // Import five questions; the fourth row has its correct answer among no option. Into Music, which no
  // other journey plays with known answers (journey 4 draws Science questions and answers from the seed).
  const stamp = uniqueName("q");
  const rows = [1, 2, 3, 4, 5].map((n) =>
    [
      "music",
      `Imported question ${n} of ${stamp}?`,
      "Alpha",
      "Beta",
      "Gamma",
      "Delta",
      n === 4 ? "Omega" : "Beta",
      "2",
      `Beta is right for question ${n}.`,
    ].join(","),
  );
  const csv = ["category,question,option_a,option_b,option_c,option_d,correct_answer,difficulty,explanation", ...rows].join("\n");
  await consoleNav.getByRole("link", { name: "Questions" }).click();
  await page.getByRole("tab", { name: "Import" }).click();
  await page.getByLabel("File contents").fill(csv);
  await page.getByRole("button", { name: "Import questions" }).click();
  // The console's first change in this session asks for a step-up (password and a fresh code), then goes through;
  // the step-up covers the operator's next 15 minutes.
  const stepUp = page.getByRole("dialog", { name: "Confirm it's you" });
  await stepUp.getByLabel("Password").fill(op.password);
  await stepUp.getByLabel("Authentication code").fill(await freshTotp(op.totpSecret));
  await stepUp.getByRole("button", { name: "Confirm" }).click();
  await expect(stepUp).toBeHidden();
  const report = page.getByRole("region", { name: "Import report" });
  await expect(report.getByText("4 imported, 0 updated, 1 row refused")).toBeVisible();
  await expect(report.getByText("Row 5")).toBeVisible();

  // Create a tournament from the form.
  await consoleNav.getByRole("link", { name: "Tournaments" }).click();
  await page.getByRole("button", { name: "New tournament" }).click();
  const form = page.getByRole("form", { name: "Create tournament" });
  const title = `Console Cup ${uniqueName("c")}`;
  await form.getByLabel("Title", { exact: true }).fill(title);
  await form.getByLabel("Category", { exact: true }).selectOption({ label: "Science" });
  await form.getByLabel("Description").fill("Made in the operator console.");
  await form.getByLabel("Entry fee (USD)").fill("2");
  await form.getByRole("button", { name: "Create tournament" }).click();
  await expectToast(page, ADMIN_TOURNAMENTS.created, title);
  await expect(page.getByRole("heading", { name: title })).toBeVisible();

  // Cancel another: its player gets the $5 fee back, once.
  await page.goto(`/admin/tournaments/${doomed.id}`);
  await page.getByRole("button", { name: "Cancel tournament" }).click();
  const cancel = page.getByRole("dialog", { name: `Cancel ${doomed.title}?` });
  await cancel.getByLabel(ADMIN_TOURNAMENTS.cancelReason).fill("Scheduled by mistake");
  await cancel.getByRole("button", { name: "Cancel and refund" }).click();
  await expectToast(page, ADMIN_TOURNAMENTS.cancelled(1));
  expect((await getUser(refundee)).balance).toBe(10);
  expect((await getTransactions(refundee)).filter((t) => t.type === "refund")).toHaveLength(1);

  // Pay the payee: export their pending payout as an ACH file, then mark the batch paid.
  await consoleNav.getByRole("link", { name: "Payouts" }).click();
  await page.getByLabel("Player").fill(payee.username);
  const payoutRow = page.getByRole("row").filter({ hasText: payee.username });
  await expect(payoutRow).toHaveCount(1);
  await expect(payoutRow).toContainText("••••6789");
  await expect(payoutRow).not.toContainText("000123456789");
  await page.getByRole("checkbox", { name: `Select payout #${payout.id}` }).check();
  const downloading = page.waitForEvent("download");
  await page.getByRole("button", { name: "Export ACH file" }).click();
  const download = await downloading;
  const fileName = download.suggestedFilename();
  expect(fileName).toMatch(/^ach-\d{8}-\d+\.txt$/);
  const lines = readFileSync(await download.path(), "utf8")
    .split(/\r?\n/)
    .filter((l) => l !== "");
  // Every record 94 characters, blocked to a multiple of 10 lines; the entry pays the account the payee gave.
  expect(lines.every((l) => l.length === 94)).toBe(true);
  expect(lines.length % 10).toBe(0);
  const entries = lines.filter((l) => l.startsWith("6"));
  expect(entries).toHaveLength(1);
  expect(entries[0]).toContain("000123456789");
  expect(entries[0]!.slice(29, 39)).toBe("0000001000");
  const batchRow = page.getByRole("row").filter({ hasText: fileName });
  await batchRow.getByRole("button", { name: "Mark paid" }).click();
  await page.getByRole("dialog").getByRole("button", { name: "Mark paid" }).click();
  await expectToast(page, "paid", "1 payout marked paid.");
  await expect(batchRow).toContainText(`Paid by ${op.username}`);
  expect((await getTransactions(payee)).find((t) => t.type === "withdrawal")?.status).toBe("completed");

  // Resolve the bot's report: the reporter hears the outcome.
  await consoleNav.getByRole("link", { name: "Reports" }).click();
  const group = page.getByRole("article", { name: reported.question });
  const reportRow = group.getByRole("listitem").filter({ hasText: bot.username });
  await reportRow.getByRole("button", { name: "Resolve" }).click();
  const resolve = page.getByRole("dialog", { name: "Resolve report" });
  await resolve.getByRole("radio", { name: "Dismissed" }).click();
  await resolve.getByRole("button", { name: "Resolve" }).click();
  await expectToast(page, QUESTION_REPORT.resolved);
  await expect(reportRow.getByRole("button", { name: "Resolve" })).toHaveCount(0);

  // Release the bot's held prize (first place, $13.00): it enters the balance.
  expect((await getUser(bot)).balance).toBe(0);
  await consoleNav.getByRole("link", { name: "Fair play" }).click();
  const held = page.getByRole("region", { name: "Held prizes" }).getByRole("listitem").filter({ hasText: bot.username });
  await expect(held).toContainText("$13.00");
  await held.getByRole("button", { name: /^Release prize/ }).click();
  await expectToast(page, "Prize released");
  await expect(held).toHaveCount(0);
  expect((await getUser(bot)).balance).toBe(13);
});

test("at phone width every console screen fits the screen: the navigation scrolls, nothing else does", async ({ page, context }) => {
  await page.setViewportSize({ width: 375, height: 740 });
  const op = await newOperator("phoneop");
  await signIn(context, op);
  await page.goto("/admin");
  const consoleNav = page.getByRole("navigation", { name: "Console" });
  await expect(consoleNav.getByRole("link", { name: "Overview" })).toBeVisible();
  const labels = await consoleNav.getByRole("link").allTextContents();
  expect(labels.length).toBeGreaterThanOrEqual(8);
  for (const label of labels) {
    const link = consoleNav.getByRole("link", { name: label, exact: true });
    await link.scrollIntoViewIfNeeded();
    await link.click();
    await expect(link).toHaveAttribute("aria-current", "page");
    await expect(page.getByRole("main").last()).not.toBeEmpty();
    await page.waitForLoadState("networkidle");
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow, `${label} is wider than the screen`).toBeLessThanOrEqual(0);
  }
});
