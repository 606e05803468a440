import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, cleanup, fireEvent, screen, waitFor, within } from "@testing-library/react";
import { Tooltip } from "radix-ui";
import type { TournamentDetail } from "@common/api/tournaments";
import { CUSTOM, FEATURED, FORMAT_LABEL } from "@common/messages";
import { fakeFetch } from "@/test/fake-fetch";
import { FakeWebSocket, fakeWebSockets } from "@/test/fake-websocket";
import { renderPage, testUser } from "@/test/render-page";
import { formatStart } from "../display";
import TournamentDetailPage from "./tournament-detail-page";

const detail = (overrides: Partial<TournamentDetail> = {}): TournamentDetail => ({
  id: 4,
  title: "History Showdown",
  description: "Empires, revolutions and explorers.",
  categoryId: 4,
  categoryName: "History",
  entryFee: 10,
  prizePool: 0,
  maxParticipants: 50,
  currentParticipants: 20,
  minLevel: 3,
  startTime: new Date(Date.now() + 3 * 3_600_000).toISOString(),
  endTime: null,
  status: "upcoming",
  imageUrl: null,
  isFree: false,
  kind: "standard",
  format: "self_paced",
  createdAt: "2026-01-01T00:00:00.000Z",
  prizeSplit: [110.5, 42.5, 17],
  minPlayers: 10,
  joined: false,
  questionCount: 10,
  fairnessCommitment: null,
  featured: null,
  cancellation: null,
  invitation: null,
  ...overrides,
});

function show(t: TournamentDetail | null, { at = "/tournaments/4", participants = [] as unknown[], leaderboard = [] as unknown[] } = {}) {
  fakeFetch({
    "GET /api/tournaments/4": () => (t ? { body: t } : { status: 404, body: { message: "Tournament not found" } }),
    "GET /api/tournaments/4/participants": () => ({ body: participants }),
    "GET /api/tournaments/4/leaderboard": () => ({ body: leaderboard }),
    "GET /api/categories": () => ({ body: [] }),
  });
  return renderPage(
    [
      {
        path: "/tournaments/:id",
        element: (
          <Tooltip.Provider>
            <TournamentDetailPage />
          </Tooltip.Provider>
        ),
      },
    ],
    { at, user: testUser({ level: 3, balance: 50 }) },
  );
}

beforeEach(() => {
  fakeWebSockets();
});

describe("tournament detail", () => {
  it("lets a registered player leave before the start, after confirming, and shows the refund", async () => {
    let joined = true;
    const api = fakeFetch({
      "GET /api/tournaments/4": () => ({ body: detail({ joined, entryFee: 5, currentParticipants: joined ? 21 : 20 }) }),
      "GET /api/tournaments/4/participants": () => ({ body: [] }),
      "GET /api/categories": () => ({ body: [] }),
      "POST /api/tournaments/4/leave": () => {
        joined = false;
        return {
          body: {
            message: "You have left the tournament. Your $5.00 entry fee is back in your balance.",
            balance: 55,
            tournament: detail(),
          },
        };
      },
    });
    renderPage(
      [
        {
          path: "/tournaments/:id",
          element: (
            <Tooltip.Provider>
              <TournamentDetailPage />
            </Tooltip.Provider>
          ),
        },
      ],
      { at: "/tournaments/4", user: testUser({ level: 3, balance: 50 }) },
    );
    fireEvent.click(await screen.findByRole("button", { name: "Leave tournament" }));
    const dialog = await screen.findByRole("dialog");
    expect(within(dialog).getByText(/Your \$5\.00 entry fee goes back to your balance/)).toBeVisible();
    fireEvent.click(within(dialog).getByRole("button", { name: "Leave tournament" }));
    expect(await screen.findByText("You have left the tournament. Your $5.00 entry fee is back in your balance.")).toBeVisible();
    expect(api.calls("POST /api/tournaments/4/leave")).toHaveLength(1);
    expect(await screen.findByRole("button", { name: "Join Tournament" })).toBeVisible();
  });

  it("offers no way to leave once the tournament is live", async () => {
    show(detail({ joined: true, status: "live", startTime: new Date(Date.now() - 60_000).toISOString() }));
    expect(await screen.findByText("You're registered for this tournament")).toBeVisible();
    expect(screen.queryByRole("button", { name: "Leave tournament" })).not.toBeInTheDocument();
  });

  it("joins from the status panel: Joined tournament, and the player stays on the page, registered", async () => {
    let joined = false;
    fakeFetch({
      "GET /api/tournaments/4": () => ({ body: detail({ joined, minLevel: 1, currentParticipants: joined ? 21 : 20 }) }),
      "GET /api/tournaments/4/participants": () => ({ body: [] }),
      "GET /api/categories": () => ({ body: [] }),
      "POST /api/tournaments/4/join": () => {
        joined = true;
        return { body: { joined: true, balance: 40, tournament: detail() } };
      },
    });
    const page = renderPage(
      [
        {
          path: "/tournaments/:id",
          element: (
            <Tooltip.Provider>
              <TournamentDetailPage />
            </Tooltip.Provider>
          ),
        },
      ],
      { at: "/tournaments/4", user: testUser({ level: 3, balance: 50 }) },
    );
    fireEvent.click(await screen.findByRole("button", { name: "Join Tournament" }));
    expect(await screen.findByText("You're registered for this tournament")).toBeVisible();
    expect(await screen.findByText("Joined tournament")).toBeInTheDocument();
    expect(screen.getByText("You have been registered for this tournament.")).toBeInTheDocument();
    await new Promise((r) => setTimeout(r, 1_200));
    expect(page.location()).toBe("/tournaments/4");
  });

  describe("a private custom tournament", () => {
    const CODE = "abcdefghijklmnopqrstuvwxyz";

    it("says it is private and by invitation; a player who joined sees no code to share", async () => {
      show(detail({ minLevel: 1, joined: true, invitation: { inviteCode: null, invitePath: null } }));
      const header = (await screen.findByRole("heading", { name: "History Showdown", level: 1 })).closest("header")!;
      expect(within(header).getByText(CUSTOM.privateBadge)).toBeVisible();
      expect(within(header).getByText(CUSTOM.privateBadge)).toHaveAttribute("title", CUSTOM.privateNote);
      expect(screen.queryByRole("region", { name: CUSTOM.yourInvite })).toBeNull();
      expect(screen.queryByTestId("invite-code")).toBeNull();
    });

    it("shows its creator the invite link and code to share", async () => {
      show(detail({ minLevel: 1, invitation: { inviteCode: CODE, invitePath: `/t/${CODE}` } }));
      const invite = await screen.findByRole("region", { name: CUSTOM.yourInvite });
      expect(within(invite).getByTestId("invite-link")).toHaveTextContent(`${window.location.origin}/t/${CODE}`);
      expect(within(invite).getByTestId("invite-code")).toHaveTextContent(CODE);
      expect(within(invite).getByRole("button", { name: "Copy link" })).toBeVisible();
      expect(screen.getByText(CUSTOM.privateBadge)).toBeVisible();
    });

    it("shows no private badge on a public tournament", async () => {
      show(detail());
      await screen.findByRole("heading", { name: "History Showdown", level: 1 });
      expect(screen.queryByText(CUSTOM.privateBadge)).toBeNull();
    });
  });

  describe("a featured event whose registration has not opened for the player", () => {
    const featured = (o: Partial<NonNullable<TournamentDetail["featured"]>> = {}) => ({
      announcedAt: new Date(Date.now() - 86_400_000).toISOString(),
      opensAt: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      opensForYouAt: new Date(Date.now() + 2 * 86_400_000).toISOString(),
      priority: false,
      open: false,
      reminderSet: false,
      ...o,
    });

    it("disables Join, says when it opens for them beside it and in its tooltip, and sends nothing", async () => {
      const r = featured();
      const api = fakeFetch({
        "GET /api/tournaments/4": () => ({ body: detail({ minLevel: 1, featured: r }) }),
        "GET /api/tournaments/4/participants": () => ({ body: [] }),
        "GET /api/categories": () => ({ body: [] }),
        "POST /api/tournaments/4/join": () => ({ status: 403, body: { code: "registration_not_open", message: "refused" } }),
      });
      renderPage(
        [
          {
            path: "/tournaments/:id",
            element: (
              <Tooltip.Provider>
                <TournamentDetailPage />
              </Tooltip.Provider>
            ),
          },
        ],
        { at: "/tournaments/4", user: testUser({ level: 3, balance: 50 }) },
      );
      const join = await screen.findByRole("button", { name: "Join Tournament" });
      expect(join).toBeDisabled();
      const text = FEATURED.registrationNotOpen(formatStart(r.opensForYouAt), false);
      expect(screen.getByText(text)).toBeVisible();
      // The same time as the featured panel at the top of the page.
      expect(
        within(screen.getByRole("region", { name: FEATURED.title })).getByText(FEATURED.opensForYou(formatStart(r.opensForYouAt))),
      ).toBeVisible();
      const trigger = await waitFor(() => {
        const wrapper = screen.getByRole("button", { name: "Join Tournament" }).parentElement!;
        expect(wrapper).toHaveAttribute("data-state");
        return wrapper;
      });
      fireEvent.focus(trigger);
      expect(await screen.findByRole("tooltip")).toHaveTextContent(text);
      fireEvent.click(join);
      expect(api.calls("POST /api/tournaments/4/join")).toHaveLength(0);
    });

    it("enables Join once it is open for them (priority access), and on its own when the opening time comes", async () => {
      show(detail({ minLevel: 1, featured: featured({ open: true, priority: true }) }));
      expect(await screen.findByRole("button", { name: "Join Tournament" })).toBeEnabled();
      cleanup();
      show(detail({ minLevel: 1, featured: featured({ opensForYouAt: new Date(Date.now() + 400).toISOString() }) }));
      expect(await screen.findByRole("button", { name: "Join Tournament" })).toBeDisabled();
      await waitFor(() => expect(screen.getByRole("button", { name: "Join Tournament" })).toBeEnabled(), { timeout: 2_000 });
    });
  });

  it.each([
    [
      "too few players, paid",
      { entryFee: 5, cancellation: { cause: "too_few_players", reason: null, refunded: true } },
      "Not enough players joined in time. Every entry fee has been refunded.",
    ],
    [
      "the operator, with the reason",
      { entryFee: 5, cancellation: { cause: "operator", reason: "A question leaked", refunded: true } },
      "Cancelled by the organisers: A question leaked. Every entry fee has been refunded.",
    ],
    [
      "the operator, a free tournament",
      { entryFee: 0, isFree: true, cancellation: { cause: "operator", reason: "Venue problem.", refunded: false } },
      "Cancelled by the organisers: Venue problem.",
    ],
  ] as const)("says why a tournament was cancelled: %s", async (_name, fields, text) => {
    show(detail({ status: "cancelled", startTime: new Date(Date.now() - 3_600_000).toISOString(), ...fields }));
    expect(await screen.findByRole("heading", { name: "Tournament Cancelled" })).toBeVisible();
    expect(screen.getByText(text)).toBeVisible();
    if (!fields.cancellation.refunded) expect(document.body.textContent).not.toMatch(/refunded/);
  });

  it("shows the not-found screen with a way back to the list", async () => {
    show(null);
    expect(await screen.findByRole("heading", { name: "Tournament Not Found" })).toBeVisible();
    expect(screen.getByText("The tournament you're looking for doesn't exist or has been removed.")).toBeVisible();
    expect(screen.getByRole("link", { name: "Browse Tournaments" })).toHaveAttribute("href", "/tournaments");
  });

  it("shows the header badges, the live prize pool with its split and the level requirement", async () => {
    show(detail());
    expect(await screen.findByRole("heading", { name: "History Showdown" })).toBeVisible();
    const header = screen.getByRole("banner");
    expect(within(header).getByText("$10.00")).toBeVisible();
    expect(within(header).getByText("Upcoming")).toBeVisible();
    // 20 players x $10 x 0.85 = $170, split 65/25/10.
    expect(screen.getByText("$170.00")).toBeVisible();
    expect(screen.getByText("$110.50")).toBeVisible();
    expect(screen.getByText("$42.50")).toBeVisible();
    expect(screen.getByText("$17.00")).toBeVisible();
    // Levels come from XP: level 3 is reached at 2,000 XP.
    expect(screen.getByText("Reach 2,000 XP (level 3)")).toBeVisible();
    // The same naming as the filter and learn-more: the minimum level with its tier.
    expect(screen.getByText("Level 3+ (Intermediate)")).toBeVisible();
    expect(screen.getByRole("progressbar", { name: "Places taken" })).toHaveAttribute("aria-valuenow", "40");
    expect(screen.getByText(/^Starting in 3h/)).toBeVisible();
    expect(screen.getByRole("heading", { name: "Waiting to Start" })).toBeVisible();
  });

  it("says how a live show is played, and opens its waiting room to a registered player", async () => {
    show(detail({ format: "live_show", joined: true }));
    expect(await screen.findByText(FORMAT_LABEL.live_show.description)).toBeVisible();
    expect(within(screen.getByRole("banner")).getByText(FORMAT_LABEL.live_show.title)).toBeVisible();
    expect(screen.getByRole("link", { name: "Enter the waiting room" })).toHaveAttribute("href", "/tournaments/4/play");
  });

  it("offers a live show in progress to watch, to someone who has not joined", async () => {
    show(detail({ format: "live_show", status: "live", startTime: new Date(Date.now() - 60_000).toISOString() }));
    expect(await screen.findByRole("link", { name: "Watch the live show" })).toHaveAttribute("href", "/tournaments/4/play");
  });

  it("describes a self-paced tournament's format", async () => {
    show(detail());
    expect(await screen.findByText(FORMAT_LABEL.self_paced.description)).toBeVisible();
    expect(screen.queryByRole("link", { name: "Enter the waiting room" })).not.toBeInTheDocument();
  });

  it("shows the waiting notice for an upcoming paid tournament under 10 players", async () => {
    show(detail({ currentParticipants: 6 }));
    expect(await screen.findByText("Waiting for 4 more players to start")).toBeVisible();
  });

  it("shows FREE Entry and no waiting notice for a free tournament", async () => {
    show(detail({ isFree: true, entryFee: 0, prizePool: 25, currentParticipants: 3, minPlayers: 0 }));
    const header = await screen.findByRole("banner");
    expect(within(header).getByText("FREE Entry")).toBeVisible();
    // A free tournament shows its stored (house-funded) pool.
    expect(screen.getByText("$25.00")).toBeVisible();
    expect(screen.queryByText(/more players to start/)).not.toBeInTheDocument();
  });

  it("has no Play tab before joining, and a disabled one until the tournament is live", async () => {
    show(detail());
    await screen.findByRole("heading", { name: "History Showdown" });
    expect(screen.queryByRole("tab", { name: "Play" })).not.toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Overview" })).toHaveAttribute("aria-selected", "true");

    show(detail({ joined: true }));
    expect(await screen.findByRole("tab", { name: "Play" })).toBeDisabled();
  });

  it("enables the Play tab for a joined player while live", async () => {
    show(detail({ joined: true, status: "live", startTime: new Date(Date.now() - 60_000).toISOString() }));
    const play = await screen.findByRole("tab", { name: "Play" });
    expect(play).toBeEnabled();
    expect(screen.getByText("LIVE")).toBeVisible();
  });

  it.each([
    ["Play Now", "/tournaments/4?play=true"],
    ["Play in full screen", "/tournaments/4/play"],
  ])("says Entering tournament when a joined player presses %s on a live tournament", async (name, to) => {
    const page = show(detail({ joined: true, status: "live", startTime: new Date(Date.now() - 60_000).toISOString() }));
    fireEvent.click(await screen.findByRole(name === "Play Now" ? "button" : "link", { name }));
    expect(await screen.findByText("Entering tournament")).toBeInTheDocument();
    expect(page.location()).toBe(to);
  });

  it("shows the empty states of the leaderboard and participants tabs", async () => {
    show(detail(), { at: "/tournaments/4?tab=leaderboard" });
    expect(await screen.findByRole("heading", { name: "No Leaderboard Data" })).toBeVisible();
    fireEvent.mouseDown(screen.getByRole("tab", { name: "Participants" }));
    fireEvent.click(screen.getByRole("tab", { name: "Participants" }));
    expect(await screen.findByRole("heading", { name: "No Participants Yet" })).toBeVisible();
  });

  it("shows the live standings from the tournament socket while it is played", async () => {
    show(detail({ status: "live", startTime: new Date(Date.now() - 60_000).toISOString() }), { at: "/tournaments/4?tab=leaderboard" });
    await screen.findByRole("heading", { name: "No Leaderboard Data" });
    const ws = FakeWebSocket.latest();
    expect(ws.url).toMatch(/\/api\/tournaments\/4\/ws$/);
    act(() => ws.open());
    const top = [{ userId: 1, username: "ana", level: 4, score: 900, questionsAnswered: 3, rank: 1, prize: 0 }];
    act(() => ws.receive({ type: "leaderboard", top, me: null, version: 5 }));
    expect(within(screen.getByRole("table")).getByRole("link", { name: "ana" })).toBeVisible();
    expect(FakeWebSocket.instances.filter((s) => s.readyState !== FakeWebSocket.CLOSED)).toEqual([ws]);
  });

  it("shows a hidden level as Level hidden in the participants and Hidden in the standings, never blank", async () => {
    const participants = [{ userId: 3, username: "shy_sam", level: null, hasCompleted: false }];
    const leaderboard = [{ userId: 3, username: "shy_sam", level: null, score: 900, questionsAnswered: 10, rank: 1, prize: 0 }];
    show(detail({ status: "completed", startTime: new Date(Date.now() - 3_600_000).toISOString() }), {
      at: "/tournaments/4?tab=leaderboard",
      leaderboard,
      participants,
    });
    const table = await screen.findByRole("table");
    expect(within(table).getByTitle("Level hidden")).toHaveTextContent("Hidden");
    fireEvent.mouseDown(screen.getByRole("tab", { name: "Participants" }));
    fireEvent.click(screen.getByRole("tab", { name: "Participants" }));
    expect(await screen.findByText("Level hidden")).toBeVisible();
    expect(screen.queryByText(/^Level\s*$/)).not.toBeInTheDocument();
  });

  it("lists the final standings with prizes and links to player profiles", async () => {
    const leaderboard = [
      { userId: 1, username: "ana", level: 4, score: 2300, questionsAnswered: 10, rank: 1, prize: 110.5 },
      { userId: 7, username: "quiz_master", level: 3, score: 1800, questionsAnswered: 10, rank: 2, prize: 42.5 },
    ];
    show(detail({ status: "completed", startTime: new Date(Date.now() - 3_600_000).toISOString() }), {
      at: "/tournaments/4?tab=leaderboard",
      leaderboard,
    });
    const table = await screen.findByRole("table");
    expect(within(table).getByRole("link", { name: "ana" })).toHaveAttribute("href", "/players/ana");
    expect(within(table).getAllByText("$110.50")).toHaveLength(1);
    expect(screen.getAllByText("Completed").length).toBeGreaterThan(0);
  });

  it("shows Tournament Not Live Yet for play=true before the start", async () => {
    show(detail({ joined: true }), { at: "/tournaments/4?play=true" });
    expect(await screen.findByRole("heading", { name: "Tournament Not Live Yet" })).toBeVisible();
  });

  it("shows No Questions Available for play=true when there are none", async () => {
    show(detail({ joined: true, status: "live", questionCount: 0 }), { at: "/tournaments/4?play=true" });
    expect(await screen.findByRole("heading", { name: "No Questions Available" })).toBeVisible();
  });
});

describe("tournament detail at the start time", () => {
  const NOW = new Date("2026-03-01T12:00:00.000Z").getTime();
  beforeEach(() => {
    // The clock still moves on its own, so the first fetch settles; the test moves it past the start.
    vi.useFakeTimers({ now: NOW, shouldAdvanceTime: true });
  });
  afterEach(() => vi.useRealTimers());

  it("switches a joined player's page to live with Play Now at zero, with no push from the server", async () => {
    const upcoming = detail({ joined: true, startTime: new Date(NOW + 65_000).toISOString() });
    const api = fakeFetch({
      // The server has not said anything new: the tournament still reads upcoming.
      "GET /api/tournaments/4": () => ({ body: upcoming }),
      "GET /api/tournaments/4/participants": () => ({ body: [] }),
      "GET /api/categories": () => ({ body: [] }),
    });
    renderPage(
      [
        {
          path: "/tournaments/:id",
          element: (
            <Tooltip.Provider>
              <TournamentDetailPage />
            </Tooltip.Provider>
          ),
        },
      ],
      { at: "/tournaments/4", user: testUser({ level: 3 }) },
    );
    expect(await screen.findByRole("heading", { name: "Waiting to Start" })).toBeVisible();
    expect(screen.queryByRole("button", { name: "Play Now" })).not.toBeInTheDocument();
    expect(screen.getByRole("tab", { name: "Play" })).toBeDisabled();
    expect(api.calls("GET /api/tournaments/4")).toHaveLength(1);

    await act(() => vi.advanceTimersByTimeAsync(65_000));
    expect(screen.getByRole("button", { name: "Play Now" })).toBeVisible();
    expect(screen.getByRole("tab", { name: "Play" })).toBeEnabled();
    expect(within(screen.getByRole("banner")).getByText("LIVE")).toBeVisible();
    expect(screen.getByText("Live now")).toBeVisible();
    expect(screen.queryByRole("heading", { name: "Waiting to Start" })).not.toBeInTheDocument();
    // Asked once at zero for the real status.
    await waitFor(() => expect(api.calls("GET /api/tournaments/4")).toHaveLength(2));
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(api.calls("GET /api/tournaments/4")).toHaveLength(2);
  });
});
