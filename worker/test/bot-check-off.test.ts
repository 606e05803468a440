// The bot check switched off (no Turnstile secret or site key, as in local development): nothing
// asks for a token and the web app is told there is no widget to show.
import { describe, expect, it } from "vitest";
import { call, registerUser } from "./helpers";
import { balanceOf, join, makeCategory, makePlayer, makeTournament } from "./tournament-fixtures";

describe("the bot check, off", () => {
  it("publishes no site key", async () => {
    const res = await call("/api/config");
    expect(res.status).toBe(200);
    expect(res.body.turnstileSiteKey).toBeNull();
  });

  it("registers and joins a paid tournament without a token", async () => {
    const { user } = await registerUser();
    expect(user.username).toMatch(/^p/);
    const t = await makeTournament(await makeCategory(), { entryFeeCents: 500 });
    const p = await makePlayer({ balanceCents: 1000 });
    const res = await join(p, t.id);
    expect(res.status, res.text).toBe(200);
    expect(await balanceOf(p.id)).toBe(500);
  });
});
