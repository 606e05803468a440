// Stripe Identity through the real `stripe` SDK against the local Stripe double: the session the
// Worker creates (document, matching selfie, the player's id), the signed webhook that moves the
// state (read back with the verified outputs expanded), once per event, and a bad signature refused.
import { describe, expect, it } from "vitest";
import { env, exports } from "cloudflare:workers";
import { call, registerUser } from "../helpers";
import { moveStripeSession, postStripeEvent, startIdentitySession } from "../identity-helpers";

const testEnv = env as unknown as Env;
const mockUrl = (path: string) => `http://127.0.0.1:${testEnv.STRIPE_API_PORT}${path}`;
const session = (id: string) => ({ id, object: "identity.verification_session" });

describe("Stripe Identity", () => {
  it("creates a document session with a matching selfie and the player's id, for Stripe.js", async () => {
    const u = await registerUser();
    const res = await call("/api/identity/session", { cookie: u.cookie, body: {} });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ provider: "stripe", url: null });
    expect(res.body.clientSecret).toMatch(new RegExp(`^${res.body.sessionId}_secret_`));
    const requests = (await (await fetch(mockUrl("/__mock/requests"))).json()) as { path: string; params: Record<string, string> }[];
    const sent = requests.filter((r) => r.path === "/v1/identity/verification_sessions").at(-1)!;
    expect(sent.params).toMatchObject({
      type: "document",
      "options[document][require_matching_selfie]": "true",
      "metadata[userId]": String(u.user.id),
    });
    // No sandbox page with Stripe.
    expect((await call("/api/identity/sandbox/complete", { cookie: u.cookie, body: { outcome: "verified", sessionId: "x" } })).status).toBe(
      404,
    );
  });

  it("a signed verified event verifies the player with the expanded outputs, once", async () => {
    const u = await registerUser();
    const id = await startIdentitySession(u.cookie);
    await moveStripeSession(id, {
      verified: {
        first_name: "Grace",
        last_name: "Hopper",
        dob: { year: 1986, month: 12, day: 9 },
        document_number: "P1234567",
        issuing_country: "US",
      },
    });
    const eventId = `evt_${crypto.randomUUID().replace(/-/g, "")}`;
    const first = await postStripeEvent("identity.verification_session.verified", session(id), eventId);
    expect(first).toEqual({ status: 200, body: { received: true, identity: "applied" } });
    expect((await call("/api/identity", { cookie: u.cookie })).body).toMatchObject({ state: "verified", legalName: "Grace Hopper" });
    const row = await env.DB.prepare(
      "SELECT v.date_of_birth AS vdob, u.date_of_birth AS udob, v.document_country AS country, v.verified_count AS n FROM identity_verifications v JOIN users u ON u.id = v.user_id WHERE v.user_id = ?",
    )
      .bind(u.user.id)
      .first();
    expect(row).toEqual({ vdob: "1986-12-09", udob: "1986-12-09", country: "US", n: 1 });
    // The same event again changes nothing.
    expect(await postStripeEvent("identity.verification_session.verified", session(id), eventId)).toEqual({
      status: 200,
      body: { received: true, duplicate: true },
    });
    const retrieves = ((await (await fetch(mockUrl("/__mock/requests"))).json()) as { method: string; path: string }[]).filter(
      (r) => r.method === "GET" && r.path === `/v1/identity/verification_sessions/${id}`,
    );
    expect(retrieves).toHaveLength(1);
  });

  it("requires_input carries Stripe's reason; canceled is refused", async () => {
    const u = await registerUser();
    const id = await startIdentitySession(u.cookie);
    await moveStripeSession(id, {
      status: "requires_input",
      last_error: { code: "selfie_face_mismatch", reason: "The selfie does not match." },
    });
    expect((await postStripeEvent("identity.verification_session.requires_input", session(id))).body.identity).toBe("applied");
    expect((await call("/api/identity", { cookie: u.cookie })).body).toMatchObject({
      state: "requires_input",
      reason: "The selfie does not match.",
    });
    await moveStripeSession(id, { status: "canceled" });
    await postStripeEvent("identity.verification_session.canceled", session(id));
    expect((await call("/api/identity", { cookie: u.cookie })).body).toMatchObject({ state: "refused" });
  });

  it("refuses a badly signed event and changes nothing", async () => {
    const u = await registerUser();
    const id = await startIdentitySession(u.cookie);
    await moveStripeSession(id, {
      verified: {
        first_name: "Eve",
        last_name: "Forger",
        dob: { year: 1990, month: 1, day: 1 },
        document_number: "X1",
        issuing_country: "US",
      },
    });
    const payload = JSON.stringify({
      id: "evt_forged",
      object: "event",
      type: "identity.verification_session.verified",
      data: { object: session(id) },
    });
    const res = await exports.default.fetch(
      new Request("http://localhost/api/webhooks/stripe", {
        method: "POST",
        headers: { "content-type": "application/json", "stripe-signature": `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}` },
        body: payload,
      }),
    );
    expect(res.status).toBe(400);
    expect(((await res.json()) as { code: string }).code).toBe("webhook_signature_invalid");
    expect((await call("/api/identity", { cookie: u.cookie })).body).toMatchObject({ state: "pending" });
  });
});
