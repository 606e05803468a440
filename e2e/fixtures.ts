// What the journeys share: fresh accounts made through the real API, a browser signed in by an
// account's session cookie, sandbox deposits through the real payment endpoints, an operator
// who creates tournaments, and on failure the console log of every page next to the screenshot.
import { execFileSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { writeFileSync } from "node:fs";
import {
  test as base,
  expect,
  request as playwrightRequest,
  type APIRequestContext,
  type APIResponse,
  type BrowserContext,
  type BrowserContextOptions,
  type Page,
  type TestInfo,
} from "@playwright/test";
import type { PlayerQuestion, TournamentDetail } from "../common/api/tournaments";
import type { Tournament, Transaction, User } from "../common/api/types";
import type { CreateTournamentInput } from "../common/api/admin";
import { E2E_BASE_URL, E2E_PERSIST_TO } from "./env";

export { expect };

export const PASSWORD = "journey-pass-1";

/** The sandbox provider's test cards (README). */
export const CARDS = { success: "4242 4242 4242 4242", declined: "4000 0000 0000 0002" } as const;
/** A card expiry three years ahead, as the card form takes it ("MM/YY"). */
export const futureExpiry = () => `12/${String((new Date().getUTCFullYear() + 3) % 100).padStart(2, "0")}`;

export interface Account {
  id: number;
  username: string;
  email: string;
  password: string;
  /** The account's own API client: its cookie jar holds the session. */
  api: APIRequestContext;
}

let seq = 0;
/** Unique, within the 30 characters and the characters registration allows. */
export function uniqueName(prefix: string): string {
  const stamp = `${Date.now().toString(36)}${process.pid.toString(36)}${(++seq).toString(36)}`;
  return `${prefix.slice(0, 8)}_${stamp}`.slice(0, 30);
}

async function ok<T>(res: APIResponse, what: string): Promise<T> {
  if (!res.ok()) throw new Error(`${what} failed: ${res.status()} ${await res.text()}`);
  return (await res.json()) as T;
}

/**
 * An API client as the browser would be on our origin (the Worker refuses state changes without it).
 * `baseURL`: the journeys' server unless a journey runs its own.
 */
const newApiContext = (baseURL = E2E_BASE_URL) => playwrightRequest.newContext({ baseURL, extraHTTPHeaders: { Origin: baseURL } });

/** API clients of the running test's accounts, disposed when it ends. */
const openApis: APIRequestContext[] = [];

/** The date of birth journeys type when the app asks (an adult anywhere). */
export const ADULT_DATE_OF_BIRTH = "1990-05-17";

/**
 * Registers a new account through POST /api/register; its client is signed in. The player has
 * given an adult date of birth (PUT /api/user/date-of-birth), as a first deposit or paid entry
 * asks; `dateOfBirth: false` leaves it for the journey to give through the page.
 */
export async function createAccount(
  prefix = "player",
  { keep = false, dateOfBirth = true, baseURL = E2E_BASE_URL }: { keep?: boolean; dateOfBirth?: boolean; baseURL?: string } = {},
): Promise<Account> {
  const api = await newApiContext(baseURL);
  if (!keep) openApis.push(api);
  const username = uniqueName(prefix);
  const email = `${username.toLowerCase()}@example.com`;
  const user = await ok<User>(
    await api.post("/api/register", { data: { username, email, password: PASSWORD, acceptTerms: true } }),
    `register ${username}`,
  );
  if (dateOfBirth)
    await ok(await api.put("/api/user/date-of-birth", { data: { dateOfBirth: ADULT_DATE_OF_BIRTH } }), `date of birth ${username}`);
  return { id: user.id, username, email, password: PASSWORD, api };
}

/** Puts the account's session cookie into a browser context: its pages are signed in. */
export async function signIn(context: BrowserContext, account: Account): Promise<void> {
  const { cookies } = await account.api.storageState();
  await context.addCookies(cookies);
}

/**
 * Adds money the way the checkout page does, through the real sandbox endpoints: a
 * PaymentIntent, the success card, then the deposit confirmation that credits the ledger.
 */
export async function depositSandbox(account: Account, usd: number): Promise<void> {
  const intent = await ok<{ clientSecret: string; paymentIntentId: string }>(
    // One key per checkout visit, as the page sends it.
    await account.api.post("/api/create-payment-intent", { data: { amount: usd }, headers: { "Idempotency-Key": crypto.randomUUID() } }),
    "create-payment-intent",
  );
  const [month, year] = futureExpiry().split("/");
  await ok(
    await account.api.post("/api/sandbox/confirm-payment", {
      data: { clientSecret: intent.clientSecret, cardNumber: CARDS.success, expMonth: month, expYear: year, cvc: "123" },
    }),
    "sandbox confirm-payment",
  );
  await ok(
    await account.api.post("/api/deposit/confirm", { data: { paymentIntentId: intent.paymentIntentId, amount: usd } }),
    "deposit confirm",
  );
}

export interface JourneyIdentity {
  firstName: string;
  lastName: string;
  dateOfBirth?: string;
  /** Default: a fresh one, so every journey's player is a distinct person. */
  documentNumber?: string;
  documentCountry?: string;
}

export const freshDocumentNumber = () => `J${crypto.randomUUID().replace(/-/g, "").slice(0, 12).toUpperCase()}`;

/** Verifies the account's identity through the sandbox's endpoints, as its page does (docs/identity-and-tax.md). */
export async function verifyIdentityByApi(account: Account, identity: JourneyIdentity = { firstName: "Ada", lastName: "Lovelace" }) {
  const session = await ok<{ sessionId: string }>(await account.api.post("/api/identity/session"), "identity session");
  const state = await ok<{ state: string }>(
    await account.api.post("/api/identity/sandbox/complete", {
      data: {
        outcome: "verified",
        sessionId: session.sessionId,
        firstName: identity.firstName,
        lastName: identity.lastName,
        dateOfBirth: identity.dateOfBirth ?? ADULT_DATE_OF_BIRTH,
        documentNumber: identity.documentNumber ?? freshDocumentNumber(),
        documentCountry: identity.documentCountry ?? "US",
      },
    }),
    "identity sandbox complete",
  );
  expect(state.state).toBe("verified");
}

/** Verifies the signed-in player's identity in the browser: the profile's Identity tab, then the sandbox's page. */
export async function verifyIdentityInSandbox(page: Page, identity: JourneyIdentity) {
  await page.goto("/profile?tab=identity");
  await expect(page.getByTestId("identity-state")).toHaveText("Not started");
  await page.getByRole("button", { name: "Verify my identity" }).click();
  await expect(page).toHaveURL(/\/identity\/sandbox\?session=vs_sbx_/);
  const form = page.getByRole("form", { name: "Sandbox identity check" });
  await form.getByLabel("Legal first name (and middle names)").fill(identity.firstName);
  await form.getByLabel("Legal last name").fill(identity.lastName);
  await form.getByLabel("Date of birth (YYYY-MM-DD)").fill(identity.dateOfBirth ?? ADULT_DATE_OF_BIRTH);
  await form.getByLabel("Document number").fill(identity.documentNumber ?? freshDocumentNumber());
  await form.getByLabel("Issuing country (2 letters)").fill(identity.documentCountry ?? "US");
  await form.getByRole("button", { name: "Submit" }).click();
  await expect(page).toHaveURL(/\/profile\?tab=identity$/);
  await expect(page.getByTestId("identity-state")).toHaveText("Verified");
}

export const getUser = async (account: Account) => ok<User>(await account.api.get("/api/user"), "GET /api/user");
export const getTransactions = async (account: Account) =>
  ok<Transaction[]>(await account.api.get("/api/user/transactions"), "GET /api/user/transactions");

export async function joinByApi(account: Account, tournamentId: number): Promise<void> {
  await ok(await account.api.post(`/api/tournaments/${tournamentId}/join`), `join ${tournamentId} as ${account.username}`);
}

/** Finishes the player without answering (what is unanswered counts as timed out). */
export async function completeByApi(account: Account, tournamentId: number): Promise<void> {
  await ok(await account.api.post(`/api/tournaments/${tournamentId}/complete`), `complete ${tournamentId} as ${account.username}`);
}

/** An operator account and its authenticator's secret, for journeys that sign in through /auth. */
export interface Operator extends Account {
  totpSecret: string;
}

/**
 * A new operator: an account made admin with the project's own command against the e2e
 * database (`npm run admin:grant -- <name> --persist-to DIR`), with two-factor authentication on.
 * `baseURL` and `persistTo`: a journey's own server and its state, instead of the journeys' server.
 */
export async function newOperator(
  prefix = "operator",
  { keep = false, baseURL = E2E_BASE_URL, persistTo = E2E_PERSIST_TO }: { keep?: boolean; baseURL?: string; persistTo?: string } = {},
): Promise<Operator> {
  const account = await createAccount(prefix, { keep, baseURL });
  execFileSync("npm", ["run", "-s", "admin:grant", "--", account.username, "--persist-to", persistTo], { stdio: "pipe" });
  const totpSecret = await enableTwoFactor(account);
  const user = await getUser(account);
  expect([user.role, user.twoFactorEnabled]).toEqual(["admin", true]);
  return { ...account, totpSecret };
}

/**
 * A new Elite player (level 10, 9,400 XP), who may create custom tournaments: the account is made
 * through the API and its XP written into the e2e database with wrangler, as admin:grant writes
 * the operator role (reaching level 10 by play would take ten hours of tournaments).
 */
export async function newElitePlayer(prefix = "elite"): Promise<Account> {
  const account = await createAccount(prefix);
  // Registration allows only [A-Za-z0-9_.-] in a name, so it can sit in the SQL as a literal.
  const sql = `UPDATE users SET experience_points = 9400, level = 10 WHERE username = '${account.username}'`;
  execFileSync("npx", ["wrangler", "d1", "execute", "DB", "--local", "--persist-to", E2E_PERSIST_TO, "--command", sql], { stdio: "pipe" });
  expect((await getUser(account)).level).toBe(10);
  return account;
}

/** The operator who creates the journeys' tournaments: one per worker process. */
let operatorPromise: Promise<Operator> | undefined;
export function operator(): Promise<Operator> {
  operatorPromise ??= newOperator("operator", { keep: true });
  return operatorPromise;
}

/** The last time step whose code each secret gave: a code is accepted once (docs/decisions/002). */
const usedSteps = new Map<string, number>();

/**
 * A code of the secret's that has not been used yet: the current step's, else the next one's (the
 * server accepts one step either side), waiting for the clock to move on when both were used (at
 * most 30 s).
 */
export async function freshTotp(secret: string): Promise<string> {
  const last = usedSteps.get(secret) ?? -1;
  let now = Math.floor(Date.now() / 30_000);
  if (last > now) {
    await new Promise((r) => setTimeout(r, last * 30_000 - Date.now() + 200));
    now = Math.floor(Date.now() / 30_000);
  }
  const step = last < now ? now : now + 1;
  usedSteps.set(secret, step);
  return totpNow(secret, step * 30_000);
}

/**
 * Sends an operator's request over the API; an operator's state-changing request needs a recent
 * step-up (docs/operating.md), so one refused with step_up_required confirms the password and a
 * code, as the console's dialog does, and is sent once more. An operator's session also ends after
 * 30 idle minutes: then it signs in again first.
 */
export async function asOperator(op: Operator, send: () => Promise<APIResponse>): Promise<APIResponse> {
  let res = await send();
  if (res.status() === 401) {
    await ok(
      await op.api.post("/api/login", { data: { username: op.username, password: op.password, totpCode: await freshTotp(op.totpSecret) } }),
      "operator sign-in",
    );
    res = await send();
  }
  if (res.status() !== 403 || !(await res.text()).includes('"step_up_required"')) return res;
  await ok(
    await op.api.post("/api/auth/step-up", { data: { password: op.password, totpCode: await freshTotp(op.totpSecret) } }),
    "operator step-up",
  );
  return send();
}

/** The current RFC 6238 code (SHA-1, 6 digits, 30 s) of a base32 secret, as an authenticator app shows it. */
export function totpNow(secret: string, timeMs = Date.now()): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
  let bits = "";
  for (const ch of secret) bits += alphabet.indexOf(ch).toString(2).padStart(5, "0");
  const key = Buffer.from((bits.match(/.{8}/g) ?? []).map((b) => parseInt(b, 2)));
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(timeMs / 30_000)));
  const mac = createHmac("sha1", key).update(counter).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, "0");
}

/**
 * Turns on two-factor authentication as a person does on the profile page, over the API:
 * confirm the password (step-up), start the setup, confirm with a code. Returns the secret.
 */
export async function enableTwoFactor(account: Account): Promise<string> {
  await ok(await account.api.post("/api/auth/step-up", { data: { password: account.password } }), "step-up");
  const { secret } = await ok<{ secret: string }>(await account.api.post("/api/user/2fa/setup"), "2fa setup");
  await ok(await account.api.post("/api/user/2fa/enable", { data: { code: await freshTotp(secret) } }), "2fa enable");
  return secret;
}

export type NewTournament = Partial<Omit<CreateTournamentInput, "startTime">> & { startsInMs?: number };

/**
 * A tournament made through POST /api/admin/tournaments (defaults: free, in an hour, General
 * Knowledge), by the journeys' operator unless `by` names another (one of a journey's own server).
 */
export async function createTournament(o: NewTournament = {}, by?: Operator): Promise<Tournament> {
  const admin = by ?? (await operator());
  const { startsInMs = 60 * 60_000, ...fields } = o;
  const body: CreateTournamentInput = {
    title: `E2E Cup ${uniqueName("t")}`,
    description: "Made for a browser journey.",
    categoryId: 1,
    entryFee: 0,
    maxParticipants: null,
    minLevel: 1,
    isFree: true,
    ...fields,
    startTime: new Date(Date.now() + startsInMs).toISOString(),
  };
  const res = await asOperator(admin, () => admin.api.post("/api/admin/tournaments", { data: body }));
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as Tournament;
}

/**
 * Opens the local outbox page (`npm start` keeps mail there instead of sending it) and follows
 * the link in the newest mail to `email` with this subject. Mail is written just after the
 * request that sends it has answered, so the page is reloaded until it is there.
 */
export async function followMailLink(page: Page, email: string, subject: string) {
  const mail = page
    .getByRole("list", { name: "Mails" })
    .getByRole("listitem", { name: `${subject} to ${email}`, exact: true })
    .first();
  await expect(async () => {
    await page.goto("/dev/outbox");
    await expect(mail).toBeVisible({ timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await mail.getByRole("link").first().click();
}

/** The toasts (sonner's region); at most one is visible at a time. */
export const toasts = (page: Page) => page.getByRole("region", { name: /^Notifications/ });

/** A toast with this title, and the description when given. */
export async function expectToast(page: Page, title: string, description?: string, timeout?: number) {
  const toast = toasts(page).getByRole("listitem").filter({ hasText: title });
  await expect(toast.first()).toBeVisible(timeout === undefined ? undefined : { timeout });
  if (description !== undefined) await expect(toast.first()).toContainText(description);
}

/** The dashboard wallet card's balance ("$25.00"), the one dollar heading on the page. */
export const walletBalance = (page: Page) => page.getByRole("heading", { name: /^\$\d[\d,]*\.\d{2}$/ });

/** The dashboard's Transaction History rows, newest first. */
export const transactionRows = (page: Page) => page.getByRole("list", { name: "Transactions" }).getByRole("listitem");

export const isMobile = (testInfo: TestInfo) => testInfo.project.name === "mobile";

/** A header link, opening the phone-width menu first when the links sit behind it. */
export async function headerLink(page: Page, name: string) {
  const menu = page.getByRole("button", { name: "Open menu" });
  if (await menu.isVisible()) await menu.click();
  return page.getByRole("banner").getByRole("link", { name, exact: true });
}

// ---- Console log on failure ----

/**
 * The browser's own line for every 4xx/5xx answer. Journeys provoke refusals on purpose (a wrong
 * password, a declined card); the app shows those to the person, so they are not errors of the page.
 */
const BROWSER_RESOURCE_ERROR = /^Failed to load resource: the server responded with a status of \d{3}/;

/** A console error a journey provokes on purpose and lets through, with when the page logged it. */
export interface AllowedConsoleError {
  at: number;
  line: string;
}

class ConsoleLog {
  readonly lines: string[] = [];
  /** console.error calls and uncaught exceptions of the page: each fails the test. */
  readonly errors: string[] = [];
  /** Errors matching the test's `consoleErrorAllowed`: kept here for the journey to check, not failed. */
  readonly allowed: AllowedConsoleError[] = [];
  #pages = 0;

  constructor(readonly allow: RegExp | null = null) {}

  watch(context: BrowserContext, label: string) {
    const attach = (page: Page) => {
      const name = `${label}#${++this.#pages}`;
      page.on("console", (m) => {
        const at = Date.now();
        const line = `${new Date(at).toISOString()} [${name}] ${m.type()}: ${m.text()}`;
        this.lines.push(line);
        if (m.type() !== "error" || BROWSER_RESOURCE_ERROR.test(m.text())) return;
        if (this.allow?.test(m.text())) this.allowed.push({ at, line });
        else this.errors.push(line);
      });
      page.on("pageerror", (e) => {
        const line = `${new Date().toISOString()} [${name}] pageerror: ${e.stack ?? e.message}`;
        this.lines.push(line);
        this.errors.push(line);
      });
      page.on("requestfailed", (r) =>
        this.lines.push(`${new Date().toISOString()} [${name}] requestfailed: ${r.method()} ${r.url()} ${r.failure()?.errorText ?? ""}`),
      );
    };
    context.pages().forEach(attach);
    context.on("page", attach);
  }
}

interface Fixtures {
  /**
   * The console errors this test provokes on purpose and lets through (`test.use({ consoleErrorAllowed:
   * /.../ })` in its file, with why): none unless a test says so. They are collected in
   * `consoleLog.allowed`, for the test to check when they happened.
   */
  consoleErrorAllowed: RegExp | null;
  /** Disposes the API clients of the accounts the test made. */
  apiClients: void;
  /** Collects every page's console; saved to test-results/ and attached when the test fails, which a console error makes it. */
  consoleLog: ConsoleLog;
  /** Another browser (its own cookies), for journeys with more than one player. */
  newPlayerContext: (label: string, options?: BrowserContextOptions) => Promise<BrowserContext>;
}

export const test = base.extend<Fixtures>({
  consoleErrorAllowed: [null, { option: true }],

  apiClients: [
    // Playwright reads a fixture's dependencies from this destructuring; this one has none.
    // eslint-disable-next-line no-empty-pattern
    async ({}, use) => {
      await use();
      for (const api of openApis.splice(0)) await api.dispose();
    },
    { auto: true },
  ],

  consoleLog: [
    async ({ context, consoleErrorAllowed }, use, testInfo) => {
      const log = new ConsoleLog(consoleErrorAllowed);
      log.watch(context, "page");
      await use(log);
      // An error in the page fails a journey that otherwise passed (its log is attached below).
      if (testInfo.status === testInfo.expectedStatus && log.errors.length > 0) testInfo.status = "failed";
      if (testInfo.status !== testInfo.expectedStatus) {
        const path = testInfo.outputPath("console.log");
        const text = log.lines.length > 0 ? `${log.lines.join("\n")}\n` : "(no console output)\n";
        writeFileSync(path, text);
        await testInfo.attach("console.log", { body: text, contentType: "text/plain" });
      }
      expect(log.errors, "console errors in the page").toEqual([]);
    },
    { auto: true },
  ],

  newPlayerContext: async ({ browser, consoleLog }, use) => {
    const made: BrowserContext[] = [];
    await use(async (label, options) => {
      // Contexts made in a test get the project's options (viewport, baseURL); Playwright also
      // screenshots their pages when the test fails.
      const context = await browser.newContext(options);
      consoleLog.watch(context, label);
      made.push(context);
      return context;
    });
    for (const context of made) await context.close();
  },
});

const statusOf = async (player: Account, id: number) =>
  ((await (await player.api.get(`/api/tournaments/${id}`)).json()) as TournamentDetail).status;

/** Plays a free $20 house-funded tournament alone: one answer after a person's few seconds, then finish; first place wins 65%, $13.00. */
export async function winHousePrize(player: Account): Promise<void> {
  const t = await createTournament({ title: `Prize Cup ${uniqueName("w")}`, prizePool: 20, startsInMs: 15_000 });
  await joinByApi(player, t.id);
  await expect.poll(() => statusOf(player, t.id), { timeout: 90_000, intervals: [1_000] }).toBe("live");
  const next = await player.api.post(`/api/tournaments/${t.id}/next`);
  expect(next.ok(), await next.text()).toBe(true);
  const q = (await next.json()) as PlayerQuestion;
  await new Promise((r) => setTimeout(r, 3_000));
  expect((await player.api.post(`/api/tournaments/${t.id}/answer`, { data: { questionId: q.id, answer: q.options[0] } })).ok()).toBe(true);
  expect((await player.api.post(`/api/tournaments/${t.id}/complete`)).ok()).toBe(true);
  await expect.poll(() => statusOf(player, t.id), { timeout: 60_000, intervals: [1_000] }).toBe("completed");
}
