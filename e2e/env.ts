// Shared by the browser tests' server (serve.ts), their config and their fixtures.

/** Local state of the e2e server (D1, Durable Objects); wiped at every run. */
export const E2E_PERSIST_TO = ".wrangler/e2e";

export const E2E_PORT = Number(process.env.E2E_PORT ?? 8799);
export const E2E_BASE_URL = `http://localhost:${E2E_PORT}`;

/** The Worker's settings for the journeys' servers (serve.ts, and a journey's own server), on top of wrangler.toml's. */
export const E2E_SERVER_VARS = {
  // Every journey registers its own accounts, all from this one machine's address: the
  // per-address sign-up and login limits (10 and 30) would otherwise refuse the later ones.
  REGISTER_LIMIT_PER_IP: "100000",
  LOGIN_LIMIT_PER_IP: "100000",
  // Several journeys create prize tournaments in the same category of the demo bank and practise in
  // it: the once-only rule would leave the later ones without questions (it has Worker tests).
  DEMO_QUESTION_REUSE: "on",
  // Small enough that journey 25's live show of 300 seats runs on three play shards, and at least
  // every other journey's capacity (at most 50 seats; a custom tournament at most CUSTOM_SEATS_MAX,
  // 100), so theirs stay on one room as with the default 1,300.
  TOURNAMENT_SHARD_SIZE: "100",
};
