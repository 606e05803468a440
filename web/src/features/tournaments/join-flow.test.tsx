import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, fireEvent, screen, waitFor } from "@testing-library/react";
import { Tooltip } from "radix-ui";
import type { Tournament, User } from "@common/api/types";
import { FAIR_PLAY } from "@common/messages";
import { fakeFetch } from "@/test/fake-fetch";
import { fakeTurnstile, turnstileScript } from "@/test/fake-turnstile";
import { renderPage, testUser } from "@/test/render-page";
import { JoinButton } from "./components/join-button";
import { useJoinFlow } from "./use-join-flow";
import { USER_KEY } from "@/lib/session";
import { CONFIG_KEY } from "@/lib/config";

const tournament = (overrides: Partial<Tournament> = {}): Tournament => ({
  id: 42,
  title: "History Showdown",
  description: "Empires and revolutions.",
  categoryId: 4,
  categoryName: "History",
  entryFee: 5,
  prizePool: 0,
  maxParticipants: 50,
  currentParticipants: 12,
  minLevel: 1,
  startTime: new Date(Date.now() + 3_600_000).toISOString(),
  endTime: null,
  status: "upcoming",
  imageUrl: null,
  isFree: false,
  kind: "standard",
  format: "self_paced",
  createdAt: "2026-01-01T00:00:00.000Z",
  ...overrides,
});

/** Runs the join flow directly, so every client check can be reached (the real button hides some). */
function Harness({ t }: { t: Tournament }) {
  const flow = useJoinFlow();
  return (
    <button type="button" onClick={() => void flow.start(t)}>
      {flow.isPending ? "Joining..." : "Try to join"}
    </button>
  );
}

const at = (t: Tournament, user: User | null = testUser()) => renderPage([{ path: "/t", element: <Harness t={t} /> }], { at: "/t", user });

describe("joining a tournament: client checks in SPEC order", () => {
  let api: ReturnType<typeof fakeFetch>;
  beforeEach(() => {
    api = fakeFetch({
      "GET /api/categories": () => ({ body: [] }),
      "POST /api/tournaments/42/join": () => ({ body: { joined: true, balance: 45, tournament: tournament() } }),
    });
  });

  it("1. asks a signed-out visitor to log in, and calls nothing", async () => {
    at(tournament({ minLevel: 9, currentParticipants: 50 }), null);
    fireEvent.click(screen.getByRole("button", { name: "Try to join" }));
    expect(await screen.findByText("Authentication required")).toBeVisible();
    expect(screen.getByText("Please log in to join tournaments.")).toBeVisible();
    expect(api.calls("POST /api/tournaments/42/join")).toHaveLength(0);
  });

  it("2. refuses a level below the requirement before looking at capacity or balance", async () => {
    at(tournament({ minLevel: 3, currentParticipants: 50 }), testUser({ level: 2, balance: 0 }));
    fireEvent.click(screen.getByRole("button", { name: "Try to join" }));
    expect(await screen.findByText("Level requirement not met")).toBeVisible();
    expect(screen.getByText("You need to be level 3 to join this tournament.")).toBeVisible();
    expect(screen.queryByText("Tournament is full")).not.toBeInTheDocument();
    expect(api.calls("POST /api/tournaments/42/join")).toHaveLength(0);
  });

  it("counts a missing level as 0", async () => {
    at(tournament({ minLevel: 1 }), { ...testUser(), level: undefined as unknown as number });
    fireEvent.click(screen.getByRole("button", { name: "Try to join" }));
    expect(await screen.findByText("You need to be level 1 to join this tournament.")).toBeVisible();
  });

  it("skips the level gate for practice tournaments", async () => {
    at(
      tournament({ title: "Science Practice", kind: "practice", isFree: true, entryFee: 0, minLevel: 4, maxParticipants: null }),
      testUser({ level: 1 }),
    );
    fireEvent.click(screen.getByRole("button", { name: "Try to join" }));
    expect(await screen.findByText("Starting practice tournament")).toBeVisible();
    expect(api.calls("POST /api/tournaments/42/join")).toHaveLength(1);
  });

  it("starts practice in the player's own run, the tournament the server answers with", async () => {
    const practice = tournament({ title: "Science Practice", kind: "practice", isFree: true, entryFee: 0, maxParticipants: null });
    api = fakeFetch({
      "POST /api/tournaments/42/join": () => ({
        body: { joined: true, balance: 45, tournament: { ...practice, id: 77, kind: "practice_run" } },
      }),
    });
    const page = at(practice, testUser({ level: 1 }));
    fireEvent.click(screen.getByRole("button", { name: "Try to join" }));
    expect(await screen.findByText("Starting practice tournament")).toBeVisible();
    await vi.waitFor(() => expect(page.location()).toBe("/tournaments/77/play"));
  });

  it("3. refuses a full tournament before looking at the balance", async () => {
    at(tournament({ maxParticipants: 30, currentParticipants: 30 }), testUser({ balance: 0 }));
    fireEvent.click(screen.getByRole("button", { name: "Try to join" }));
    expect(await screen.findByText("Tournament is full")).toBeVisible();
    expect(screen.getByText("This tournament has reached its maximum number of participants.")).toBeVisible();
    expect(screen.queryByText("Insufficient balance")).not.toBeInTheDocument();
  });

  it("4. names the shortfall when the balance does not cover the fee", async () => {
    at(tournament({ entryFee: 5 }), testUser({ balance: 1.5 }));
    fireEvent.click(screen.getByRole("button", { name: "Try to join" }));
    expect(await screen.findByText("Insufficient balance")).toBeVisible();
    expect(screen.getByText("You need $3.50 more to join this tournament. Full entry fee: $5.00.")).toBeVisible();
    expect(api.calls("POST /api/tournaments/42/join")).toHaveLength(0);
  });

  it("lets a free tournament through with no balance", async () => {
    at(tournament({ entryFee: 0, isFree: true }), testUser({ balance: 0 }));
    fireEvent.click(screen.getByRole("button", { name: "Try to join" }));
    expect(await screen.findByText("Successfully joined tournament!")).toBeVisible();
  });

  it("says Failed to join tournament with the server's reason when the server refuses", async () => {
    api = fakeFetch({
      "POST /api/tournaments/42/join": () => ({
        status: 409,
        body: { code: "join_closed", message: "This tournament is no longer open for joining." },
      }),
    });
    at(tournament());
    fireEvent.click(screen.getByRole("button", { name: "Try to join" }));
    expect(await screen.findByText("Failed to join tournament")).toBeVisible();
    expect(screen.getByText("This tournament is no longer open for joining.")).toBeVisible();
    expect(screen.queryByText("Error joining tournament")).not.toBeInTheDocument();
  });

  it("never shows a refusal's raw text: a 4xx without a message of the server's asks to try again", async () => {
    api = fakeFetch({ "POST /api/tournaments/42/join": () => ({ status: 409, text: "<html>409 Conflict</html>" }) });
    at(tournament());
    fireEvent.click(screen.getByRole("button", { name: "Try to join" }));
    expect(await screen.findByText("Error joining tournament")).toBeVisible();
    expect(document.body.textContent).not.toMatch(/html|Conflict/);
  });

  it.each([
    ["an answer without a message", () => ({ status: 502 })],
    ["no answer at all", () => Promise.reject(new TypeError("Failed to fetch"))],
  ])("asks to try again after %s", async (_name, answer) => {
    api = fakeFetch({ "POST /api/tournaments/42/join": answer });
    at(tournament());
    fireEvent.click(screen.getByRole("button", { name: "Try to join" }));
    expect(await screen.findByText("Error joining tournament")).toBeVisible();
    expect(screen.getByText("Please try again")).toBeVisible();
    expect(document.body.textContent).not.toMatch(/502|Failed to fetch/);
  });
});

describe("joining a tournament: success", () => {
  afterEach(() => vi.useRealTimers());

  it("says Joining..., confirms, refreshes the balance and goes to the dashboard after 1 s", async () => {
    vi.useFakeTimers();
    let answer!: (v: { body: unknown }) => void;
    const api = fakeFetch({
      "POST /api/tournaments/42/join": () => new Promise((r) => (answer = r)),
    });
    const page = at(tournament(), testUser({ balance: 50 }));
    fireEvent.click(screen.getByRole("button", { name: "Try to join" }));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByRole("button", { name: "Joining..." })).toBeInTheDocument();
    expect(api.calls("POST /api/tournaments/42/join")).toHaveLength(1);

    answer({ body: { joined: true, balance: 45, tournament: tournament() } });
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByText("Successfully joined tournament!")).toBeInTheDocument();
    expect(screen.getByText("Taking you to your tournaments...")).toBeInTheDocument();
    expect(page.queryClient.getQueryData<{ balance: number }>(USER_KEY)?.balance).toBe(45);

    await act(() => vi.advanceTimersByTimeAsync(999));
    expect(page.location()).toBe("/t");
    await act(() => vi.advanceTimersByTimeAsync(1));
    expect(page.location()).toBe("/dashboard?tab=tournaments");
  });

  it("on the tournament's own page, says Joined tournament and keeps the player there", async () => {
    vi.useFakeTimers();
    fakeFetch({
      "GET /api/categories": () => ({ body: [] }),
      "POST /api/tournaments/42/join": () => ({ body: { joined: true, balance: 45, tournament: tournament() } }),
    });
    const page = renderPage([{ path: "/t", element: <JoinButton tournament={tournament()} stay /> }], {
      at: "/t",
      user: testUser({ balance: 50 }),
    });
    fireEvent.click(screen.getByRole("button", { name: "Join Tournament" }));
    await act(() => vi.advanceTimersByTimeAsync(0));
    expect(screen.getByText("Joined tournament")).toBeInTheDocument();
    expect(screen.getByText("You have been registered for this tournament.")).toBeInTheDocument();
    expect(screen.queryByText("Taking you to your tournaments...")).not.toBeInTheDocument();
    await act(() => vi.advanceTimersByTimeAsync(2000));
    expect(page.location()).toBe("/t");
  });
});

describe("the join button", () => {
  beforeEach(() => {
    fakeFetch({ "GET /api/categories": () => ({ body: [] }) });
  });
  const withTooltips = (t: Tournament, user = testUser()) =>
    renderPage(
      [
        {
          path: "/t",
          element: (
            <Tooltip.Provider delayDuration={0}>
              <JoinButton tournament={t} />
            </Tooltip.Provider>
          ),
        },
      ],
      { at: "/t", user },
    );

  it("is disabled below the level requirement and says why in a tooltip", async () => {
    withTooltips(tournament({ minLevel: 5 }), testUser({ level: 2 }));
    expect(screen.getByRole("button", { name: "Join Tournament" })).toBeDisabled();
    // The tooltip's code loads when a gated button first shows; its trigger carries data-state once it has.
    const trigger = await waitFor(() => {
      const wrapper = screen.getByRole("button", { name: "Join Tournament" }).parentElement!;
      expect(wrapper).toHaveAttribute("data-state");
      return wrapper;
    });
    fireEvent.focus(trigger);
    expect(await screen.findByRole("tooltip")).toHaveTextContent("You need to be level 5 to join this tournament.");
  });

  it("is not level-gated for practice, and says Start Practice Quiz", () => {
    withTooltips(
      tournament({ title: "Music Practice", kind: "practice", isFree: true, entryFee: 0, minLevel: 5, maxParticipants: null }),
      testUser({ level: 1 }),
    );
    expect(screen.getByRole("button", { name: "Start Practice Quiz" })).toBeEnabled();
  });

  it("is disabled once the tournament is over", () => {
    withTooltips(tournament({ status: "completed" }));
    expect(screen.getByRole("button", { name: "Tournament Ended" })).toBeDisabled();
  });
});

describe("the join button with the bot check", () => {
  afterEach(() => vi.unstubAllGlobals());
  const config = (turnstileSiteKey: string | null) => ({
    body: {
      paymentProvider: "sandbox",
      stripePublishableKey: null,
      minDeposit: 0.5,
      maxDeposit: 1000,
      supportEmail: null,
      turnstileSiteKey,
    },
  });
  const button = (t: Tournament, user = testUser()) =>
    renderPage([{ path: "/t", element: <JoinButton tournament={t} /> }], { at: "/t", user });
  const tokensSent = (api: ReturnType<typeof fakeFetch>) =>
    api.calls("POST /api/tournaments/42/join").map((r) => (r.body as { turnstileToken?: string }).turnstileToken);

  it("confirms a paid join in a dialog with Turnstile, sends its token and asks again after a refusal", async () => {
    const turnstile = fakeTurnstile();
    let refuse = true;
    const api = fakeFetch({
      "GET /api/config": () => config("site-key-1"),
      "POST /api/tournaments/42/join": () =>
        refuse
          ? { status: 403, body: { code: "bot_check_failed", message: FAIR_PLAY.botCheckFailed } }
          : { body: { joined: true, balance: 45, tournament: tournament() } },
    });
    const page = button(tournament());
    await vi.waitFor(() => expect(page.queryClient.getQueryData(CONFIG_KEY)).toBeDefined());
    fireEvent.click(screen.getByRole("button", { name: "Join Tournament" }));
    const dialog = await screen.findByRole("dialog");
    expect(dialog).toHaveTextContent("$5.00");
    await vi.waitFor(() => expect(turnstile.live()).toHaveLength(1));
    expect(turnstile.live()[0]!.options).toMatchObject({ sitekey: "site-key-1", action: "join" });
    expect(turnstileScript()).toBeNull();
    const confirm = screen.getByRole("button", { name: "Pay and join" });
    expect(confirm).toBeDisabled();

    turnstile.solve("token-1");
    expect(confirm).toBeEnabled();
    fireEvent.click(confirm);
    expect(await screen.findByText(FAIR_PLAY.botCheckFailed)).toBeVisible();
    expect(tokensSent(api)).toEqual(["token-1"]);
    expect(turnstile.api.reset).toHaveBeenCalledWith(turnstile.live()[0]!.id);
    expect(screen.getByRole("button", { name: "Pay and join" })).toBeDisabled();

    refuse = false;
    turnstile.solve("token-2");
    fireEvent.click(screen.getByRole("button", { name: "Pay and join" }));
    expect(await screen.findByText("Successfully joined tournament!")).toBeVisible();
    expect(tokensSent(api)).toEqual(["token-1", "token-2"]);
    await vi.waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
  });

  it("shows no dialog for a paid join when a client check already refuses it", async () => {
    const turnstile = fakeTurnstile();
    fakeFetch({ "GET /api/config": () => config("site-key-1") });
    const page = button(tournament({ entryFee: 100 }), testUser({ balance: 50 }));
    await vi.waitFor(() => expect(page.queryClient.getQueryData(CONFIG_KEY)).toBeDefined());
    fireEvent.click(screen.getByRole("button", { name: "Join Tournament" }));
    expect(await screen.findByText("Insufficient balance")).toBeVisible();
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(turnstile.api.render).not.toHaveBeenCalled();
  });

  it("joins a free tournament at once, without Turnstile, even when the check is on", async () => {
    const turnstile = fakeTurnstile();
    const api = fakeFetch({
      "GET /api/config": () => config("site-key-1"),
      "POST /api/tournaments/42/join": () => ({
        body: { joined: true, balance: 50, tournament: tournament({ isFree: true, entryFee: 0 }) },
      }),
    });
    const page = button(tournament({ isFree: true, entryFee: 0 }));
    await vi.waitFor(() => expect(page.queryClient.getQueryData(CONFIG_KEY)).toBeDefined());
    fireEvent.click(screen.getByRole("button", { name: "Join Tournament" }));
    expect(await screen.findByText("Successfully joined tournament!")).toBeVisible();
    expect(tokensSent(api)).toEqual([undefined]);
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(turnstile.api.render).not.toHaveBeenCalled();
  });

  it("joins a paid tournament at once, loading nothing of Turnstile, when the check is off", async () => {
    const api = fakeFetch({
      "GET /api/config": () => config(null),
      "POST /api/tournaments/42/join": () => ({ body: { joined: true, balance: 45, tournament: tournament() } }),
    });
    const page = button(tournament());
    await vi.waitFor(() => expect(page.queryClient.getQueryData(CONFIG_KEY)).toBeDefined());
    fireEvent.click(screen.getByRole("button", { name: "Join Tournament" }));
    expect(await screen.findByText("Successfully joined tournament!")).toBeVisible();
    expect(tokensSent(api)).toEqual([undefined]);
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(screen.queryByTestId("turnstile")).not.toBeInTheDocument();
    expect(turnstileScript()).toBeNull();
  });

  const keysSent = (api: ReturnType<typeof fakeFetch>) =>
    api.calls("POST /api/tournaments/42/join").map((r) => r.headers.get("Idempotency-Key"));

  it("keeps one Idempotency-Key per dialog opening: a retry in it resends the key, opening it again makes a new one", async () => {
    const turnstile = fakeTurnstile();
    const api = fakeFetch({
      "GET /api/config": () => config("site-key-1"),
      "POST /api/tournaments/42/join": () => Promise.reject(new TypeError("Failed to fetch")),
    });
    const page = button(tournament());
    await vi.waitFor(() => expect(page.queryClient.getQueryData(CONFIG_KEY)).toBeDefined());
    fireEvent.click(screen.getByRole("button", { name: "Join Tournament" }));
    await screen.findByRole("dialog");
    for (const token of ["token-1", "token-2"]) {
      turnstile.solve(token);
      fireEvent.click(screen.getByRole("button", { name: "Pay and join" }));
      await vi.waitFor(() => expect(screen.getByRole("button", { name: "Pay and join" })).toBeDisabled());
    }
    await vi.waitFor(() => expect(keysSent(api)).toHaveLength(2));
    fireEvent.click(screen.getByRole("button", { name: "Cancel" }));
    await vi.waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());

    fireEvent.click(screen.getByRole("button", { name: "Join Tournament" }));
    await screen.findByRole("dialog");
    turnstile.solve("token-3");
    fireEvent.click(screen.getByRole("button", { name: "Pay and join" }));
    await vi.waitFor(() => expect(keysSent(api)).toHaveLength(3));
    const [a, b, c] = keysSent(api);
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(b).toBe(a);
    expect(c).toMatch(/^[0-9a-f-]{36}$/);
    expect(c).not.toBe(a);
  });

  it("without a dialog, pressing Join again after a failure resends the key; a new page makes a new one", async () => {
    let fail = true;
    const api = fakeFetch({
      "GET /api/config": () => config(null),
      "POST /api/tournaments/42/join": () => (fail ? { status: 502 } : { body: { joined: true, balance: 45, tournament: tournament() } }),
    });
    const first = button(tournament());
    await vi.waitFor(() => expect(first.queryClient.getQueryData(CONFIG_KEY)).toBeDefined());
    fireEvent.click(screen.getByRole("button", { name: "Join Tournament" }));
    expect(await screen.findByText("Error joining tournament")).toBeVisible();
    fail = false;
    await vi.waitFor(() => expect(screen.getByRole("button", { name: "Join Tournament" })).toBeEnabled());
    fireEvent.click(screen.getByRole("button", { name: "Join Tournament" }));
    expect(await screen.findByText("Successfully joined tournament!")).toBeVisible();
    first.unmount();

    const second = button(tournament());
    await vi.waitFor(() => expect(second.queryClient.getQueryData(CONFIG_KEY)).toBeDefined());
    fireEvent.click(screen.getByRole("button", { name: "Join Tournament" }));
    await vi.waitFor(() => expect(keysSent(api)).toHaveLength(3));
    const [a, b, c] = keysSent(api);
    expect(a).toMatch(/^[0-9a-f-]{36}$/);
    expect(b).toBe(a);
    expect(c).not.toBe(a);
  });
});
