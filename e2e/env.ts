// Shared by the browser tests' server (serve.ts), their config and their fixtures.

/** Local state of the e2e server (D1, Durable Objects); wiped at every run. */
export const E2E_PERSIST_TO = ".wrangler/e2e";

export const E2E_PORT = Number(process.env.E2E_PORT ?? 8799);
export const E2E_BASE_URL = `http://localhost:${E2E_PORT}`;
