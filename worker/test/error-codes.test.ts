// Every refusal is `{ code, message }`: a stable code the web app branches on and a message for
// people (docs/decisions/006-typed-contract.md), whichever layer refuses: validation, the CSRF
// and session middleware, a route, the tournament's room, the ledger.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { ERROR_CODES, type ErrorCode } from "../../common/api/errors";
import { JOIN } from "../../common/messages";
import { call, type CallResult } from "./helpers";
import { validBank } from "./money-helpers";
import { markSteppedUp } from "./session-helpers";
import { join, makeCategory, makePlayer, makeTournament, next, startNow } from "./tournament-fixtures";

describe("error bodies", () => {
  it("carry a known code and a message on every kind of refusal", async () => {
    const category = await makeCategory();
    const upcoming = await makeTournament(category);
    const live = await makeTournament(category, { startTime: Date.now() - 1000 });
    await startNow(live.id);
    const paid = await makeTournament(category, { entryFeeCents: 1000 });
    const expert = await makeTournament(category, { minLevel: 5 });
    const player = await makePlayer({ balanceCents: 300 });
    const unverified = await makePlayer({ balanceCents: 1000 });
    // Withdrawing needs a verified address; this player's was verified, the other's not.
    await env.DB.prepare("UPDATE users SET email_verified_at = ? WHERE id = ?").bind(Date.now(), player.id).run();
    await markSteppedUp(player.id);
    await markSteppedUp(unverified.id);
    const notSteppedUp = await makePlayer({ balanceCents: 300 });

    const cases: [string, () => Promise<CallResult>, number, ErrorCode][] = [
      ["a query that breaks a rule", () => call("/api/tournaments?price=cheap"), 400, "invalid_request"],
      ["a path id that is not one", () => call("/api/tournaments/abc"), 400, "invalid_request"],
      [
        "a body field that breaks a rule",
        () => call("/api/register", { body: { username: "ab", email: "a@example.com", password: "secret123" } }),
        400,
        "invalid_request",
      ],
      [
        "a body that does not parse",
        () => call(`/api/tournaments/${upcoming.id}/join`, { cookie: player.cookie, rawBody: "{oops" }),
        400,
        "malformed_json",
      ],
      [
        "a body that is not JSON",
        () => call("/api/login", { rawBody: "username=a", headers: { "content-type": "application/x-www-form-urlencoded" } }),
        400,
        "json_required",
      ],
      [
        "a request from another site",
        () => call("/api/logout", { method: "POST", headers: { origin: "https://evil.example" } }),
        403,
        "cross_origin",
      ],
      ["signed out", () => call("/api/user/stats"), 401, "not_authenticated"],
      ["a player on an operators' route", () => call("/api/admin/payouts", { cookie: player.cookie }), 403, "forbidden"],
      ["an unknown route", () => call("/api/nope"), 404, "not_found"],
      ["an unknown tournament", () => call("/api/tournaments/999999999"), 404, "tournament_not_found"],
      [
        "a socket route without an upgrade",
        () => call(`/api/tournaments/${upcoming.id}/ws`, { cookie: player.cookie }),
        426,
        "upgrade_required",
      ],
      ["the room: playing without joining", () => next(player, live.id), 409, "not_joined"],
      ["the room: joining below the level", () => join(player, expert.id), 403, "level_too_low"],
      ["the room: joining without the fee", () => join(player, paid.id), 409, "insufficient_balance"],
      [
        "money: withdrawing above the balance",
        () =>
          call("/api/withdrawal/confirm", {
            cookie: player.cookie,
            body: { amount: 5, withdrawalMethod: "bank_account", bankAccount: validBank() },
            headers: { "idempotency-key": crypto.randomUUID() },
          }),
        400,
        "insufficient_balance",
      ],
      [
        "money: withdrawing before verifying the email address",
        () =>
          call("/api/withdrawal/confirm", {
            cookie: unverified.cookie,
            body: { amount: 5, withdrawalMethod: "bank_account", bankAccount: validBank() },
          }),
        403,
        "email_unverified",
      ],
      [
        "money: withdrawing without an Idempotency-Key",
        () =>
          call("/api/withdrawal/confirm", {
            cookie: player.cookie,
            body: { amount: 1, withdrawalMethod: "bank_account", bankAccount: validBank() },
          }),
        400,
        "idempotency_key_required",
      ],
      [
        "money: withdrawing without a step-up",
        () =>
          call("/api/withdrawal/confirm", {
            cookie: notSteppedUp.cookie,
            body: { amount: 1, withdrawalMethod: "bank_account", bankAccount: validBank() },
          }),
        403,
        "step_up_required",
      ],
      [
        "money: confirming an unknown payment",
        () => call("/api/deposit/confirm", { cookie: player.cookie, body: { paymentIntentId: "pi_unknown" } }),
        404,
        "payment_not_found",
      ],
    ];
    for (const [name, request, status, code] of cases) {
      const res = await request();
      expect([name, res.status, res.body]).toEqual([name, status, expect.objectContaining({ code, message: expect.any(String) })]);
      expect(ERROR_CODES).toContain(res.body.code);
      expect(res.body.message.length, name).toBeGreaterThan(0);
    }
  });

  it("keep a refusal's extra fields beside the code: joining signed out names the toast's title", async () => {
    const t = await makeTournament(await makeCategory());
    const res = await call(`/api/tournaments/${t.id}/join`, { method: "POST" });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: "not_authenticated", message: JOIN.authRequired.description, title: JOIN.authRequired.title });
  });
});

describe("JSON bodies", () => {
  it("refuse one that does not parse with malformed_json, on validated routes and self-read ones alike", async () => {
    const t = await makeTournament(await makeCategory());
    const p = await makePlayer();
    for (const res of [
      await call(`/api/tournaments/${t.id}/join`, { cookie: p.cookie, rawBody: "{oops" }),
      await call("/api/notifications/read", { cookie: p.cookie, rawBody: "[1," }),
      await call("/api/register", { rawBody: "{not json" }),
    ]) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ code: "malformed_json", message: "Malformed JSON body" });
    }
  });

  it("read an empty body as {} where a route takes no fields", async () => {
    const t = await makeTournament(await makeCategory());
    const p = await makePlayer();
    const res = await call(`/api/tournaments/${t.id}/join`, { cookie: p.cookie, method: "POST", rawBody: "" });
    expect(res.status).toBe(200);
    expect(res.body.joined).toBe(true);
  });

  it("refuse an empty body where a route needs fields, with the first rule broken", async () => {
    const p = await makePlayer();
    await markSteppedUp(p.id);
    const res = await call("/api/withdrawal/confirm", { cookie: p.cookie, method: "POST", rawBody: "" });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: "invalid_request", message: expect.any(String) });
  });
});
