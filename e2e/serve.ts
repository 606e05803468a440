// The app as the journeys see it: wrangler dev on a fresh local database, seeded with the
// catalogue only (no demo data), so every journey starts from what it creates itself.
import { rmSync } from "node:fs";
import { startDevServer } from "../scripts/dev-server";
import { E2E_PERSIST_TO } from "./env";

const port = Number(process.argv[2] ?? 8799);
rmSync(E2E_PERSIST_TO, { recursive: true, force: true });
const server = await startDevServer({
  port,
  persistTo: E2E_PERSIST_TO,
  demo: false,
  quiet: true,
  // Every journey registers its own accounts, all from this one machine's address: the
  // per-address sign-up and login limits (10 and 30) would otherwise refuse the later ones.
  vars: {
    REGISTER_LIMIT_PER_IP: "100000",
    LOGIN_LIMIT_PER_IP: "100000",
    // Several journeys create prize tournaments in the same category of the demo bank and practise in
    // it: the once-only rule would leave the later ones without questions (it has Worker tests).
    DEMO_QUESTION_REUSE: "on",
  },
});
console.log(`e2e server on ${server.url}`);
const stop = () => server.stop().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
