// The public tournament list: search and filters run on the server over every row, in pages;
// live first, then upcoming soonest first, then finished newest first; a player's own practice
// runs never appear.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import type { TournamentPage } from "../../common/api/tournaments";
import { TOURNAMENT_PAGE_SIZE } from "../../common/spec";
import { call } from "./helpers";
import { makeCategory, type CategoryFixture } from "./tournament-fixtures";

interface Row {
  title?: string;
  description?: string;
  entryFeeCents?: number;
  minLevel?: number;
  startTime?: number;
  status?: "upcoming" | "live" | "completed" | "cancelled";
  kind?: "standard" | "practice" | "practice_run";
}

/** Tournament rows without questions (the list never reads them), inserted in order; their ids. */
async function insert(cat: CategoryFixture, rows: Row[]): Promise<number[]> {
  const now = Date.now();
  const results = await env.DB.batch(
    rows.map((r, i) =>
      env.DB.prepare(
        `INSERT INTO tournaments (title, description, category_id, entry_fee_cents, min_level, start_time, status, is_free, kind)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`,
      ).bind(
        r.title ?? `Cup ${i}`,
        r.description ?? "A test tournament",
        cat.id,
        r.entryFeeCents ?? 0,
        r.minLevel ?? 1,
        r.startTime ?? now + 3_600_000 + i * 60_000,
        r.status ?? "upcoming",
        (r.entryFeeCents ?? 0) === 0 ? 1 : 0,
        r.kind ?? "standard",
      ),
    ),
  );
  return results.map((r) => (r.results[0] as { id: number }).id);
}

async function list(query: string): Promise<TournamentPage> {
  const res = await call<TournamentPage>(`/api/tournaments?${query}`);
  expect(res.status, res.text).toBe(200);
  return res.body;
}
const ids = async (query: string) => (await list(query)).items.map((t) => t.id);

describe("tournament list", () => {
  it("searches and pages over every tournament, not only the first 200", async () => {
    const cat = await makeCategory(0);
    const now = Date.now();
    const rows: Row[] = Array.from({ length: 204 }, (_, i) => ({ title: `Cup ${i}`, startTime: now + 3_600_000 + i * 60_000 }));
    // Created last and listed last: finished long ago.
    rows.push({ title: "Needle in the Haystack", status: "completed", startTime: now - 86_400_000 });
    const all = await insert(cat, rows);
    const needle = all.at(-1)!;
    const mine = `categoryId=${cat.id}`;

    const found = await list(`${mine}&q=nEEDLE`);
    expect(found.items.map((t) => t.id)).toEqual([needle]);
    expect(found).toMatchObject({ total: 1, page: 1, nextPage: null });

    const seen: number[] = [];
    for (const [page, size, next] of [
      [1, 50, 2],
      [2, 50, 3],
      [3, 50, 4],
      [4, 50, 5],
      [5, 5, null],
    ] as const) {
      const body = await list(`${mine}&page=${page}&pageSize=50`);
      expect(body.items).toHaveLength(size);
      expect(body).toMatchObject({ total: 205, page, pageSize: 50, nextPage: next });
      seen.push(...body.items.map((t) => t.id));
    }
    expect(new Set(seen).size).toBe(205);
    expect([...seen].sort((a, b) => a - b)).toEqual(all);
    expect(seen.at(-1)).toBe(needle);
    expect(await list(`${mine}&page=6&pageSize=50`)).toEqual({ items: [], total: 205, page: 6, pageSize: 50, nextPage: null });

    const first = await list(mine);
    expect(first).toMatchObject({ total: 205, page: 1, pageSize: TOURNAMENT_PAGE_SIZE, nextPage: 2 });
    expect(first.items.map((t) => t.id)).toEqual(seen.slice(0, TOURNAMENT_PAGE_SIZE));
  });

  it("filters by kind, category, level range, price, status and text, and never lists a practice run", async () => {
    const cat = await makeCategory(0);
    const now = Date.now();
    const [practice, run, elite, free, paid, premium, cancelled] = await insert(cat, [
      { title: "Cat Practice", kind: "practice", status: "live", startTime: now - 86_400_000 },
      { title: "Cat Practice", kind: "practice_run", status: "live", startTime: now - 30_000 },
      { title: "Elite Masters", entryFeeCents: 5000, minLevel: 10, status: "live", startTime: now - 60_000 },
      { title: "Morning Quiz", minLevel: 1, startTime: now + 3_600_000 },
      { title: "Evening Cup", description: "Bring your A-game", entryFeeCents: 500, minLevel: 3, startTime: now + 7_200_000 },
      { title: "Grand 100% Final", entryFeeCents: 2000, minLevel: 5, status: "completed", startTime: now - 7_200_000 },
      { title: "Rainy Day Cup", entryFeeCents: 1000, minLevel: 6, status: "cancelled", startTime: now - 10_800_000 },
    ]);
    const mine = `categoryId=${cat.id}`;
    const everything = [practice, elite, free, paid, premium, cancelled];

    expect(await ids(mine)).toEqual(everything);
    expect(await ids(`category=${cat.slug.toUpperCase()}`)).toEqual(everything);
    expect(await ids(`${mine}&status=all&price=all`)).toEqual(everything);
    expect(await ids(`${mine}&status=&price=&q=`)).toEqual(everything);
    expect(await ids(`${mine}&q=practice`)).toEqual([practice]);
    expect((await list(mine)).total).toBe(6);

    expect(await ids(`${mine}&kind=standard`)).toEqual([elite, free, paid, premium, cancelled]);
    expect(await ids(`${mine}&kind=practice`)).toEqual([practice]);

    expect(await ids(`${mine}&price=free`)).toEqual([practice, free]);
    expect(await ids(`${mine}&price=paid`)).toEqual([elite, paid, premium, cancelled]);
    expect(await ids(`${mine}&price=premium`)).toEqual([elite, premium]);

    expect(await ids(`${mine}&status=live`)).toEqual([practice, elite]);
    expect(await ids(`${mine}&status=upcoming`)).toEqual([free, paid]);
    expect(await ids(`${mine}&status=completed`)).toEqual([premium]);
    expect(await ids(`${mine}&status=cancelled`)).toEqual([cancelled]);
    expect(await ids(`${mine}&status=active`)).toEqual([practice, elite, free, paid]);

    // Level tiers: Beginner 1-2, Intermediate 3-5, Advanced 6-9, Elite 10+.
    expect(await ids(`${mine}&minLevel=1&maxLevel=2`)).toEqual([practice, free]);
    expect(await ids(`${mine}&minLevel=3&maxLevel=5`)).toEqual([paid, premium]);
    expect(await ids(`${mine}&minLevel=6&maxLevel=9`)).toEqual([cancelled]);
    expect(await ids(`${mine}&minLevel=10`)).toEqual([elite]);

    expect(await ids(`${mine}&q=a-GAME`)).toEqual([paid]);
    expect(await ids(`${mine}&q=100%25`)).toEqual([premium]);
    expect(await ids(`${mine}&q=%25`)).toEqual([premium]); // % is literal, not a wildcard
    expect(await ids(`${mine}&q=_`)).toEqual([]);

    expect(await ids(`${mine}&kind=standard&status=active&price=paid`)).toEqual([elite, paid]);
    expect(await ids(`categoryId=${(await makeCategory(0)).id}`)).toEqual([]);

    // Nowhere, whatever is asked.
    for (const query of [mine, `${mine}&q=Cat`, `${mine}&status=live&price=free`, "pageSize=100"]) {
      expect(await ids(query), query).not.toContain(run);
    }
  });

  it("gives the home page the next standard tournaments, live first then soonest, each price on its own", async () => {
    const cat = await makeCategory(0);
    const now = Date.now();
    const [, , liveLate, liveEarly, soonPaid, laterPaid, free1, free2, free3] = await insert(cat, [
      { title: "Cat Practice", kind: "practice", status: "live", startTime: now - 86_400_000 },
      { title: "Old Free Cup", status: "completed", startTime: now - 3_600_000 },
      { title: "Live Late", entryFeeCents: 500, status: "live", startTime: now - 60_000 },
      { title: "Live Early", entryFeeCents: 500, status: "live", startTime: now - 600_000 },
      { title: "Soon Paid", entryFeeCents: 1000, startTime: now + 600_000 },
      { title: "Later Paid", entryFeeCents: 1000, startTime: now + 1_200_000 },
      { title: "Free One", startTime: now + 1_800_000 },
      { title: "Free Two", startTime: now + 2_400_000 },
      { title: "Free Three", startTime: now + 3_000_000 },
    ]);
    const home = `categoryId=${cat.id}&kind=standard&status=active&pageSize=3`;
    expect(await ids(home)).toEqual([liveEarly, liveLate, soonPaid]);
    expect(await ids(`${home}&price=paid`)).toEqual([liveEarly, liveLate, soonPaid]);
    expect(await ids(`${home}&price=free`)).toEqual([free1, free2, free3]);
    const second = await list(`${home}&page=2`);
    expect(second.items.map((t) => t.id)).toEqual([laterPaid, free1, free2]);
    expect(second).toMatchObject({ total: 7, nextPage: 3 });
  });

  it("refuses bad parameters with 400 and a message", async () => {
    for (const bad of [
      "page=0",
      "page=-1",
      "page=x",
      "page=1.5",
      "pageSize=0",
      "pageSize=101",
      "pageSize=x",
      "minLevel=0",
      "minLevel=x",
      "maxLevel=0",
      "minLevel=5&maxLevel=3",
      "price=cheap",
      "status=done",
      "kind=practice_run",
      "kind=x",
      "categoryId=abc",
      "categoryId=0",
      "category=%27;drop",
      `q=${"x".repeat(101)}`,
    ]) {
      const res = await call(`/api/tournaments?${bad}`);
      expect(res.status, bad).toBe(400);
      expect(res.body, bad).toEqual({ code: "invalid_request", message: expect.any(String) });
    }
  });
});
