// `npm run deploy [-- --demo-questions] [-- --sandbox-staging] [-- --dry-run]`: what an operator
// runs. Remote migrations, the catalogue seed (idempotent: categories, and the public demo
// questions only with --demo-questions), the SPA build, then `wrangler deploy`. It refuses while
// payments are not production-ready (deploy-plan.ts). --dry-run prints the plan only.
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import {
  deployPlan,
  describePlan,
  exampleValues,
  SECRET_LIST_COMMAND,
  secretNames,
  varsFromWranglerToml,
  wranglerDeploySettings,
} from "./deploy-plan";
import { run } from "./run";

/** The deployed Worker's secret names; null when wrangler cannot list them (not signed in, no Worker yet). */
function workerSecrets(): string[] | null {
  const [cmd, args] = SECRET_LIST_COMMAND;
  const res = spawnSync(cmd, args, { encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] });
  return res.status === 0 ? secretNames(res.stdout) : null;
}

const wranglerToml = readFileSync("wrangler.toml", "utf8");
const plan = deployPlan(process.argv.slice(2), {
  vars: varsFromWranglerToml(wranglerToml),
  settings: wranglerDeploySettings(wranglerToml),
  secrets: workerSecrets(),
  exampleVars: exampleValues(readFileSync(".dev.vars.example", "utf8")),
});
console.log(describePlan(plan));
for (const warning of plan.warnings) console.warn(`\n${warning}\n`);
if (plan.refusals.length > 0 && !plan.dryRun) {
  console.error("\nNot deployed: fix the refusals above first.");
  process.exit(1);
}
if (!plan.dryRun) for (const [cmd, args] of plan.commands) run(cmd, args);
