import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { act, screen } from "@testing-library/react";
import { Tooltip } from "radix-ui";
import type { Tournament } from "@common/api/types";
import { FORMAT_LABEL } from "@common/messages";
import { countdownLabel } from "@/hooks/use-countdown";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage } from "@/test/render-page";
import { TournamentCard } from "./tournament-card";

const NOW = new Date("2026-03-01T12:00:00.000Z").getTime();

const tournament = (overrides: Partial<Tournament> = {}): Tournament => ({
  id: 5,
  title: "Tech Titans",
  description: "Chips, code and the people behind them.",
  categoryId: 2,
  categoryName: "Technology",
  entryFee: 10,
  prizePool: 0,
  maxParticipants: 50,
  currentParticipants: 20,
  minLevel: 1,
  startTime: new Date(NOW + 65_000).toISOString(),
  endTime: null,
  status: "upcoming",
  imageUrl: null,
  isFree: false,
  kind: "standard",
  format: "self_paced",
  createdAt: "2026-01-01T00:00:00.000Z",
  ...overrides,
});

const show = (t: Tournament) =>
  renderPage(
    [
      {
        path: "/",
        element: (
          <Tooltip.Provider>
            <TournamentCard tournament={t} />
          </Tooltip.Provider>
        ),
      },
    ],
    { at: "/" },
  );
const advance = (ms: number) => act(() => vi.advanceTimersByTimeAsync(ms));

describe("countdownLabel", () => {
  it.each([
    [3 * 86_400_000 + 5 * 3_600_000, "Starting in 3d 5h"],
    [2 * 3_600_000 + 15 * 60_000, "Starting in 2h 15m"],
    [12 * 60_000, "Starting in 12m"],
    [30_000, "Starting in 1m"],
    [0, "Starting now"],
    [-5_000, "Starting now"],
  ])("%d ms left reads %j", (ms, label) => {
    expect(countdownLabel(ms)).toBe(label);
  });
});

describe("tournament card countdown", () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: NOW });
    fakeFetch({ "GET /api/categories": () => ({ body: [] }) });
  });
  afterEach(() => vi.useRealTimers());

  it("refreshes every 10 s, then switches to Live Now with Play Now at the start", async () => {
    show(tournament());
    expect(screen.getByText("Starting in 2m")).toBeVisible();
    expect(screen.getByText("Upcoming")).toBeVisible();

    // 59.5 s left is "1m", but the card only redraws every 10 s.
    await advance(5_500);
    expect(screen.getByText("Starting in 2m")).toBeVisible();
    await advance(4_500);
    expect(screen.getByText("Starting in 1m")).toBeVisible();

    await advance(54_999);
    expect(screen.queryByText("Live Now")).not.toBeInTheDocument();
    await advance(1);
    expect(screen.getByText("Live Now")).toBeVisible();
    expect(screen.getByText("LIVE")).toBeVisible();
    expect(screen.getByRole("link", { name: "Play Now" })).toHaveAttribute("href", "/tournaments/5/play");
    expect(screen.queryByRole("button", { name: "Join Tournament" })).not.toBeInTheDocument();
  });

  it("stops offering Play Now once the end time has passed, before the list is fetched again", async () => {
    show(tournament({ status: "live", startTime: new Date(NOW - 60_000).toISOString(), endTime: new Date(NOW + 30_000).toISOString() }));
    expect(screen.getByRole("link", { name: "Play Now" })).toBeVisible();
    await advance(30_000);
    expect(screen.queryByRole("link", { name: "Play Now" })).not.toBeInTheDocument();
    expect(screen.queryByText("Live Now")).not.toBeInTheDocument();
    expect(screen.getByText("Time is up · results coming")).toBeVisible();
    expect(screen.getByRole("button", { name: "Tournament Ended" })).toBeDisabled();
  });

  it("keeps a paid tournament that is short of players waiting at its start", async () => {
    show(tournament({ currentParticipants: 7 }));
    await advance(65_000);
    expect(screen.getByText("Starting now")).toBeVisible();
    expect(screen.getByText(/waiting for 3 more players/)).toBeVisible();
    expect(screen.queryByText("Live Now")).not.toBeInTheDocument();
  });

  it("labels practice tournaments Start Practice Quiz", () => {
    show(tournament({ title: "Geography Practice", kind: "practice", isFree: true, entryFee: 0, maxParticipants: null, status: "live" }));
    expect(screen.getByRole("button", { name: "Start Practice Quiz" })).toBeEnabled();
    expect(screen.getByText("FREE Entry")).toBeVisible();
  });

  it("says how the tournament is played: a live show in the player's words, self-paced by name", () => {
    show(tournament({ id: 6, format: "live_show" }));
    expect(screen.getByText(FORMAT_LABEL.live_show.description)).toBeVisible();
    expect(screen.queryByText(FORMAT_LABEL.self_paced.title)).not.toBeInTheDocument();
    show(tournament({ id: 7 }));
    expect(screen.getByText(FORMAT_LABEL.self_paced.title)).toBeVisible();
  });

  it("shows the live prize pool of a paid tournament: players x fee x 0.85", () => {
    show(tournament({ entryFee: 10, currentParticipants: 20 }));
    expect(screen.getByText("$170.00")).toBeVisible();
    expect(screen.getAllByText("$10.00").length).toBeGreaterThan(0);
  });
});
