// What others see of a player: the country that places them in regional rankings, weekly and
// all-time leaderboards, the level they chose to hide, and avatars served from their own URL.
import { env, exports } from "cloudflare:workers";
import { afterAll, describe, expect, it } from "vitest";
import { call, cookieFrom, registerUser } from "./helpers";
import { complete, join, ledgerMismatches, makeCategory, makePlayer, makeTournament, one, play, roomSql } from "./tournament-fixtures";

const PNG_1x1 = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==";
/** The same picture with one more byte: a different image as far as the server can tell. */
const OTHER_PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJgggA=";
const avatar = (b64 = PNG_1x1) => `data:image/png;base64,${b64}`;

const prize = (userId: number, cents: number, ageMs = 0) =>
  env.DB.prepare("INSERT INTO transactions (user_id, amount_cents, type, reference, created_at) VALUES (?, ?, 'prize', ?, ?)")
    .bind(userId, cents, `prize:test:${crypto.randomUUID()}`, Date.now() - ageMs)
    .run();
const played = (userId: number, country: string | null) =>
  env.DB.prepare("UPDATE users SET tournaments_played = 1, country = ? WHERE id = ?").bind(country, userId).run();

describe("a player's country", () => {
  it("is recorded at sign-up from where they connect, and can be changed in the profile", async () => {
    const res = await call("/api/register", {
      body: { username: `de${Date.now().toString(36)}`, email: `de${Date.now()}@example.com`, password: "secret123", acceptTerms: true },
      cf: { country: "DE" },
    });
    expect(res.status).toBe(201);
    expect(res.body.country).toBe("DE");
    const cookie = cookieFrom(res.setCookie);
    const changed = await call("/api/user/profile", {
      method: "PATCH",
      cookie,
      body: { username: res.body.username, email: res.body.email, country: "pt" },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.country).toBe("PT");
    // Signing in from elsewhere does not override the player's own choice.
    const again = await call("/api/login", { body: { username: res.body.username, password: "secret123" }, cf: { country: "FR" } });
    expect(again.body.country).toBe("PT");
    const bad = await call("/api/user/profile", {
      method: "PATCH",
      cookie,
      body: { username: res.body.username, email: res.body.email, country: "Germany" },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("Country must be a two-letter country code such as US or DE");
  });

  it("is taken at login by an account that has none, and never from an unknown or Tor address", async () => {
    const { username, password, user } = await registerUser();
    expect(user.country).toBeNull();
    expect((await call("/api/login", { body: { username, password }, cf: { country: "XX" } })).body.country).toBeNull();
    expect((await call("/api/login", { body: { username, password }, cf: { country: "T1" } })).body.country).toBeNull();
    expect((await call("/api/login", { body: { username, password }, cf: { country: "BR" } })).body.country).toBe("BR");
    expect((await one<{ country: string }>("SELECT country FROM users WHERE id = ?", user.id)).country).toBe("BR");
  });
});

describe("the leaderboard", () => {
  it("shows each player's region and serves one country's rows", async () => {
    const [de, fr, unknown] = [await makePlayer(), await makePlayer(), await makePlayer()];
    await played(de.id, "DE");
    await played(fr.id, "FR");
    await played(unknown.id, null);
    await prize(de.id, 900_000);
    await prize(fr.id, 900_001);
    await prize(unknown.id, 900_002);
    const all = (await call("/api/leaderboard")).body as any[];
    expect(all.find((e) => e.id === de.id).region).toBe("DE");
    expect(all.find((e) => e.id === unknown.id).region).toBe("Global");
    const german = (await call("/api/leaderboard?region=de")).body as any[];
    expect(german.map((e) => e.id)).toContain(de.id);
    expect(german.every((e) => e.region === "DE")).toBe(true);
    expect((await call("/api/leaderboard?region=Germany")).status).toBe(400);
  });

  it("ranks this week by the prizes won in the last seven days, and all time by every prize", async () => {
    const [steady, recent] = [await makePlayer(), await makePlayer()];
    await played(steady.id, "NZ");
    await played(recent.id, "NZ");
    await prize(steady.id, 5_000_000, 8 * 24 * 3600_000);
    await prize(steady.id, 100);
    await prize(recent.id, 2_000_000);
    const week = (await call("/api/leaderboard?period=week&region=NZ")).body as any[];
    expect(week.map((e) => [e.id, e.totalPrize])).toEqual([
      [recent.id, 20_000],
      [steady.id, 1],
    ]);
    const allTime = (await call("/api/leaderboard?period=all&region=NZ")).body as any[];
    expect(allTime.map((e) => [e.id, e.totalPrize])).toEqual([
      [steady.id, 50_001],
      [recent.id, 20_000],
    ]);
    expect((await call("/api/leaderboard?period=month")).status).toBe(400);
  });
});

describe("a hidden level", () => {
  it("is hidden in a tournament's participants and in its live and final leaderboards", async () => {
    const shy = await makePlayer({ level: 4, preferences: { showLevel: false } });
    const open = await makePlayer({ level: 3 });
    const t = await makeTournament(await makeCategory(), { startTime: Date.now() - 1000 });
    await join(shy, t.id);
    await join(open, t.id);
    const levels = (rows: any[]) => Object.fromEntries(rows.map((r) => [r.userId, r.level]));

    expect(levels((await call(`/api/tournaments/${t.id}/participants`)).body)).toEqual({ [shy.id]: null, [open.id]: 3 });
    await play(shy, t, true);
    expect(levels((await call(`/api/tournaments/${t.id}/leaderboard`)).body)).toEqual({ [shy.id]: null, [open.id]: 3 });

    await complete(shy, t.id);
    await complete(open, t.id);
    expect((await one<{ status: string }>("SELECT status FROM tournaments WHERE id = ?", t.id)).status).toBe("completed");
    expect(levels((await call(`/api/tournaments/${t.id}/leaderboard`)).body)).toEqual({ [shy.id]: null, [open.id]: 3 });
  });

  it("stays hidden after the room restarts and reloads its players from D1", async () => {
    const shy = await makePlayer({ level: 2, preferences: { showLevel: false } });
    const t = await makeTournament(await makeCategory(), { startTime: Date.now() - 1000 });
    await join(shy, t.id);
    // A room that lost its copy of the player relearns them, preference included.
    await roomSql(t.id, "DELETE FROM participants");
    const board = (await call(`/api/tournaments/${t.id}/leaderboard`)).body as any[];
    expect(board.map((r) => [r.userId, r.level])).toEqual([[shy.id, null]]);
  });
});

describe("avatars", () => {
  it("are sent as a URL in lists and served from it with an ETag and long caching for the versioned URL", async () => {
    const { cookie, user } = await registerUser({ avatar: avatar() });
    await played(user.id, "IE");
    await prize(user.id, 1234);
    const entry = ((await call("/api/leaderboard?region=IE")).body as any[]).find((e) => e.id === user.id);
    expect(entry.avatar).toBe(`/api/users/${user.username}/avatar?v=0`);
    expect((await call(`/api/users/${user.username}`)).body.avatar).toBe(entry.avatar);

    const image = await exports.default.fetch(new Request(`http://localhost${entry.avatar}`));
    expect(image.status).toBe(200);
    expect(image.headers.get("content-type")).toBe("image/png");
    expect(image.headers.get("cache-control")).toContain("immutable");
    const etag = image.headers.get("etag")!;
    expect(new Uint8Array(await image.arrayBuffer()).slice(1, 4)).toEqual(new Uint8Array([0x50, 0x4e, 0x47]));
    const again = await call(`/api/users/${user.username}/avatar`, { headers: { "if-none-match": etag } });
    expect(again.status).toBe(304);

    // A new picture is a new URL; the same picture saved again keeps it.
    const profile = { username: user.username, email: user.email };
    await call("/api/user/profile", { method: "PATCH", cookie, body: { ...profile, avatar: avatar() } });
    expect((await call(`/api/users/${user.username}`)).body.avatar).toBe(`/api/users/${user.username}/avatar?v=0`);
    await call("/api/user/profile", { method: "PATCH", cookie, body: { ...profile, avatar: avatar(OTHER_PNG) } });
    expect((await call(`/api/users/${user.username}`)).body.avatar).toBe(`/api/users/${user.username}/avatar?v=1`);
    expect((await call(`/api/users/${user.username}/avatar`, { headers: { "if-none-match": etag } })).status).toBe(200);
  });

  it("answer 404 for a player without one", async () => {
    const { user } = await registerUser();
    const res = await call(`/api/users/${user.username}/avatar`);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe("This player has no avatar");
  });
});

afterAll(async () => {
  expect(await ledgerMismatches()).toEqual([]);
});
