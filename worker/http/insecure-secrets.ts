// A deployment that kept a public example secret: `.dev.vars.example` (copied to .dev.vars by
// `npm start`) holds working values of RECEIPT_SECRET and DATA_ENCRYPTION_KEYS so the app runs
// locally, and the repository is public. With either in production, anyone could forge answer
// receipts and idempotency fingerprints, or open every sealed TOTP secret and bank account number
// of a leaked database. `npm run deploy` cannot read secret values, so the Worker checks itself:
// on any host but loopback it answers every /api request with 503 insecure_configuration (and
// /api/health says insecureSecrets) until the operator sets real values. Local runs are untouched.
import { createMiddleware } from "hono/factory";
import type { ApiErrorBody } from "../../common/api/errors";
import { ERRORS } from "../../common/messages";
import { isLocalhost } from "../auth/session";
import type { AppEnv } from "./app-env";
import { EXAMPLE_SECRETS } from "./example-secrets";

type SecretName = keyof typeof EXAMPLE_SECRETS;

/** The secrets that still have their example value. */
export function exampleSecretsIn(env: Partial<Record<SecretName, string>>): SecretName[] {
  return (Object.keys(EXAMPLE_SECRETS) as SecretName[]).filter((name) => env[name]?.trim() === EXAMPLE_SECRETS[name]);
}

/** True when this request reaches a real host while an example secret is configured. */
export function insecureDeployment(env: Partial<Record<SecretName, string>>, url: string): boolean {
  if (isLocalhost(url)) return false;
  const names = exampleSecretsIn(env);
  if (names.length === 0) return false;
  console.error(`REFUSING TO SERVE: ${names.join(", ")} still has the public example value of .dev.vars.example`);
  return true;
}

/** Ahead of every /api route: 503 insecure_configuration on a real host with an example secret. */
export const refuseInsecureSecrets = createMiddleware<AppEnv>(async (c, next) => {
  if (insecureDeployment(c.env, c.req.url)) {
    return c.json({ code: "insecure_configuration", message: ERRORS.insecureConfiguration } satisfies ApiErrorBody, 503);
  }
  return next();
});
