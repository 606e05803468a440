import { describe, expect, it } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { Tooltip } from "radix-ui";
import type { Category, Tournament } from "@common/api/types";
import type { TournamentPage } from "@common/api/tournaments";
import { SEARCH_DEBOUNCE_MS, TOURNAMENT_PAGE_SIZE } from "@common/spec";
import { deferred, fakeFetch, type FakeRequest } from "@/test/fake-fetch";
import { renderPage } from "@/test/render-page";
import TournamentsPage from "./tournaments-page";

const tournament = (id: number, title: string, overrides: Partial<Tournament> = {}): Tournament => ({
  id,
  title,
  description: `${title} description`,
  categoryId: 1,
  categoryName: "History",
  entryFee: 5,
  prizePool: 0,
  maxParticipants: 50,
  currentParticipants: 3,
  minLevel: 1,
  startTime: new Date(Date.now() + id * 3_600_000).toISOString(),
  endTime: null,
  status: "upcoming",
  imageUrl: null,
  isFree: false,
  kind: "standard",
  format: "self_paced",
  createdAt: "2026-01-01T00:00:00.000Z",
  ...overrides,
});

// More than one page; the one a search looks for is the last of them.
const ALL = [...Array.from({ length: 29 }, (_, i) => tournament(i + 1, `History Cup ${i + 1}`)), tournament(30, "Needle Night")];
const CATEGORIES: Category[] = [{ id: 4, slug: "history", name: "History", description: "", icon: "landmark", activeTournaments: 30 }];

/** The Worker's paging and text search over ALL; the other filters are only recorded. */
function serve(req: FakeRequest): TournamentPage {
  const q = (req.query.get("q") ?? "").toLowerCase();
  const rows = ALL.filter((t) => t.title.toLowerCase().includes(q));
  const page = Number(req.query.get("page") ?? 1);
  const pageSize = Number(req.query.get("pageSize") ?? TOURNAMENT_PAGE_SIZE);
  const items = rows.slice((page - 1) * pageSize, page * pageSize);
  return { items, total: rows.length, page, pageSize, nextPage: page * pageSize < rows.length ? page + 1 : null };
}

function show(
  list: (req: FakeRequest) => { body: TournamentPage } | Promise<{ body: TournamentPage }> = (req) => ({ body: serve(req) }),
  at = "/tournaments",
) {
  const api = fakeFetch({ "GET /api/tournaments": list, "GET /api/categories": () => ({ body: CATEGORIES }) });
  renderPage(
    [
      {
        path: "/tournaments",
        element: (
          <Tooltip.Provider>
            <TournamentsPage />
          </Tooltip.Provider>
        ),
      },
    ],
    { at },
  );
  const lists = () => api.calls("GET /api/tournaments");
  return { api, lists, last: () => lists().at(-1)!.query };
}

const cardTitles = () => screen.getAllByRole("heading", { level: 3 }).map((h) => h.textContent);

describe("tournaments page", () => {
  it("searches on the server once typing pauses, and finds a tournament beyond the first page", async () => {
    const { lists, last } = show();
    expect(await screen.findByText("History Cup 1")).toBeVisible();
    expect(cardTitles()).toHaveLength(TOURNAMENT_PAGE_SIZE);
    expect(screen.queryByText("Needle Night")).not.toBeInTheDocument();

    const box = screen.getByRole("searchbox", { name: "Search" });
    fireEvent.change(box, { target: { value: "nee" } });
    fireEvent.change(box, { target: { value: "NEEDLE" } });
    // Nothing is asked per keystroke.
    expect(lists().some((r) => r.query.has("q"))).toBe(false);
    await waitFor(() => expect(cardTitles()).toEqual(["Needle Night"]), { timeout: SEARCH_DEBOUNCE_MS + 1000 });
    expect(
      lists()
        .filter((r) => r.query.has("q"))
        .map((r) => r.query.get("q")),
    ).toEqual(["NEEDLE"]);
    expect(last().get("page")).toBe("1");
    expect(box).toHaveValue("NEEDLE");
  });

  it("pages through every result with Load more", async () => {
    const { last } = show();
    await screen.findByText("History Cup 1");
    expect(screen.getByText(`Showing ${TOURNAMENT_PAGE_SIZE} of 30 tournaments`)).toBeVisible();
    fireEvent.click(screen.getByRole("button", { name: "Load more" }));
    expect(await screen.findByText("Needle Night")).toBeVisible();
    expect(last().get("page")).toBe("2");
    expect(cardTitles()).toHaveLength(30);
    expect(new Set(cardTitles()).size).toBe(30);
    expect(screen.getByText("Showing 30 of 30 tournaments")).toBeVisible();
    expect(screen.queryByRole("button", { name: "Load more" })).not.toBeInTheDocument();
  });

  it("sends the filters and the tab to the server, with level tiers named as the levels are", async () => {
    const { last } = show();
    await screen.findByText("History Cup 1");

    const level = screen.getByRole("combobox", { name: "Level" });
    expect(
      within(level)
        .getAllByRole("option")
        .map((o) => o.textContent),
    ).toEqual(["All levels", "Beginner (levels 1-2)", "Intermediate (levels 3-5)", "Advanced (levels 6-9)", "Elite (levels 10+)"]);
    fireEvent.change(level, { target: { value: "intermediate" } });
    await waitFor(() => expect(last().get("minLevel")).toBe("3"));
    expect(last().get("maxLevel")).toBe("5");
    fireEvent.change(level, { target: { value: "elite" } });
    await waitFor(() => expect(last().get("minLevel")).toBe("10"));
    expect(last().has("maxLevel")).toBe(false);

    await screen.findByRole("option", { name: "History" });
    fireEvent.change(screen.getByRole("combobox", { name: "Category" }), { target: { value: "history" } });
    await waitFor(() => expect(last().get("category")).toBe("history"));
    fireEvent.change(screen.getByRole("combobox", { name: "Price" }), { target: { value: "free" } });
    await waitFor(() => expect(last().get("price")).toBe("free"));

    const liveTab = screen.getByRole("tab", { name: "Live Now" });
    fireEvent.mouseDown(liveTab);
    fireEvent.click(liveTab);
    await waitFor(() => expect(last().get("status")).toBe("live"));
    expect(Object.fromEntries(last())).toEqual({ category: "history", minLevel: "10", price: "free", status: "live", page: "1" });
    expect(screen.getByRole("combobox", { name: "Status" })).toHaveValue("live");
  });

  it("reads the filters from the address, so links to a category or price work", async () => {
    const { last } = show(undefined, "/tournaments?category=history&price=premium&status=upcoming&level=advanced&q=cup");
    await screen.findByText("History Cup 1");
    expect(Object.fromEntries(last())).toEqual({
      q: "cup",
      category: "history",
      minLevel: "6",
      maxLevel: "9",
      price: "premium",
      status: "upcoming",
      page: "1",
    });
    expect(screen.getByRole("searchbox", { name: "Search" })).toHaveValue("cup");
  });

  it("shows the empty state with Clear filters, which asks for everything again", async () => {
    const { last } = show(
      (req) => ({
        body: req.query.has("price") ? { items: [], total: 0, page: 1, pageSize: TOURNAMENT_PAGE_SIZE, nextPage: null } : serve(req),
      }),
      "/tournaments?price=free&q=zzz",
    );
    expect(await screen.findByText("No tournaments found matching your filters.")).toBeVisible();
    fireEvent.click(screen.getByRole("button", { name: "Clear filters" }));
    expect(await screen.findByText("History Cup 1")).toBeVisible();
    expect(Object.fromEntries(last())).toEqual({ page: "1" });
    expect(screen.getByRole("searchbox", { name: "Search" })).toHaveValue("");
  });

  it("says it is loading until the first page arrives", async () => {
    const pending = deferred<{ body: TournamentPage }>();
    show(() => pending.promise);
    expect(await screen.findByText("Loading tournaments...")).toBeVisible();
    pending.resolve({ body: { items: [ALL[0]!], total: 1, page: 1, pageSize: TOURNAMENT_PAGE_SIZE, nextPage: null } });
    expect(await screen.findByText("History Cup 1")).toBeVisible();
    expect(screen.queryByText("Loading tournaments...")).not.toBeInTheDocument();
  });
});
