// The SPA's security headers, written as the static assets' `_headers` file at build time. The
// one inline script (the theme, before first paint) is allowed by its hash, computed from the
// built page, so editing it can never silently turn the policy off.
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { Plugin } from "vite";

/**
 * Stripe's Payment Element and Identity's verification modal (verify.stripe.com): its script, its
 * frames, its API. Needed on every page, since the SPA reaches checkout without a reload.
 */
const STRIPE = {
  script: "https://js.stripe.com",
  frames: ["https://js.stripe.com", "https://hooks.stripe.com", "https://verify.stripe.com"],
  api: "https://api.stripe.com",
};

/**
 * Cloudflare Turnstile, the optional bot check: its script and its challenge frame. The policy is
 * static (written at build time, before a deployment's site key is known), so it is allowed even
 * where the check is off; the page loads nothing from it then.
 */
const TURNSTILE = "https://challenges.cloudflare.com";

export function contentSecurityPolicy(inlineScripts: string[]): string {
  const hashes = inlineScripts.map((s) => `'sha256-${createHash("sha256").update(s).digest("base64")}'`);
  return [
    "default-src 'self'",
    `script-src 'self' ${[...hashes, STRIPE.script, TURNSTILE].join(" ")}`,
    // Components and the toast library set styles at run time.
    "style-src 'self' 'unsafe-inline'",
    // Avatars being chosen and the 2FA QR code are data: URLs.
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    `connect-src 'self' ${STRIPE.api}`,
    `frame-src ${[...STRIPE.frames, TURNSTILE].join(" ")}`,
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** The classic inline scripts of a page, as the browser hashes them. */
export const inlineScripts = (html: string) => [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((m) => m[1]!);

/**
 * The `_headers` file for the SPA's every path. Stripe's origins are allowed on every page, not
 * only at checkout: the SPA reaches checkout without a reload, so the first page's policy is the
 * one in force. connect-src 'self' covers the page's own ws:/wss: sockets (CSP Level 3).
 */
export function headersFile(html: string): string {
  return [
    "/*",
    `  Content-Security-Policy: ${contentSecurityPolicy(inlineScripts(html))}`,
    "  X-Content-Type-Options: nosniff",
    "  X-Frame-Options: DENY",
    "  Referrer-Policy: strict-origin-when-cross-origin",
    "  Strict-Transport-Security: max-age=31536000; includeSubDomains",
    // Nothing in the app uses these; a script that got in cannot either.
    "  Permissions-Policy: camera=(), microphone=(), geolocation=(), usb=()",
    "",
  ].join("\n");
}

export function securityHeaders(): Plugin {
  return {
    name: "trivia-security-headers",
    apply: "build",
    // After the page is written, so the hashes are of the exact bytes served.
    writeBundle(options) {
      const dir = options.dir!;
      writeFileSync(path.join(dir, "_headers"), headersFile(readFileSync(path.join(dir, "index.html"), "utf8")));
    },
  };
}
