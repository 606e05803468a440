// `npm run deploy`: what an operator runs. Remote migrations, the catalogue seed (idempotent:
// categories and questions only), the SPA build, then `wrangler deploy`.
import { run } from "./run";

run("wrangler", ["d1", "migrations", "apply", "DB", "--remote"]);
run("tsx", ["scripts/seed.ts", "--remote"]);
run("vite", ["build"]);
run("wrangler", ["deploy"]);
