import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import {
  DEMO_QUESTIONS_WARNING,
  deployPlan as plan,
  describePlan,
  exampleValues,
  NO_ROUTE_WARNING,
  secretNames,
  varsFromWranglerToml,
  wranglerDeploySettings,
  type DeployFacts,
} from "./deploy-plan";
import { QUESTION_BANK } from "../worker/seed/question-bank";
import { SEED_CATEGORIES } from "../worker/seed/categories";

const bankSize = Object.values(QUESTION_BANK).flat().length;

const devVarsExample = readFileSync(new URL("../.dev.vars.example", import.meta.url), "utf8");

/** A Worker ready for production: Stripe chosen, its keys and the receipt secret set. */
const ready: DeployFacts = {
  vars: { PAYMENT_PROVIDER: "stripe", STRIPE_PUBLISHABLE_KEY: "pk_live_x", SANDBOX_HOSTS: "", SITE_URL: "https://arena.example.com" },
  secrets: ["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "RECEIPT_SECRET", "DATA_ENCRYPTION_KEYS"],
  exampleVars: exampleValues(devVarsExample),
};
const deployPlan = (argv: string[], facts: DeployFacts = ready) => plan(argv, facts);

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

describe("deployPlan: payments", () => {
  it("deploys a Stripe Worker whose secrets are set, with no refusal", () => {
    expect(deployPlan([]).refusals).toEqual([]);
  });

  it("refuses a sandbox deployment: its test card adds money", () => {
    const p = deployPlan([], { ...ready, vars: { ...ready.vars, PAYMENT_PROVIDER: "sandbox" } });
    expect(p.refusals).toEqual([expect.stringMatching(/PAYMENT_PROVIDER is "sandbox".*--sandbox-staging/)]);
  });

  it.each(["STRIPE_SECRET_KEY", "STRIPE_WEBHOOK_SECRET", "RECEIPT_SECRET", "DATA_ENCRYPTION_KEYS"])(
    "refuses when the secret %s is not set on the Worker",
    (name) => {
      const p = deployPlan([], { ...ready, secrets: ready.secrets!.filter((s) => s !== name) });
      expect(p.refusals).toEqual([expect.stringContaining(`wrangler secret put ${name}`)]);
    },
  );

  it("refuses without Stripe's publishable key, which the card form needs", () => {
    const p = deployPlan([], { ...ready, vars: { ...ready.vars, STRIPE_PUBLISHABLE_KEY: "" } });
    expect(p.refusals).toEqual([expect.stringContaining("STRIPE_PUBLISHABLE_KEY")]);
  });

  it("refuses DEMO_QUESTION_REUSE in wrangler.toml or as a secret: shown answers never decide a deployed prize", () => {
    const inVars = deployPlan([], { ...ready, vars: { ...ready.vars, DEMO_QUESTION_REUSE: "on" } });
    expect(inVars.refusals).toEqual([expect.stringMatching(/DEMO_QUESTION_REUSE is set in wrangler.toml/)]);
    const asSecret = deployPlan([], { ...ready, secrets: [...ready.secrets!, "DEMO_QUESTION_REUSE"] });
    expect(asSecret.refusals).toEqual([expect.stringMatching(/DEMO_QUESTION_REUSE is set as a secret/)]);
  });

  it("refuses wrangler.toml [vars] that carry a value of .dev.vars.example (its public example secrets)", () => {
    const examples = exampleValues(devVarsExample);
    expect(examples.RECEIPT_SECRET).toBe("local-development-receipt-secret");
    expect(examples.DATA_ENCRYPTION_KEYS).toMatch(/^dev1:/);
    const receipt = deployPlan([], { ...ready, vars: { ...ready.vars, RECEIPT_SECRET: examples.RECEIPT_SECRET! } });
    expect(receipt.refusals).toEqual([
      expect.stringMatching(/RECEIPT_SECRET in wrangler.toml \[vars\] is the example value of .dev.vars.example/),
    ]);
    const keys = deployPlan([], { ...ready, vars: { ...ready.vars, DATA_ENCRYPTION_KEYS: ` ${examples.DATA_ENCRYPTION_KEYS!} ` } });
    expect(keys.refusals).toEqual([expect.stringContaining("DATA_ENCRYPTION_KEYS")]);
    // Another value is not this check's business, nor an empty example (Stripe's keys).
    expect(deployPlan([], { ...ready, vars: { ...ready.vars, RECEIPT_SECRET: "a-real-long-random-value" } }).refusals).toEqual([]);
    expect(deployPlan([], { ...ready, vars: { ...ready.vars, STRIPE_SECRET_KEY: "" } }).refusals).toEqual([]);
  });

  it("the Worker's own list of example secrets (which it refuses to serve with) matches .dev.vars.example", async () => {
    const { EXAMPLE_SECRETS } = await import("../worker/http/example-secrets");
    const examples = exampleValues(devVarsExample);
    expect(Object.keys(EXAMPLE_SECRETS).sort()).toEqual(["DATA_ENCRYPTION_KEYS", "RECEIPT_SECRET"]);
    for (const [name, value] of Object.entries(EXAMPLE_SECRETS)) expect(value, name).toBe(examples[name]);
  });

  it("refuses when the Worker's secrets cannot be read, rather than guessing", () => {
    const p = deployPlan([], { ...ready, secrets: null });
    expect(p.refusals).toEqual([expect.stringMatching(/could not list the Worker's secrets/)]);
  });

  it("--sandbox-staging deploys the sandbox for the hosts SANDBOX_HOSTS names, still needing RECEIPT_SECRET", () => {
    const staging: DeployFacts = {
      ...ready,
      vars: { ...ready.vars, STRIPE_PUBLISHABLE_KEY: "", SANDBOX_HOSTS: "staging.example.com" },
      secrets: ["RECEIPT_SECRET", "DATA_ENCRYPTION_KEYS"],
    };
    const p = deployPlan(["--sandbox-staging"], staging);
    expect(p.refusals).toEqual([]);
    expect(p.commands.at(-1)).toEqual(["wrangler", ["deploy", "--var", "PAYMENT_PROVIDER:sandbox"]]);
    expect(p.warnings).toEqual([expect.stringMatching(/sandbox.*staging\.example\.com/)]);
    expect(deployPlan(["--sandbox-staging"], { ...staging, vars: { ...staging.vars, SANDBOX_HOSTS: " " } }).refusals).toEqual([
      expect.stringContaining("SANDBOX_HOSTS"),
    ]);
    expect(deployPlan(["--sandbox-staging"], { ...staging, secrets: ["DATA_ENCRYPTION_KEYS"] }).refusals).toEqual([
      expect.stringContaining("RECEIPT_SECRET"),
    ]);
  });

  it.each(["http://localhost:8787", "", "https://127.0.0.1", "http://arena.example.com", "arena.example.com"])(
    "refuses SITE_URL %j: reminder mails must link to the site's own https address",
    (site) => {
      const p = deployPlan([], { ...ready, vars: { ...ready.vars, SITE_URL: site } });
      expect(p.refusals).toEqual([expect.stringContaining("SITE_URL")]);
    },
  );

  it("describes the refusals, and a dry run still shows them", () => {
    const p = deployPlan(["--dry-run"], { ...ready, secrets: [] });
    expect(p.refusals.length).toBe(4);
    expect(describePlan(p)).toContain("Refused:");
  });

  it("reads the repository's wrangler.toml: production defaults to Stripe with no sandbox host", () => {
    const vars = varsFromWranglerToml(readFileSync(new URL("../wrangler.toml", import.meta.url), "utf8"));
    expect(vars.PAYMENT_PROVIDER).toBe("stripe");
    expect(vars.SANDBOX_HOSTS).toBe("");
    expect(vars.DEPOSIT_HOLD_HOURS).toBe("72");
  });

  it("reads the repository's wrangler.toml: logs on, source maps uploaded, no workers.dev address and no preview URLs", () => {
    const settings = wranglerDeploySettings(readFileSync(new URL("../wrangler.toml", import.meta.url), "utf8"));
    expect(settings).toEqual({ workersDev: false, previewUrls: false, uploadSourceMaps: true, observability: true, routed: false });
  });

  it("warns that a deploy without a route or custom domain answers nowhere, and not once a route is set", () => {
    const unrouted = wranglerDeploySettings('name = "x"\nworkers_dev = false\n[observability]\nenabled = true\n');
    expect(deployPlan([], { ...ready, settings: unrouted }).warnings).toEqual([NO_ROUTE_WARNING]);
    const routed = wranglerDeploySettings('workers_dev = false\nroutes = [{ pattern = "trivia.example.com", custom_domain = true }]\n');
    expect(routed.routed).toBe(true);
    expect(deployPlan([], { ...ready, settings: routed }).warnings).toEqual([]);
    // wrangler's defaults where the keys are absent: workers.dev and preview URLs on, logs off.
    expect(wranglerDeploySettings('name = "x"\n[vars]\nworkers_dev = "false"\n')).toEqual({
      workersDev: true,
      previewUrls: true,
      uploadSourceMaps: false,
      observability: false,
      routed: false,
    });
  });

  it("reads the names out of `wrangler secret list --format json`", () => {
    expect(secretNames('[{"name":"RECEIPT_SECRET","type":"secret_text"},{"name":"STRIPE_SECRET_KEY","type":"secret_text"}]')).toEqual([
      "RECEIPT_SECRET",
      "STRIPE_SECRET_KEY",
    ]);
    expect(secretNames("not json")).toBeNull();
  });
});
