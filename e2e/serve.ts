// The app as the journeys see it: wrangler dev on a fresh local database, seeded with the
// catalogue only (no demo data), so every journey starts from what it creates itself.
import { rmSync } from "node:fs";
import { startDevServer } from "../scripts/dev-server";
import { E2E_PERSIST_TO, E2E_SERVER_VARS } from "./env";

const port = Number(process.argv[2] ?? 8799);
rmSync(E2E_PERSIST_TO, { recursive: true, force: true });
const server = await startDevServer({
  port,
  persistTo: E2E_PERSIST_TO,
  demo: false,
  quiet: true,
  vars: E2E_SERVER_VARS,
});
console.log(`e2e server on ${server.url}`);
const stop = () => server.stop().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
