// Custom tournaments in the web app: the entry and the page locked below Elite, the create form's
// checks and what it sends, the invite link and code after creation, Cancel, and the invite page's
// join carrying the code.
import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { Category } from "@common/api/types";
import type { CustomTournament, InvitedTournament } from "@common/api/custom-tournaments";
import { CUSTOM } from "@common/messages";
import { IDEMPOTENCY_KEY_HEADER } from "@common/spec";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage, testUser } from "@/test/render-page";
import CustomTournamentsPage from "./custom-tournaments-page";
import InvitePage from "./invite-page";
import { CustomTournamentsEntry } from "./custom-entry";
import JoinByCodePage from "./join-by-code-page";

const CODE = "abcdefghijklmnopqrstuvwxyz";
const CATEGORIES: Category[] = [{ id: 4, slug: "history", name: "History", description: "", icon: "landmark", activeTournaments: 3 }];

const custom = (overrides: Partial<CustomTournament> = {}): CustomTournament => ({
  id: 41,
  title: "Friday quiz night",
  description: "A private History tournament",
  categoryId: 4,
  categoryName: "History",
  entryFee: 5,
  prizePool: 0,
  maxParticipants: 12,
  currentParticipants: 0,
  minLevel: 1,
  startTime: new Date(Date.now() + 86_400_000).toISOString(),
  endTime: null,
  status: "upcoming",
  imageUrl: null,
  isFree: false,
  kind: "standard",
  format: "live_show",
  createdAt: "2026-01-01T00:00:00.000Z",
  inviteCode: CODE,
  invitePath: `/t/${CODE}`,
  cancellable: true,
  ...overrides,
});

const elite = testUser({ level: 10, experiencePoints: 9400 });

describe("custom tournaments, locked", () => {
  it("says what unlocks them below level 10, on the tournaments page and on their own page, and offers no form", async () => {
    fakeFetch({ "GET /api/tournaments/custom": () => ({ body: [] }), "GET /api/categories": () => ({ body: CATEGORIES }) });
    renderPage([{ path: "/tournaments", element: <CustomTournamentsEntry /> }], { at: "/tournaments", user: testUser({ level: 9 }) });
    expect(screen.getByText(/Reach level 10 \(Elite\) to create custom tournaments/)).toBeTruthy();
    expect(screen.queryByRole("link", { name: /Create a custom tournament/ })).toBeNull();
    expect(screen.getByRole("link", { name: /Join with an invite code/ }).getAttribute("href")).toBe("/tournaments/join");
  });

  it("shows the locked reason instead of the form on the page", async () => {
    fakeFetch({ "GET /api/tournaments/custom": () => ({ body: [] }), "GET /api/categories": () => ({ body: CATEGORIES }) });
    renderPage([{ path: "/tournaments/custom", element: <CustomTournamentsPage /> }], {
      at: "/tournaments/custom",
      user: testUser({ level: 3 }),
    });
    expect(await screen.findByText(CUSTOM.locked(10))).toBeTruthy();
    expect(screen.queryByRole("form", { name: CUSTOM.createTitle })).toBeNull();
  });

  it("offers Create to an Elite player", () => {
    fakeFetch({});
    renderPage([{ path: "/tournaments", element: <CustomTournamentsEntry /> }], { at: "/tournaments", user: elite });
    expect(screen.getByRole("link", { name: /Create a custom tournament/ }).getAttribute("href")).toBe("/tournaments/custom");
  });
});

describe("creating one", () => {
  it("names what is wrong without sending, then sends the draft once with a key and shows the link, the code and Cancel", async () => {
    let mine: CustomTournament[] = [];
    const api = fakeFetch({
      "GET /api/categories": () => ({ body: CATEGORIES }),
      "GET /api/tournaments/custom": () => ({ body: mine }),
      "POST /api/tournaments/custom": () => {
        mine = [custom()];
        return { body: custom() };
      },
      "POST /api/tournaments/custom/41/cancel": () => {
        mine = [custom({ status: "cancelled", cancellable: false })];
        return { body: { tournamentId: 41, cancelled: true } };
      },
    });
    renderPage([{ path: "/tournaments/custom", element: <CustomTournamentsPage /> }], { at: "/tournaments/custom", user: elite });
    const form = await screen.findByRole("form", { name: CUSTOM.createTitle });
    await screen.findByRole("option", { name: "History" });

    fireEvent.change(within(form).getByLabelText("Seats (2-100)"), { target: { value: "101" } });
    fireEvent.click(within(form).getByRole("button", { name: "Create tournament" }));
    expect(await within(form).findByText(CUSTOM.titleLength)).toBeTruthy();
    expect(within(form).getByText(CUSTOM.categoryId)).toBeTruthy();
    expect(within(form).getByText(CUSTOM.seats(2, 100))).toBeTruthy();
    // A paid one needs room for the paid minimum.
    fireEvent.change(within(form).getByLabelText("Title"), { target: { value: "Friday quiz night" } });
    fireEvent.change(within(form).getByLabelText("Category"), { target: { value: "4" } });
    fireEvent.change(within(form).getByLabelText("Entry fee"), { target: { value: "500" } });
    fireEvent.change(within(form).getByLabelText("Seats (2-100)"), { target: { value: "5" } });
    fireEvent.click(within(form).getByRole("button", { name: "Create tournament" }));
    expect(await within(form).findByText(CUSTOM.paidSeats(10))).toBeTruthy();
    expect(api.calls("POST /api/tournaments/custom")).toHaveLength(0);

    fireEvent.change(within(form).getByLabelText("Seats (2-100)"), { target: { value: "12" } });
    fireEvent.click(within(form).getByRole("button", { name: "Create tournament" }));
    await waitFor(() => expect(api.calls("POST /api/tournaments/custom")).toHaveLength(1));
    const sent = api.calls("POST /api/tournaments/custom")[0]!;
    expect(sent.body).toMatchObject({ title: "Friday quiz night", categoryId: 4, seats: 12, entryFeeCents: 500, format: "live_show" });
    expect(sent.headers.get(IDEMPOTENCY_KEY_HEADER)).toMatch(/^[0-9a-f-]{36}$/);

    const invite = await screen.findByRole("region", { name: "Invite link" });
    expect(within(invite).getByTestId("invite-link").textContent).toBe(`${window.location.origin}/t/${CODE}`);
    expect(within(invite).getByTestId("invite-code").textContent).toBe(CODE);
    expect(within(invite).getByRole("button", { name: "Copy link" })).toBeTruthy();
    expect(within(invite).getByRole("button", { name: "Copy code" })).toBeTruthy();

    const list = await screen.findByRole("list", { name: "My custom tournaments" });
    fireEvent.click(await within(list).findByRole("button", { name: "Cancel tournament" }));
    await waitFor(() => expect(api.calls("POST /api/tournaments/custom/41/cancel")).toHaveLength(1));
    await waitFor(() => expect(within(list).queryByRole("button", { name: "Cancel tournament" })).toBeNull());
  });

  it("shows the server's refusal as it words it", async () => {
    fakeFetch({
      "GET /api/categories": () => ({ body: CATEGORIES }),
      "GET /api/tournaments/custom": () => ({ body: [] }),
      "POST /api/tournaments/custom": () => ({ status: 409, body: { code: "custom_limit_reached", message: CUSTOM.tooMany(5) } }),
    });
    renderPage([{ path: "/tournaments/custom", element: <CustomTournamentsPage /> }], { at: "/tournaments/custom", user: elite });
    const form = await screen.findByRole("form", { name: CUSTOM.createTitle });
    await screen.findByRole("option", { name: "History" });
    fireEvent.change(within(form).getByLabelText("Title"), { target: { value: "Friday quiz night" } });
    fireEvent.change(within(form).getByLabelText("Category"), { target: { value: "4" } });
    fireEvent.click(within(form).getByRole("button", { name: "Create tournament" }));
    expect(await within(form).findByText(CUSTOM.tooMany(5))).toBeTruthy();
  });
});

describe("the invite page", () => {
  it("shows the tournament the code opens and joins it with the code", async () => {
    const invited: InvitedTournament = {
      ...custom({ currentParticipants: 1, isFree: true, entryFee: 0 }),
      prizeSplit: [0, 0, 0],
      minPlayers: 0,
      joined: false,
      questionCount: 10,
      fairnessCommitment: "a".repeat(64),
      featured: null,
      cancellation: null,
      invitation: { inviteCode: null, invitePath: null },
      inviteCode: CODE,
    };
    const api = fakeFetch({
      [`GET /api/tournaments/invite/${CODE}`]: () => ({ body: invited }),
      "GET /api/config": () => ({ body: { turnstileSiteKey: null } }),
      "POST /api/tournaments/41/join": () => ({ body: { joined: true, balance: 50, tournament: invited } }),
    });
    renderPage([{ path: "/t/:code", element: <InvitePage /> }], { at: `/t/${CODE}`, user: testUser() });
    expect(await screen.findByRole("heading", { name: "Friday quiz night" })).toBeTruthy();
    expect(screen.getByText(CUSTOM.privateBadge)).toBeTruthy();
    fireEvent.click(screen.getByRole("button", { name: "Join Tournament" }));
    await waitFor(() => expect(api.calls("POST /api/tournaments/41/join")).toHaveLength(1));
    expect(api.calls("POST /api/tournaments/41/join")[0]!.body).toEqual({ inviteCode: CODE });
  });

  it("says when no tournament has the code", async () => {
    fakeFetch({
      [`GET /api/tournaments/invite/${CODE}`]: () => ({ status: 404, body: { code: "invite_not_found", message: CUSTOM.inviteNotFound } }),
    });
    renderPage([{ path: "/t/:code", element: <InvitePage /> }], { at: `/t/${CODE}`, user: testUser() });
    expect(await screen.findByText(CUSTOM.inviteNotFound)).toBeTruthy();
  });
});

describe("joining by code", () => {
  it("refuses what cannot be a code, and opens the invite page for a typed code or a pasted link", async () => {
    fakeFetch({});
    const page = renderPage([{ path: "/tournaments/join", element: <JoinByCodePage /> }], { at: "/tournaments/join", user: testUser() });
    const box = screen.getByLabelText("Invite code or link");
    fireEvent.change(box, { target: { value: "not-a-code" } });
    fireEvent.click(screen.getByRole("button", { name: "Find tournament" }));
    expect(await screen.findByText(CUSTOM.inviteCode)).toBeTruthy();
    expect(page.location()).toBe("/tournaments/join");
    fireEvent.change(box, { target: { value: ` https://trivia.example/t/${CODE.toUpperCase()} ` } });
    fireEvent.click(screen.getByRole("button", { name: "Find tournament" }));
    await waitFor(() => expect(page.location()).toBe(`/t/${CODE}`));
  });
});
