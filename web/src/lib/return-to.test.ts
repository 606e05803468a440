import { describe, expect, it } from "vitest";
import { safeReturnPath, signInFor } from "./return-to";

describe("the sign-in return path", () => {
  it("keeps a path on this site, with its query and hash", () => {
    expect(safeReturnPath("/tournaments/42")).toBe("/tournaments/42");
    expect(safeReturnPath("/withdraw-confirm/10?method=bank_account")).toBe("/withdraw-confirm/10?method=bank_account");
    expect(safeReturnPath("/dashboard?tab=transactions#top")).toBe("/dashboard?tab=transactions#top");
  });

  it.each([
    "//evil.com",
    "//evil.com/path",
    "/\\evil.com",
    "\\\\evil.com",
    "/\t/evil.com",
    "/\n/evil.com",
    "https://evil.com",
    "javascript:alert(1)",
    "evil.com",
    "",
    null,
    "/auth",
    "/auth?next=/dashboard",
  ])("goes home instead of %j", (raw) => {
    expect(safeReturnPath(raw)).toBe("/");
  });

  it("builds the sign-in address that comes back, and plain /auth for home", () => {
    expect(signInFor("/tournaments/42?tab=leaderboard")).toBe("/auth?next=%2Ftournaments%2F42%3Ftab%3Dleaderboard");
    expect(signInFor("/")).toBe("/auth");
    expect(signInFor("//evil.com")).toBe("/auth");
  });
});
