// What `npm run deploy` does, as data: the commands in order and the seed they load. Pure, so a
// test can read the plan without running anything.
import { catalogueSql, seedSummary } from "./seed-sql";

export const DEMO_QUESTIONS_WARNING =
  "WARNING: --demo-questions loads the demo question bank into production. Its questions and answers are " +
  "public in the repository, so anyone can look them up: do not run prize tournaments on it. Import your own " +
  "questions instead (POST /api/admin/questions/import, docs/questions.md).";

export interface DeployPlan {
  /** [command, args] in the order they run. */
  commands: [string, string[]][];
  seed: { statements: string[]; categories: number; questions: number; other: number };
  warnings: string[];
  dryRun: boolean;
}

export function deployPlan(argv: readonly string[]): DeployPlan {
  const args = new Set(argv);
  const unknown = argv.filter((a) => a !== "--demo-questions" && a !== "--dry-run");
  if (unknown.length > 0) throw new Error(`deploy: unknown option ${unknown.join(" ")} (known: --demo-questions, --dry-run)`);
  const demoQuestions = args.has("--demo-questions");
  const statements = catalogueSql({ demoQuestions });
  return {
    commands: [
      ["wrangler", ["d1", "migrations", "apply", "DB", "--remote"]],
      ["tsx", ["scripts/seed.ts", "--remote", ...(demoQuestions ? ["--demo-questions"] : [])]],
      ["vite", ["build"]],
      ["wrangler", ["deploy"]],
    ],
    seed: { statements, ...seedSummary(statements) },
    warnings: demoQuestions ? [DEMO_QUESTIONS_WARNING] : [],
    dryRun: args.has("--dry-run"),
  };
}

/** The plan in words, as `--dry-run` prints it. */
export function describePlan(plan: DeployPlan): string {
  const lines = [
    plan.dryRun ? "Deploy plan (dry run: nothing is run):" : "Deploy plan:",
    ...plan.commands.map(([cmd, args], i) => `  ${i + 1}. ${[cmd, ...args].join(" ")}`),
    `  seed: ${plan.seed.statements.length} statements: ${plan.seed.categories} category, ${plan.seed.questions} question` +
      (plan.seed.questions === 0 ? " (categories only; import questions with POST /api/admin/questions/import)" : ""),
    ...plan.warnings,
  ];
  return lines.join("\n");
}
