import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import type { AdminSessionView, PlayerDetail, PlayerLedgerPage, PlayerSummary, PlayerTermsRecord } from "@common/api/console-players";
import { TERMS_CONSOLE } from "@common/console-messages";
import type { IntegrityReport } from "@common/api/fair-play";
import { MODERATION } from "@common/messages";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage, testUser } from "@/test/render-page";
import PlayersScreen from "./players-screen";
import PlayerDetailScreen from "./player-detail-screen";

const OPERATOR = testUser({ role: "admin", twoFactorEnabled: true });

const SUMMARY: PlayerSummary = {
  id: 5,
  username: "speedy",
  email: "speedy@example.com",
  role: "player",
  balance: 25,
  createdAt: "2026-01-01T00:00:00.000Z",
  frozen: false,
  suspended: true,
  banned: false,
};

const DETAIL: PlayerDetail = {
  id: 5,
  username: "speedy",
  email: "speedy@example.com",
  emailVerified: true,
  role: "player",
  twoFactorEnabled: false,
  country: "DE",
  level: 3,
  tournamentsPlayed: 12,
  tournamentsWon: 2,
  createdAt: "2026-01-01T00:00:00.000Z",
  deleted: false,
  balance: 25,
  owed: 0,
  frozen: null,
  suspendedAt: null,
  bannedAt: null,
  note: null,
  responsiblePlay: {
    dateOfBirth: "1990-05-17",
    limits: [{ kind: "deposit_daily", amount: 50, pending: null, used: 10, left: 40 }],
    exclusion: { kind: "cool_off", startsAt: "2026-11-20T00:00:00.000Z", endsAt: "2026-11-27T00:00:00.000Z" },
  },
};

const LEDGER: PlayerLedgerPage = {
  entries: [
    {
      id: 1,
      userId: 5,
      amount: 12.5,
      type: "adjustment",
      status: "completed",
      reference: "adjustment:3",
      description: "Goodwill: room crashed",
      createdAt: "2026-11-20T00:00:00.000Z",
    },
  ],
  page: 1,
  pageSize: 25,
  total: 1,
};

const SESSIONS: AdminSessionView[] = [
  {
    id: "0123456789abcdef",
    createdAt: "2026-11-20T00:00:00.000Z",
    lastSeenAt: "2026-11-21T00:00:00.000Z",
    expiresAt: "2026-12-20T00:00:00.000Z",
  },
];

const INTEGRITY: IntegrityReport = { cheatAttempts: [], flagged: [] };

const TERMS: PlayerTermsRecord = {
  documents: [
    {
      id: "terms",
      title: "Terms of Service",
      version: "1.1",
      lastAccepted: { version: "1.0", acceptedAt: "2026-01-01T00:00:00.000Z" },
      acceptedInForce: false,
    },
    {
      id: "rules",
      title: "Official Contest Rules",
      version: "1.0",
      lastAccepted: { version: "1.0", acceptedAt: "2026-01-01T00:00:00.000Z" },
      acceptedInForce: true,
    },
    { id: "privacy", title: "Privacy Policy", version: "1.0", lastAccepted: null, acceptedInForce: false },
  ],
  history: [
    { document: "terms", title: "Terms of Service", version: "1.0", acceptedAt: "2026-01-01T00:00:00.000Z" },
    { document: "rules", title: "Official Contest Rules", version: "1.0", acceptedAt: "2026-01-01T00:00:00.000Z" },
  ],
};

describe("players screen", () => {
  it("searches by username or email and links each player to their file", async () => {
    const u = userEvent.setup();
    const fake = fakeFetch({ "GET /api/admin/users": () => ({ body: { players: [SUMMARY] } }) });
    renderPage([{ path: "/admin/players", element: <PlayersScreen /> }], { at: "/admin/players", user: OPERATOR });
    await u.type(screen.getByLabelText("Username or email"), "speed");
    await u.click(screen.getByRole("button", { name: "Search" }));
    const link = await screen.findByRole("link", { name: "speedy" });
    expect(link).toHaveAttribute("href", "/admin/players/5");
    expect(fake.calls("GET /api/admin/users").at(-1)!.query.get("q")).toBe("speed");
    expect(screen.getByText("Suspended")).toBeVisible();
  });
});

describe("player file", () => {
  function setup(overrides: Record<string, () => { status?: number; body?: unknown }> = {}) {
    const fake = fakeFetch({
      "GET /api/admin/users/5": () => ({ body: DETAIL }),
      "GET /api/admin/users/5/ledger": () => ({ body: LEDGER }),
      "GET /api/admin/users/5/sessions": () => ({ body: SESSIONS }),
      "GET /api/admin/users/5/integrity": () => ({ body: INTEGRITY }),
      "GET /api/admin/users/5/terms": () => ({ body: TERMS }),
      "DELETE /api/admin/users/5/sessions/0123456789abcdef": () => ({ body: { revoked: 1 } }),
      "DELETE /api/admin/users/5/sessions": () => ({ body: { revoked: 1 } }),
      "POST /api/admin/users/5/suspend": () => ({
        body: { userId: 5, suspendedAt: "2026-11-22T00:00:00.000Z", bannedAt: null, note: "x" },
      }),
      "POST /api/admin/users/5/adjustments": () => ({ status: 202, body: { approvalId: 3, status: "pending", summary: "Adjust" } }),
      ...overrides,
    });
    renderPage([{ path: "/admin/players/:id", element: <PlayerDetailScreen /> }], { at: "/admin/players/5", user: OPERATOR });
    return fake;
  }

  it("shows the profile, limits and exclusion, ledger and sessions", async () => {
    setup();
    expect(await screen.findByRole("heading", { name: "speedy" })).toBeVisible();
    const limits = screen.getByRole("region", { name: "Limits and exclusions" });
    expect(within(limits).getByText(/Cool-off/)).toBeVisible();
    expect(within(limits).getByText("$50.00")).toBeVisible();
    const ledger = screen.getByRole("region", { name: "Ledger" });
    expect(await within(ledger).findByText("Goodwill: room crashed")).toBeVisible();
    expect(within(ledger).getByText("Adjustment")).toBeVisible();
    const sessions = screen.getByRole("region", { name: "Sessions" });
    expect(await within(sessions).findByRole("button", { name: "Revoke session 0123456789abcdef" })).toBeVisible();
  });

  it("shows which version of each legal document the player accepted and when, and which must be accepted again", async () => {
    const u = userEvent.setup();
    setup();
    const section = await screen.findByRole("region", { name: TERMS_CONSOLE.title });
    const docs = await within(section).findByRole("list", { name: TERMS_CONSOLE.title });
    const [terms, rules, privacy] = within(docs).getAllByRole("listitem");
    const at = new Date("2026-01-01T00:00:00.000Z").toLocaleString();
    expect(terms).toHaveTextContent(`Terms of Service${TERMS_CONSOLE.accepted("1.0", at)} · ${TERMS_CONSOLE.inForce("1.1")}`);
    expect(terms).toHaveTextContent(TERMS_CONSOLE.outstanding);
    expect(rules).toHaveTextContent(TERMS_CONSOLE.accepted("1.0", at));
    expect(rules).toHaveTextContent(TERMS_CONSOLE.upToDate);
    expect(privacy).toHaveTextContent(TERMS_CONSOLE.notAccepted);
    expect(privacy).toHaveTextContent(TERMS_CONSOLE.outstanding);
    await u.click(within(section).getByText(TERMS_CONSOLE.history));
    expect(within(section).getByRole("list", { name: TERMS_CONSOLE.history })).toHaveTextContent(
      `Official Contest Rules: ${TERMS_CONSOLE.accepted("1.0", at)}`,
    );
  });

  it("revokes a session", async () => {
    const u = userEvent.setup();
    const fake = setup();
    await u.click(await screen.findByRole("button", { name: "Revoke session 0123456789abcdef" }));
    expect(fake.calls("DELETE /api/admin/users/5/sessions/0123456789abcdef")).toHaveLength(1);
    expect(await screen.findByText("1 session ended")).toBeVisible();
  });

  it("suspends with a note, and shows a refusal as its message", async () => {
    const u = userEvent.setup();
    const fake = setup({
      "POST /api/admin/users/5/suspend": () => ({ status: 403, body: { code: "cannot_moderate_self", message: MODERATION.notYourself } }),
    });
    await u.click(await screen.findByRole("button", { name: "Suspend" }));
    const dialog = await screen.findByRole("dialog");
    await u.type(within(dialog).getByLabelText("Note for operators"), "Chargebacks");
    await u.click(within(dialog).getByRole("button", { name: "Suspend" }));
    expect(fake.calls("POST /api/admin/users/5/suspend")[0]!.body).toEqual({ note: "Chargebacks" });
    expect(await screen.findByText(MODERATION.notYourself)).toBeVisible();
  });

  it("asks for an adjustment, which waits for a second operator", async () => {
    const u = userEvent.setup();
    const fake = setup();
    const form = await screen.findByRole("form", { name: "Balance adjustment" });
    await u.type(within(form).getByLabelText("Amount (USD, negative to debit)"), "-5.25");
    await u.type(within(form).getByLabelText("Reason (the player sees it)"), "Duplicate prize");
    await u.click(within(form).getByRole("button", { name: "Ask for approval" }));
    expect(fake.calls("POST /api/admin/users/5/adjustments")[0]!.body).toEqual({ amount: -5.25, reason: "Duplicate prize" });
    expect(await screen.findByText("Adjustment waits for a second operator's approval")).toBeVisible();
  });
});
