// What every API answer carries, and how large a request the API reads.
import { describe, expect, it } from "vitest";
import { exports } from "cloudflare:workers";
import { ERRORS } from "../../common/messages";
import { MAX_JSON_BODY_BYTES, MAX_WEBHOOK_BODY_BYTES } from "../../common/spec";
import { call, ORIGIN, registerUser } from "./helpers";

describe("security headers", () => {
  it("are on every API answer, refusals included", async () => {
    for (const res of [await exports.default.fetch(`${ORIGIN}/api/categories`), await exports.default.fetch(`${ORIGIN}/api/user`)]) {
      expect(res.headers.get("content-security-policy")).toBe("default-src 'none'; frame-ancestors 'none'");
      expect(res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(res.headers.get("x-frame-options")).toBe("DENY");
      expect(res.headers.get("referrer-policy")).toBe("strict-origin-when-cross-origin");
      expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000; includeSubDomains");
      await res.body?.cancel();
    }
  });
});

describe("request bodies", () => {
  it("refuse JSON larger than the API reads with 413, and change nothing", async () => {
    const { cookie, user } = await registerUser();
    const bio = "x".repeat(MAX_JSON_BODY_BYTES);
    const res = await call("/api/user/profile", { method: "PATCH", cookie, body: { username: user.username, email: user.email, bio } });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ code: "payload_too_large", message: ERRORS.payloadTooLarge });
    expect((await call("/api/user", { cookie })).body.bio).toBeNull();
  });

  it("still take an avatar of the largest allowed size", async () => {
    const { cookie, user } = await registerUser();
    const avatar = `data:image/png;base64,${"A".repeat(199_960)}`;
    const res = await call("/api/user/profile", { method: "PATCH", cookie, body: { username: user.username, email: user.email, avatar } });
    expect(res.status, res.text).toBe(200);
  });

  it("refuse a webhook body over its own, smaller limit", async () => {
    const res = await call("/api/webhooks/stripe", {
      rawBody: JSON.stringify({ type: "payment_intent.succeeded", padding: "x".repeat(MAX_WEBHOOK_BODY_BYTES) }),
      headers: { "stripe-signature": "t=1,v1=00" },
    });
    expect(res.status).toBe(413);
    expect(res.body.code).toBe("payload_too_large");
  });
});
