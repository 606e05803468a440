// TEST DOUBLE, never used by the Worker in production: a loopback HTTP server answering like
// Resend's POST /emails, so the Worker's real provider path runs against it. It is the
// "worker-email" project's globalSetup (Node side): vitest.config.ts binds its URL as
// EMAIL_API_URL and the key it expects as RESEND_API_KEY before the Worker starts.
//
// The recipient steers the answer:
//   fail-500…@…   a 500 whose body names the error and echoes the key and the text (as a careless provider might)
//   hang-up…@…    the connection closes with no answer
//   anything else 200 with an id, when the key is the expected one; else 401
// GET /__double/requests lists what the Worker sent; DELETE clears it (worker/test/local-double.ts).
import { randomBytes } from "node:crypto";
import type { TestProject } from "vitest/node";
import { startLocalDouble } from "../local-double";

declare module "vitest" {
  export interface ProvidedContext {
    resendDoubleUrl: string;
    resendDoubleKey: string;
  }
}

export interface ReceivedMail {
  authorization: string | null;
  contentType: string | null;
  body: { from?: string; to?: string[]; subject?: string; text?: string };
}

/** vitest globalSetup: one double for the whole project, closed when the run ends. */
export default async function setup(project: TestProject) {
  const key = `re_double_${randomBytes(12).toString("hex")}`;
  const double = await startResendDouble(key);
  project.provide("resendDoubleUrl", double.url);
  project.provide("resendDoubleKey", key);
  return () => double.close();
}

function startResendDouble(key: string) {
  const received: ReceivedMail[] = [];
  return startLocalDouble("resend", received, ({ req, url, body: text, json }) => {
    if (req.method !== "POST" || url.pathname !== "/emails") return json(404, { name: "not_found" });
    const body = JSON.parse(text) as ReceivedMail["body"];
    received.push({ authorization: req.headers.authorization ?? null, contentType: req.headers["content-type"] ?? null, body });
    const to = body.to?.[0] ?? "";
    if (to.startsWith("hang-up")) return void req.socket.destroy();
    if (to.startsWith("fail-500")) {
      return json(500, {
        statusCode: 500,
        name: "internal_server_error",
        message: `failed for ${req.headers.authorization}: ${body.text}`,
      });
    }
    if (req.headers.authorization !== `Bearer ${key}`) return json(401, { statusCode: 401, name: "missing_api_key", message: "bad key" });
    return json(200, { id: randomBytes(8).toString("hex") });
  });
}
