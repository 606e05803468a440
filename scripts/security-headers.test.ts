import { describe, expect, it } from "vitest";
import { contentSecurityPolicy } from "./security-headers";

const directive = (csp: string, name: string) => csp.split("; ").find((d) => d.startsWith(`${name} `)) ?? "";

describe("the web app's Content-Security-Policy", () => {
  // The policy is written at build time, before any deployment's site key is known, so Turnstile's
  // origin is allowed whether the bot check is on or not; only for its script and its frame.
  it("allows Cloudflare Turnstile's script and frame, and nothing else of its origin", () => {
    const csp = contentSecurityPolicy([]);
    expect(directive(csp, "script-src").split(" ")).toContain("https://challenges.cloudflare.com");
    expect(directive(csp, "frame-src").split(" ")).toContain("https://challenges.cloudflare.com");
    const elsewhere = csp.split("; ").filter((d) => !/^(script|frame)-src /.test(d));
    expect(elsewhere.join("; ")).not.toContain("challenges.cloudflare.com");
  });

  it("allows the inline script by its hash", () => {
    expect(directive(contentSecurityPolicy(["console.log(1)"]), "script-src")).toMatch(/'sha256-[A-Za-z0-9+/=]+'/);
  });
});
