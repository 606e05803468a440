import { describe, expect, it } from "vitest";
import { DEMO_QUESTIONS_WARNING, deployPlan, describePlan } from "./deploy-plan";
import { QUESTION_BANK } from "../worker/seed/question-bank";
import { SEED_CATEGORIES } from "../worker/seed/categories";

const bankSize = Object.values(QUESTION_BANK).flat().length;

describe("deployPlan", () => {
  it("seeds categories only by default: no question insert, no warning", () => {
    const plan = deployPlan([]);
    expect(plan.seed.questions).toBe(0);
    expect(plan.seed.statements.filter((s) => /INSERT INTO questions/.test(s))).toEqual([]);
    expect(plan.seed.categories).toBe(SEED_CATEGORIES.length);
    expect(plan.warnings).toEqual([]);
    expect(plan.commands.map(([cmd, args]) => [cmd, ...args].join(" "))).toEqual([
      "wrangler d1 migrations apply DB --remote",
      "tsx scripts/seed.ts --remote",
      "vite build",
      "wrangler deploy",
    ]);
    expect(plan.dryRun).toBe(false);
  });

  it("loads the demo questions with --demo-questions, and warns that their answers are public", () => {
    const plan = deployPlan(["--demo-questions"]);
    expect(plan.seed.questions).toBe(bankSize);
    expect(plan.commands[1]).toEqual(["tsx", ["scripts/seed.ts", "--remote", "--demo-questions"]]);
    expect(plan.warnings).toEqual([DEMO_QUESTIONS_WARNING]);
    expect(DEMO_QUESTIONS_WARNING).toMatch(/answers are public/);
    expect(describePlan(plan)).toContain(DEMO_QUESTIONS_WARNING);
  });

  it("--dry-run marks the plan as not to be run and describes every command and the seed", () => {
    const plan = deployPlan(["--dry-run"]);
    expect(plan.dryRun).toBe(true);
    const text = describePlan(plan);
    expect(text).toMatch(/dry run/);
    expect(text).toContain("wrangler deploy");
    expect(text).toContain(`${SEED_CATEGORIES.length} category, 0 question`);
  });

  it("refuses an unknown option rather than deploying without it", () => {
    expect(() => deployPlan(["--demo"])).toThrow(/unknown option --demo/);
  });
});
