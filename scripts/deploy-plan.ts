// What `npm run deploy` does, as data: the commands in order, the seed they load, and the
// reasons it refuses to run. Pure, so a test can read the plan without running anything: the
// facts it judges (wrangler.toml's vars, the Worker's secret names) are read by deploy.ts.
import { catalogueSql, seedSummary } from "./seed-sql";

export const DEMO_QUESTIONS_WARNING =
  "WARNING: --demo-questions loads the demo question bank into production. Its questions and answers are " +
  "public in the repository, so anyone can look them up: do not run prize tournaments on it. Import your own " +
  "questions instead (POST /api/admin/questions/import, docs/questions.md).";

const OPTIONS = ["--demo-questions", "--dry-run", "--sandbox-staging"];

/** What the deploy judges before running anything. */
export interface DeployFacts {
  /** wrangler.toml's [vars]. */
  vars: Record<string, string>;
  /** Names of the secrets set on the deployed Worker (`wrangler secret list`); null when they could not be read. */
  secrets: string[] | null;
  /** The values `.dev.vars.example` gives (public, in the repository): none may be deployed. */
  exampleVars: Record<string, string>;
  /** wrangler.toml's deployment settings; absent, nothing is said about the address. */
  settings?: WranglerDeploySettings;
}

export interface DeployPlan {
  /** [command, args] in the order they run. */
  commands: [string, string[]][];
  seed: { statements: string[]; categories: number; questions: number; other: number };
  warnings: string[];
  /** Why this deployment must not go ahead; nothing runs while there is one. */
  refusals: string[];
  dryRun: boolean;
}

/** The command that lists the Worker's secrets; its JSON names them. */
export const SECRET_LIST_COMMAND: [string, string[]] = ["wrangler", ["secret", "list", "--format", "json"]];

/** The names in `wrangler secret list --format json` output, or null when it is not that list. */
export function secretNames(json: string): string[] | null {
  try {
    const list: unknown = JSON.parse(json);
    if (!Array.isArray(list)) return null;
    return list.flatMap((s: unknown) =>
      s && typeof s === "object" && typeof (s as { name?: unknown }).name === "string" ? [(s as { name: string }).name] : [],
    );
  } catch {
    return null;
  }
}

/** The `NAME = "value"` lines of wrangler.toml's [vars] table (the only form the file uses there). */
export function varsFromWranglerToml(toml: string): Record<string, string> {
  const vars: Record<string, string> = {};
  let inVars = false;
  for (const line of toml.split("\n")) {
    const table = line.match(/^\s*\[+([^\]]+)\]+\s*$/);
    if (table) inVars = table[1]!.trim() === "vars";
    const entry = inVars && line.match(/^\s*([A-Z][A-Z0-9_]*)\s*=\s*"([^"]*)"/);
    if (entry) vars[entry[1]!] = entry[2]!;
  }
  return vars;
}

/** Where and how wrangler.toml deploys the Worker: its top-level keys and the [observability] table. */
export interface WranglerDeploySettings {
  workersDev: boolean;
  previewUrls: boolean;
  uploadSourceMaps: boolean;
  observability: boolean;
  /** A `route` or `routes` key is set (uncommented): the site's own address. */
  routed: boolean;
}

/** Reads {@link WranglerDeploySettings}; wrangler's defaults (workers.dev and preview URLs on) where a key is absent. */
export function wranglerDeploySettings(toml: string): WranglerDeploySettings {
  let table = "";
  const top: Record<string, string> = {};
  const observability: Record<string, string> = {};
  for (const line of toml.split("\n")) {
    const header = line.match(/^\s*\[+([^\]]+)\]+\s*$/);
    if (header) table = header[1]!.trim();
    const entry = line.match(/^\s*([a-z_]+)\s*=\s*(.+?)\s*$/);
    if (!entry) continue;
    if (table === "") top[entry[1]!] = entry[2]!;
    else if (table === "observability") observability[entry[1]!] = entry[2]!;
  }
  return {
    workersDev: top.workers_dev !== "false",
    previewUrls: top.preview_urls !== "false",
    uploadSourceMaps: top.upload_source_maps === "true",
    observability: observability.enabled === "true",
    routed: "route" in top || "routes" in top,
  };
}

export const NO_ROUTE_WARNING =
  "WARNING: wrangler.toml sets no route or custom domain and workers_dev = false, so the deployed Worker answers on no " +
  'address. Add `routes = [{ pattern = "your.domain", custom_domain = true }]` (README, "Deploy").';

/** The `NAME=value` lines of `.dev.vars.example` (dotenv: one per line, # comments). */
export function exampleValues(text: string): Record<string, string> {
  const values: Record<string, string> = {};
  for (const m of text.matchAll(/^\s*([A-Z][A-Z0-9_]*)\s*=(.*)$/gm)) values[m[1]!] = m[2]!.trim();
  return values;
}

/**
 * A value of `.dev.vars.example` in wrangler.toml [vars] is public (the repository) and, for a
 * secret, a working key anyone can use. Deploy cannot read the values of the Worker's secrets
 * (`wrangler secret list` names them only): a secret set to an example value is caught by the
 * Worker itself, which refuses to serve (worker/http/insecure-secrets.ts).
 */
function exampleValueRefusals(facts: DeployFacts): string[] {
  return Object.entries(facts.exampleVars).flatMap(([name, example]) => {
    // Empty examples are no value at all; DEMO_QUESTION_REUSE is refused with any value (questionRefusals).
    if (example === "" || name === "DEMO_QUESTION_REUSE") return [];
    if ((facts.vars[name] ?? "").trim() !== example) return [];
    return [
      `${name} in wrangler.toml [vars] is the example value of .dev.vars.example, which is public: remove it from wrangler.toml and ` +
        `set a real value with \`npx wrangler secret put ${name}\`.`,
    ];
  });
}

const missingSecret = (name: string, why: string) =>
  `The secret ${name} is not set on the Worker (${why}): run \`npx wrangler secret put ${name}\`.`;

/**
 * DEMO_QUESTION_REUSE lets a question decide prizes after its answer was shown: a local setting
 * for the public demo bank (docs/questions.md), never a deployed one, staging included.
 */
function questionRefusals(facts: DeployFacts): string[] {
  const inVars = (facts.vars.DEMO_QUESTION_REUSE ?? "").trim() !== "";
  const asSecret = facts.secrets?.includes("DEMO_QUESTION_REUSE") ?? false;
  if (!inVars && !asSecret) return [];
  return [
    `DEMO_QUESTION_REUSE is set ${inVars ? "in wrangler.toml [vars]" : "as a secret on the Worker"}: it reuses questions whose answers were shown, for local runs only. ` +
      (inVars ? "Remove it from wrangler.toml." : "Run `npx wrangler secret delete DEMO_QUESTION_REUSE`."),
  ];
}

/** Why these facts must not be deployed, in the operator's words; empty when they may. */
function paymentRefusals(facts: DeployFacts, sandboxStaging: boolean): string[] {
  const refusals: string[] = [];
  const has = (name: string) => facts.secrets?.includes(name) ?? false;
  if (facts.secrets === null) {
    return [
      "Nothing was checked: could not list the Worker's secrets (`wrangler secret list`). Sign in with `npx wrangler login` and set the secrets first.",
    ];
  }
  if (sandboxStaging) {
    if (!(facts.vars.SANDBOX_HOSTS ?? "").trim()) {
      refusals.push("--sandbox-staging needs SANDBOX_HOSTS in wrangler.toml [vars]: the staging host names where the test card may pay.");
    }
  } else {
    const provider = (facts.vars.PAYMENT_PROVIDER ?? "").trim();
    if (provider !== "stripe") {
      refusals.push(
        `PAYMENT_PROVIDER is "${provider}" in wrangler.toml: production takes cards with "stripe". A staging site with the sandbox deploys with --sandbox-staging.`,
      );
    }
    if (!has("STRIPE_SECRET_KEY")) refusals.push(missingSecret("STRIPE_SECRET_KEY", "without it no card payment works"));
    if (!has("STRIPE_WEBHOOK_SECRET"))
      refusals.push(missingSecret("STRIPE_WEBHOOK_SECRET", "deposits, refunds and disputes arrive by webhook"));
    if (!(facts.vars.STRIPE_PUBLISHABLE_KEY ?? "").trim())
      refusals.push("STRIPE_PUBLISHABLE_KEY is empty in wrangler.toml [vars]: the card form needs it.");
  }
  if (!has("RECEIPT_SECRET")) refusals.push(missingSecret("RECEIPT_SECRET", "it signs answer receipts"));
  if (!has("DATA_ENCRYPTION_KEYS"))
    refusals.push(
      missingSecret("DATA_ENCRYPTION_KEYS", "it encrypts two-factor secrets at rest; without it nobody can turn 2FA on or sign in with it"),
    );
  return refusals;
}

/**
 * SITE_URL is where the links in mail sent from the cron (featured events' reminders) point: on a
 * deployed site it must be that site's own https address, never the local default.
 */
function siteUrlRefusals(facts: DeployFacts): string[] {
  const raw = (facts.vars.SITE_URL ?? "").trim();
  const url = URL.canParse(raw) ? new URL(raw) : null;
  const loopback = url !== null && ["localhost", "127.0.0.1", "[::1]"].includes(url.hostname);
  if (url !== null && url.protocol === "https:" && !loopback) return [];
  return [`SITE_URL is "${raw}" in wrangler.toml [vars]: set it to this site's own https address (reminder mails link to it).`];
}

export function deployPlan(argv: readonly string[], facts: DeployFacts): DeployPlan {
  const args = new Set(argv);
  const unknown = argv.filter((a) => !OPTIONS.includes(a));
  if (unknown.length > 0) throw new Error(`deploy: unknown option ${unknown.join(" ")} (known: ${OPTIONS.join(", ")})`);
  const demoQuestions = args.has("--demo-questions");
  const sandboxStaging = args.has("--sandbox-staging");
  const statements = catalogueSql({ demoQuestions });
  const warnings = demoQuestions ? [DEMO_QUESTIONS_WARNING] : [];
  if (facts.settings && !facts.settings.workersDev && !facts.settings.routed) warnings.push(NO_ROUTE_WARNING);
  if (sandboxStaging) {
    warnings.push(
      `--sandbox-staging: the sandbox provider takes test cards (fake money) on ${facts.vars.SANDBOX_HOSTS?.trim() || "no host"}; never point real players at it.`,
    );
  }
  return {
    commands: [
      ["wrangler", ["d1", "migrations", "apply", "DB", "--remote"]],
      ["tsx", ["scripts/seed.ts", "--remote", ...(demoQuestions ? ["--demo-questions"] : [])]],
      ["vite", ["build"]],
      ["wrangler", ["deploy", ...(sandboxStaging ? ["--var", "PAYMENT_PROVIDER:sandbox"] : [])]],
    ],
    seed: { statements, ...seedSummary(statements) },
    warnings,
    refusals: [
      ...paymentRefusals(facts, sandboxStaging),
      ...questionRefusals(facts),
      ...exampleValueRefusals(facts),
      ...(facts.secrets === null ? [] : siteUrlRefusals(facts)),
    ],
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
    ...(plan.refusals.length > 0 ? ["Refused:", ...plan.refusals.map((r) => `  - ${r}`)] : []),
  ];
  return lines.join("\n");
}
