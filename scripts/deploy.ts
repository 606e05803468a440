// `npm run deploy [-- --demo-questions] [-- --dry-run]`: what an operator runs. Remote
// migrations, the catalogue seed (idempotent: categories, and the public demo questions only with
// --demo-questions), the SPA build, then `wrangler deploy`. --dry-run prints the plan only.
import { deployPlan, describePlan } from "./deploy-plan";
import { run } from "./run";

const plan = deployPlan(process.argv.slice(2));
console.log(describePlan(plan));
for (const warning of plan.warnings) console.warn(`\n${warning}\n`);
if (!plan.dryRun) for (const [cmd, args] of plan.commands) run(cmd, args);
