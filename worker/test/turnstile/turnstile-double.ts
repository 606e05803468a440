// TEST DOUBLE, never used by the Worker in production: a loopback HTTP server answering like
// Turnstile's siteverify endpoint, so the Worker's real verification runs against it.
// It is the "worker-turnstile" project's globalSetup (Node side): vitest.config.ts binds its URL
// as TURNSTILE_VERIFY_URL and the secret it expects as TURNSTILE_SECRET before the Worker starts.
//
// Tokens steer the answer:
//   pass:<action>            success for this action, on hostname "localhost" (the tests' origin)
//   pass:<action>@<hostname> success for this action, solved on another hostname
//   http-500                 a 500 with no verdict
//   not-json                 a 200 whose body is not JSON
//   hang-up                  the connection closes with no answer
//   anything else            failure, "invalid-input-response"
// GET /__double/requests lists what the Worker sent (form fields as received); DELETE clears it.
import { randomBytes } from "node:crypto";
import type { TestProject } from "vitest/node";
import { startLocalDouble } from "../local-double";

declare module "vitest" {
  export interface ProvidedContext {
    turnstileDoubleUrl: string;
    turnstileDoubleSecret: string;
  }
}

export interface ReceivedVerification {
  contentType: string | null;
  /** The form-encoded body's fields. */
  fields: Record<string, string>;
}

/** vitest globalSetup: one double for the whole project, closed when the run ends. */
export default async function setup(project: TestProject) {
  const secret = `turnstile-double-secret-${randomBytes(8).toString("hex")}`;
  const double = await startTurnstileDouble(secret);
  project.provide("turnstileDoubleUrl", double.url);
  project.provide("turnstileDoubleSecret", secret);
  return () => double.close();
}

function startTurnstileDouble(secret: string) {
  const received: ReceivedVerification[] = [];
  return startLocalDouble("turnstile", received, ({ req, res, url, body: text, json }) => {
    if (req.method !== "POST" || url.pathname !== "/siteverify") return json(404, { error: "not found" });
    const fields = Object.fromEntries(new URLSearchParams(text));
    received.push({ contentType: req.headers["content-type"] ?? null, fields });
    const token = fields.response ?? "";
    if (token === "hang-up") return void req.socket.destroy();
    if (token === "http-500") return json(500, { error: "internal" });
    if (token === "not-json") {
      res.writeHead(200, { "content-type": "text/html" });
      return void res.end("<html>maintenance</html>");
    }
    if (fields.secret !== secret) return json(200, { success: false, "error-codes": ["invalid-input-secret"] });
    const pass = token.match(/^pass:([\w-]+)(?:@([\w.-]+))?$/);
    if (!pass) return json(200, { success: false, "error-codes": ["invalid-input-response"] });
    return json(200, {
      success: true,
      "error-codes": [],
      challenge_ts: new Date().toISOString(),
      hostname: pass[2] ?? "localhost",
      action: pass[1],
      cdata: "",
    });
  });
}
