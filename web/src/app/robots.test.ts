// /robots.txt is a static file of the build (web/public): without it the SPA's fallback answered
// the crawler's request with index.html, which no crawler can read.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const text = readFileSync(path.join(import.meta.dirname, "../../public/robots.txt"), "utf8");
const DIRECTIVES = new Set(["user-agent", "allow", "disallow", "sitemap", "crawl-delay"]);

/** The file's rules, each line `Directive: value` (comments and blank lines aside), as a crawler reads them. */
const rules = text
  .split("\n")
  .map((line) => line.replace(/#.*$/, "").trim())
  .filter(Boolean)
  .map((line) => {
    const m = /^([A-Za-z-]+):\s*(\S*)$/.exec(line);
    if (!m) throw new Error(`not a robots.txt rule: ${line}`);
    return { directive: m[1]!.toLowerCase(), value: m[2]! };
  });

describe("robots.txt", () => {
  it("is a robots file, not a page: every line a known directive, for every crawler", () => {
    expect(text).not.toMatch(/<html|<!doctype/i);
    expect(rules.every((r) => DIRECTIVES.has(r.directive))).toBe(true);
    expect(rules[0]).toEqual({ directive: "user-agent", value: "*" });
  });

  it("lets crawlers in to the public pages and keeps them out of the API, the console and the dev pages", () => {
    const disallowed = rules.filter((r) => r.directive === "disallow").map((r) => r.value);
    expect(disallowed).toEqual(expect.arrayContaining(["/api/", "/admin", "/dev/"]));
    // A private tournament's invite link is for the invited (docs/custom-tournaments.md).
    expect(disallowed).toEqual(expect.arrayContaining(["/t/", "/tournaments/join/"]));
    for (const page of ["/", "/auth", "/tournaments", "/how-it-works", "/leaderboards"])
      expect(disallowed.some((prefix) => prefix && page.startsWith(prefix))).toBe(false);
  });
});
