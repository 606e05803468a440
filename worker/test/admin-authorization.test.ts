// Every console route, found from the app's own route table (so routes added later are covered
// too): a player is refused 403, an operator without 2FA 403 admin_two_factor_required.
import { describe, expect, it } from "vitest";
import { env } from "cloudflare:workers";
import { AUTH } from "../../common/messages";
import { app } from "../app";
import { call } from "./helpers";
import { makePlayer } from "./tournament-fixtures";

// Middleware shows up as method ALL; only the routes themselves answer requests.
const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE"]);
const consoleRoutes = [
  ...new Map(
    app.routes
      .filter((r) => METHODS.has(r.method) && r.path.startsWith("/api/admin/"))
      .map((r) => {
        const path = r.path.replace(/:[A-Za-z]+(\{[^}]*\})?/g, "1");
        return [`${r.method} ${path}`, { method: r.method, path }] as const;
      }),
  ).values(),
];

describe("the console API's authorization", () => {
  it("finds the console's routes", () => {
    const keys = consoleRoutes.map((r) => `${r.method} ${r.path}`);
    expect(keys).toEqual(
      expect.arrayContaining(["GET /api/admin/overview", "GET /api/admin/audit", "POST /api/admin/approvals/1/approve"]),
    );
    expect(consoleRoutes.length).toBeGreaterThan(10);
  });

  it.each(consoleRoutes)(
    "$method $path: a player gets 403, an operator without 2FA 403 admin_two_factor_required",
    async ({ method, path }) => {
      const player = await makePlayer();
      const asPlayer = await call(path, { method, cookie: player.cookie, ...(method === "GET" ? {} : { body: {} }) });
      expect(asPlayer.status, asPlayer.text).toBe(403);
      expect(asPlayer.body.code).toBe("forbidden");

      const operator = await makePlayer();
      await env.DB.prepare("UPDATE users SET role = 'admin' WHERE id = ?").bind(operator.id).run();
      const without2fa = await call(path, { method, cookie: operator.cookie, ...(method === "GET" ? {} : { body: {} }) });
      expect(without2fa.status, without2fa.text).toBe(403);
      expect(without2fa.body).toEqual({ code: "admin_two_factor_required", message: AUTH.adminTwoFactorRequired });
    },
  );
});
