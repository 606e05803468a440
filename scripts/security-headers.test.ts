import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, headersFile, inlineScripts } from "./security-headers";

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

describe("the web app's _headers file", () => {
  // The page as written: Vite copies its classic inline script byte for byte into the build.
  const html = readFileSync(path.join(import.meta.dirname, "../web/index.html"), "utf8");
  const file = headersFile(html);
  const header = (name: string) =>
    file
      .split("\n")
      .map((l) => l.trim())
      .find((l) => l.startsWith(`${name}: `))
      ?.slice(name.length + 2);

  it("applies to every path of the SPA", () => {
    expect(file.split("\n")[0]).toBe("/*");
  });

  it("allows exactly the page's one inline script (the theme, before first paint) by its hash", () => {
    const scripts = inlineScripts(html);
    expect(scripts).toHaveLength(1);
    expect(scripts[0]).toContain('localStorage.getItem("theme")');
    const hash = createHash("sha256").update(scripts[0]!).digest("base64");
    expect(directive(header("Content-Security-Policy")!, "script-src").split(" ")).toEqual([
      "script-src",
      "'self'",
      `'sha256-${hash}'`,
      "https://js.stripe.com",
      "https://challenges.cloudflare.com",
    ]);
  });

  it("is strict: nothing framed, no plugins, connections to our origin (and its sockets) and Stripe's API only", () => {
    const csp = header("Content-Security-Policy")!;
    expect(directive(csp, "default-src")).toBe("default-src 'self'");
    expect(directive(csp, "frame-ancestors")).toBe("frame-ancestors 'none'");
    expect(directive(csp, "object-src")).toBe("object-src 'none'");
    expect(directive(csp, "connect-src")).toBe("connect-src 'self' https://api.stripe.com");
    expect(directive(csp, "img-src")).toBe("img-src 'self' data: blob:");
    expect(directive(csp, "frame-src")).toBe(
      "frame-src https://js.stripe.com https://hooks.stripe.com https://verify.stripe.com https://challenges.cloudflare.com",
    );
    expect(csp).not.toMatch(/'unsafe-eval'|\*/);
  });

  it("carries the other security headers", () => {
    expect(header("X-Content-Type-Options")).toBe("nosniff");
    expect(header("X-Frame-Options")).toBe("DENY");
    expect(header("Referrer-Policy")).toBe("strict-origin-when-cross-origin");
    expect(header("Strict-Transport-Security")).toBe("max-age=31536000; includeSubDomains");
    expect(header("Permissions-Policy")).toBe("camera=(), microphone=(), geolocation=(), usb=()");
  });
});
