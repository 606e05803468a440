import { readFileSync } from "node:fs";
import path from "node:path";
import react from "@vitejs/plugin-react";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { configDefaults, defineConfig } from "vitest/config";

/**
 * The values the Worker tests run with for every variable a developer may set locally.
 * wrangler merges a developer's `.dev.vars` (which `npm start` creates) into the test bindings;
 * pinning each name here means that file can never change what a test sees.
 */
const TEST_VARS: Record<string, string> = {
  STRIPE_SECRET_KEY: "",
  STRIPE_WEBHOOK_SECRET: "",
  SUPPORT_EMAIL: "",
  RECEIPT_SECRET: "test-receipt-secret",
  TURNSTILE_SECRET: "",
  RESEND_API_KEY: "",
  DATA_ENCRYPTION_KEYS: "test1:eS/SfVpfoMdP4coF2m+BfwnJv2UNR3VlcA6GmgxDLz0=",
  // The tests play by the production rule: a question decides one prize and never after its answer was shown.
  DEMO_QUESTION_REUSE: "",
};

/** Every name `.dev.vars.example` lists must be pinned above, or a local file could leak into the tests. */
function assertEveryLocalVarPinned() {
  const example = readFileSync(path.join(import.meta.dirname, ".dev.vars.example"), "utf8");
  const names = [...example.matchAll(/^\s*([A-Z][A-Z0-9_]*)\s*=/gm)].map((m) => m[1]!);
  const unpinned = names.filter((n) => !(n in TEST_VARS));
  if (unpinned.length > 0) throw new Error(`vitest.config.ts: pin ${unpinned.join(", ")} in TEST_VARS`);
}

/** Bindings every Worker test project shares, plus its own. */
async function workerBindings(extra: Record<string, string>) {
  assertEveryLocalVarPinned();
  return {
    TEST_MIGRATIONS: await readD1Migrations(path.join(import.meta.dirname, "migrations")),
    ...TEST_VARS,
    // Hashing cost is not under test; at N=1024 (p=5) one hash takes ~0.4 s in a loaded pool.
    // Production keeps the real cost (worker/auth/password.ts).
    SCRYPT_N: "16",
    // wrangler.toml's production default is stripe; the Worker tests pay through the sandbox (the Stripe project sets stripe).
    PAYMENT_PROVIDER: "sandbox",
    // Play shards (decision 011): small, so a test's show of a few hundred seats is sharded; every
    // tournament the other tests make (at most 100 seats) keeps one room, as in production.
    TOURNAMENT_SHARD_SIZE: "100",
    ...extra,
  };
}

export default defineConfig({
  test: {
    projects: [
      {
        test: { name: "unit", include: ["common/**/*.test.ts", "scripts/**/*.test.ts", "bench/sim/**/*.test.ts"], environment: "node" },
      },
      {
        plugins: [
          cloudflareTest(async () => ({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              // Regions for the responsible-play tests (worker/test/responsible-play.test.ts); no other test sends these.
              bindings: await workerBindings({ BARRED_REGIONS: "US-WA,KP", REGION_MIN_AGES: "US-AL:19,US-MS:21" }),
            },
          })),
        ],
        test: {
          name: "worker",
          include: ["worker/test/**/*.test.ts"],
          // The Stripe path, the bot check and mail through the provider run in their own projects below, with their keys bound.
          exclude: [...configDefaults.exclude, "worker/test/stripe/**", "worker/test/turnstile/**", "worker/test/email/**"],
          setupFiles: ["./worker/test/apply-migrations.ts"],
        },
      },
      {
        // The real Stripe SDK inside the Worker, talking to a local Stripe test double that the
        // project's globalSetup starts on a loopback port (worker/test/stripe/stripe-mock-server.ts).
        plugins: [
          cloudflareTest(async ({ inject }) => ({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: await workerBindings({
                PAYMENT_PROVIDER: "stripe",
                STRIPE_SECRET_KEY: inject("stripeMockSecretKey"),
                STRIPE_WEBHOOK_SECRET: "whsec_test_mock_server_only",
                STRIPE_PUBLISHABLE_KEY: "pk_test_mock_server_only",
                STRIPE_API_HOST: "127.0.0.1",
                STRIPE_API_PORT: String(inject("stripeMockPort")),
                STRIPE_API_PROTOCOL: "http",
              }),
            },
          })),
        ],
        test: {
          name: "worker-stripe",
          include: ["worker/test/stripe/**/*.test.ts"],
          globalSetup: ["./worker/test/stripe/stripe-mock-server.ts"],
          setupFiles: ["./worker/test/apply-migrations.ts"],
        },
      },
      {
        // The bot check on: the Worker verifies Turnstile tokens at a local siteverify double that
        // the project's globalSetup starts on a loopback port (worker/test/turnstile/turnstile-double.ts).
        plugins: [
          cloudflareTest(async ({ inject }) => ({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: await workerBindings({
                TURNSTILE_SECRET: inject("turnstileDoubleSecret"),
                TURNSTILE_SITE_KEY: "turnstile-double-site-key",
                TURNSTILE_VERIFY_URL: `${inject("turnstileDoubleUrl")}/siteverify`,
              }),
            },
          })),
        ],
        test: {
          name: "worker-turnstile",
          include: ["worker/test/turnstile/**/*.test.ts"],
          globalSetup: ["./worker/test/turnstile/turnstile-double.ts"],
          setupFiles: ["./worker/test/apply-migrations.ts"],
        },
      },
      {
        // Mail through the provider: the Worker sends to a local Resend-speaking double that the
        // project's globalSetup starts on a loopback port (worker/test/email/resend-double.ts).
        plugins: [
          cloudflareTest(async ({ inject }) => ({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: await workerBindings({
                RESEND_API_KEY: inject("resendDoubleKey"),
                EMAIL_FROM: "Trivia Arena <no-reply@arena.test>",
                EMAIL_API_URL: `${inject("resendDoubleUrl")}/emails`,
              }),
            },
          })),
        ],
        test: {
          name: "worker-email",
          include: ["worker/test/email/**/*.test.ts"],
          globalSetup: ["./worker/test/email/resend-double.ts"],
          setupFiles: ["./worker/test/apply-migrations.ts"],
        },
      },
      {
        plugins: [react()],
        resolve: { alias: { "@": path.join(import.meta.dirname, "web/src"), "@common": path.join(import.meta.dirname, "common") } },
        test: {
          name: "web",
          include: ["web/src/**/*.test.{ts,tsx}"],
          environment: "happy-dom",
          setupFiles: ["./web/src/test/setup.ts"],
        },
      },
    ],
  },
});
