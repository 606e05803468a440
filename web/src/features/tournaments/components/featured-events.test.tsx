import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import type { FeaturedEvent } from "@common/api/featured";
import { FEATURED } from "@common/messages";
import { fakeFetch } from "@/test/fake-fetch";
import { renderPage, testUser } from "@/test/render-page";
import { formatStart } from "../display";
import { FeaturedEvents, FeaturedPanel } from "./featured-events";

const DAY = 24 * 60 * 60 * 1000;
const start = new Date(Date.now() + 9 * DAY).toISOString();
const opens = new Date(Date.now() + 6 * DAY).toISOString();

const event = (o: Partial<FeaturedEvent["registration"]> = {}, fee = 20): FeaturedEvent => ({
  id: 7,
  title: "New Year Championship",
  description: "The year's big one.",
  categoryId: 1,
  categoryName: "General Knowledge",
  entryFee: fee,
  prizePool: fee > 0 ? 0 : 250,
  maxParticipants: 500,
  currentParticipants: 0,
  minLevel: 1,
  startTime: start,
  endTime: null,
  status: "upcoming",
  imageUrl: null,
  isFree: fee === 0,
  kind: "standard",
  format: "live_show",
  createdAt: "2026-01-01T00:00:00.000Z",
  registration: {
    announcedAt: "2026-01-01T00:00:00.000Z",
    opensAt: opens,
    opensForYouAt: opens,
    priority: false,
    open: false,
    reminderSet: false,
    ...o,
  },
});

const show = (user: ReturnType<typeof testUser> | null = testUser()) =>
  renderPage([{ path: "/", element: <FeaturedEvents /> }], { at: "/", user });

describe("Featured events", () => {
  it("shows each coming featured event with its start, fee, prize and when registration opens for the viewer", async () => {
    fakeFetch({ "GET /api/tournaments/featured": () => ({ body: [event()] }) });
    show();
    const section = await screen.findByRole("region", { name: FEATURED.title });
    expect(within(section).getByRole("link", { name: "New Year Championship" })).toHaveAttribute("href", "/tournaments/7");
    expect(within(section).getByText(formatStart(start))).toBeVisible();
    expect(within(section).getByText("$20.00")).toBeVisible();
    expect(within(section).getByText("85% of entry fees")).toBeVisible();
    expect(within(section).getByText(FEATURED.opensForYou(formatStart(opens)))).toBeVisible();
    expect(within(section).queryByText(FEATURED.priority)).toBeNull();
  });

  it("tells an Advanced player that registration opens for them 24 h early", async () => {
    const early = new Date(Date.parse(opens) - DAY).toISOString();
    fakeFetch({ "GET /api/tournaments/featured": () => ({ body: [event({ priority: true, opensForYouAt: early }, 0)] }) });
    show(testUser({ level: 6 }));
    expect(await screen.findByText(FEATURED.priority)).toBeVisible();
    expect(screen.getByText(FEATURED.opensForYou(formatStart(early)))).toBeVisible();
    expect(screen.getByText("$250.00")).toBeVisible();
  });

  it("Remind me sets the reminder, then shows it on and removes it", async () => {
    let set = false;
    const api = fakeFetch({
      "GET /api/tournaments/featured": () => ({ body: [event({ reminderSet: set })] }),
      "POST /api/tournaments/7/reminder": () => {
        set = true;
        return { body: { tournamentId: 7, reminderSet: true } };
      },
      "DELETE /api/tournaments/7/reminder": () => {
        set = false;
        return { body: { tournamentId: 7, reminderSet: false } };
      },
    });
    show();
    fireEvent.click(await screen.findByRole("button", { name: FEATURED.remindMe }));
    const on = await screen.findByRole("button", { name: FEATURED.reminderOn });
    expect(on).toHaveAttribute("aria-pressed", "true");
    expect(await screen.findByText(FEATURED.reminderSet)).toBeVisible();
    expect(api.calls("POST /api/tournaments/7/reminder")).toHaveLength(1);
    fireEvent.click(on);
    await waitFor(() => expect(api.calls("DELETE /api/tournaments/7/reminder")).toHaveLength(1));
    expect(await screen.findByRole("button", { name: FEATURED.remindMe })).toHaveAttribute("aria-pressed", "false");
  });

  it("sends a visitor to sign in and back", async () => {
    fakeFetch({ "GET /api/tournaments/featured": () => ({ body: [event()] }) });
    renderPage([{ path: "/tournaments", element: <FeaturedEvents /> }], { at: "/tournaments?category=4", user: null });
    const link = await screen.findByRole("link", { name: FEATURED.remindMe });
    expect(link).toHaveAttribute("href", "/auth?next=%2Ftournaments%3Fcategory%3D4");
    expect(screen.getByText(FEATURED.opens(formatStart(opens)))).toBeVisible();
  });

  it("shows nothing while there is no featured event", async () => {
    const api = fakeFetch({ "GET /api/tournaments/featured": () => ({ body: [] }) });
    show();
    await waitFor(() => expect(api.calls("GET /api/tournaments/featured")).toHaveLength(1));
    expect(screen.queryByRole("region", { name: FEATURED.title })).toBeNull();
  });

  it("the detail page's panel says when registration opens for the viewer and offers Remind me", async () => {
    fakeFetch({});
    const r = event({ priority: true, opensForYouAt: opens }).registration;
    renderPage([{ path: "/", element: <FeaturedPanel tournamentId={7} registration={r} /> }], { at: "/", user: testUser({ level: 7 }) });
    const panel = screen.getByRole("region", { name: FEATURED.title });
    expect(within(panel).getByText(FEATURED.priority)).toBeVisible();
    expect(within(panel).getByText(FEATURED.opensForYou(formatStart(opens)))).toBeVisible();
    expect(within(panel).getByRole("button", { name: FEATURED.remindMe })).toBeVisible();
  });
});
