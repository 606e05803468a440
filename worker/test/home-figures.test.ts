// GET /api/stats: the home page's hero figures come from the ledger and the tournaments table.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { postEntry } from "../money/ledger";
import { call, ORIGIN } from "./helpers";
import { makeCategory, makePlayer, makeTournament } from "./tournament-fixtures";

const forgetCached = () => caches.default.delete(new Request(`${ORIGIN}/api/stats`));
const figures = async () => {
  const res = await call("/api/stats");
  expect(res.status).toBe(200);
  return res.body as { paidToWinnersCents: number; tournamentsCompleted: number };
};

describe("the home page's hero figures", () => {
  it("count prizes paid and tournaments completed, not held prizes, practice, or unfinished tournaments; briefly cached", async () => {
    await forgetCached();
    const before = await figures();

    const category = await makeCategory();
    const winner = await makePlayer();
    const t = await makeTournament(category, { status: "completed", startTime: Date.now() - 3_600_000 });
    await postEntry(env.DB, { userId: winner.id, amountCents: 123_45, type: "prize", reference: `prize:${t.id}:${winner.id}` });
    // Under fair-play review: not paid (yet).
    const other = await makePlayer();
    await postEntry(env.DB, {
      userId: other.id,
      amountCents: 50_00,
      type: "prize",
      status: "held",
      reference: `prize:${t.id}:${other.id}`,
    });
    await makeTournament(category, { status: "completed", startTime: Date.now() - 7_200_000 });
    await makeTournament(category, { status: "completed", kind: "practice_run", startTime: Date.now() - 600_000 });
    await makeTournament(category, { status: "cancelled", startTime: Date.now() - 7_200_000 });
    await makeTournament(category, { status: "live", startTime: Date.now() - 60_000 });

    // Kept for a moment: the next visitor gets the same answer without a query.
    expect(await figures()).toEqual(before);

    await forgetCached();
    expect(await figures()).toEqual({
      paidToWinnersCents: before.paidToWinnersCents + 123_45,
      tournamentsCompleted: before.tournamentsCompleted + 2,
    });
  });

  it("tells browsers they may keep it briefly", async () => {
    const res = await call("/api/stats");
    expect(res.headers.get("Cache-Control")).toBe("public, max-age=60");
  });
});
