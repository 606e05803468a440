// Requests racing for one unique value: the loser gets the same 409 as a sequential clash, never a
// 500; and a database error that does reach the error path is logged without its bound parameters.
import { afterEach, describe, expect, it, vi } from "vitest";
import { env } from "cloudflare:workers";
import { call, registerUser } from "./helpers";
import { markSteppedUp } from "./session-helpers";
import { AUTH, ERRORS } from "../../common/messages";

const uniq = () => `r${Date.now().toString(36)}${Math.random().toString(36).slice(2, 8)}`;
const PARALLEL = 5;

const statusesAndMessages = (results: { status: number; body: { message?: string } }[]) => ({
  created: results.filter((r) => r.status === 201 || r.status === 200).length,
  conflicts: results.filter((r) => r.status === 409).map((r) => r.body.message),
  others: results.filter((r) => ![200, 201, 409].includes(r.status)).map((r) => `${r.status} ${r.body.message}`),
});

afterEach(() => vi.restoreAllMocks());

describe("concurrent sign-ups and renames", () => {
  it("gives one of 5 parallel sign-ups for one username 201 and the others the sequential 409", async () => {
    const name = uniq();
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, (_, i) =>
        call("/api/register", { body: { username: name, email: `${name}.${i}@example.com`, password: "secret123", acceptTerms: true } }),
      ),
    );
    expect(statusesAndMessages(results)).toEqual({ created: 1, conflicts: Array(PARALLEL - 1).fill(AUTH.usernameTaken), others: [] });
  });

  it("gives one of 5 parallel sign-ups for one email 201 and the others the sequential 409", async () => {
    const email = `${uniq()}@example.com`;
    const results = await Promise.all(
      Array.from({ length: PARALLEL }, () =>
        call("/api/register", { body: { username: uniq(), email, password: "secret123", acceptTerms: true } }),
      ),
    );
    expect(statusesAndMessages(results)).toEqual({ created: 1, conflicts: Array(PARALLEL - 1).fill(AUTH.emailTaken), others: [] });
  });

  it("lets one of 5 players renaming themselves to one name at once have it; the others get the sequential 409", async () => {
    const players = await Promise.all(Array.from({ length: PARALLEL }, () => registerUser()));
    // A new name needs a step-up (sign-in-hardening.test.ts).
    await Promise.all(players.map((p) => markSteppedUp(p.user.id)));
    const name = uniq();
    const results = await Promise.all(
      players.map((p) => call("/api/user/profile", { method: "PATCH", cookie: p.cookie, body: { username: name, email: p.user.email } })),
    );
    expect(statusesAndMessages(results)).toEqual({ created: 1, conflicts: Array(PARALLEL - 1).fill(AUTH.usernameTaken), others: [] });
  });
});

describe("the unhandled-error log", () => {
  it("names the error and the route but never the query's bound parameters", async () => {
    const name = uniq();
    const email = `${name}@example.com`;
    const password = "Sup3r-secret-pw";
    // A database failure the route does not expect: the insert of this one username aborts.
    await env.DB.exec(
      `CREATE TRIGGER test_boom BEFORE INSERT ON users WHEN NEW.username = '${name}' BEGIN SELECT RAISE(ABORT, 'boom'); END`,
    );
    const logged: string[] = [];
    vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
      logged.push(
        args
          .map((a) =>
            a instanceof Error
              ? `${a.name} ${a.message} ${String(a.stack)} ${String((a as Error).cause)}`
              : typeof a === "string"
                ? a
                : JSON.stringify(a),
          )
          .join(" "),
      );
    });
    try {
      const res = await call("/api/register", { body: { username: name, email, password, acceptTerms: true } });
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ code: "internal", message: "Internal server error" });
    } finally {
      await env.DB.exec("DROP TRIGGER test_boom");
    }
    const out = logged.join("\n");
    expect(out).toContain("/api/register");
    expect(out).not.toMatch(/params:/i);
    expect(out).not.toContain(name);
    expect(out).not.toContain(email);
    expect(out).not.toContain("scrypt$");
  });

  it("answers a unique-constraint failure no route foresaw with 409, not 500", async () => {
    const name = uniq();
    // The sign-up's own checks pass (name and email are free); a write beside it then hits a unique key.
    await env.DB.exec(
      `CREATE TRIGGER test_clash BEFORE INSERT ON users WHEN NEW.username = '${name}' BEGIN INSERT INTO rate_limits (key, window_start, count) VALUES ('${name}', 0, 1), ('${name}', 0, 1); END`,
    );
    vi.spyOn(console, "error").mockImplementation(() => {});
    try {
      const res = await call("/api/register", {
        body: { username: name, email: `${name}@example.com`, password: "secret123", acceptTerms: true },
      });
      expect(res.status).toBe(409);
      expect(res.body).toEqual({ code: "conflict", message: ERRORS.conflict });
    } finally {
      await env.DB.exec("DROP TRIGGER test_clash");
    }
  });
});
