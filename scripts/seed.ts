// Loads the seed into D1, idempotently: `tsx scripts/seed.ts --local [--demo] [--persist-to DIR]`
// or `--remote [--demo-questions]`. Categories always. The committed question bank (the demo bank,
// answers public) locally always, since local play, the tests and the bench need questions and
// nothing is at stake there; remotely only with --demo-questions. Demo players and tournaments
// only with --demo, locally.
import { mkdirSync, writeFileSync } from "node:fs";
import { catalogueSql, demoSql, DEMO_PLAYERS } from "./seed-sql";
import { hashPassword } from "../worker/auth/password";
import { run } from "./run";

const argv = process.argv.slice(2);
const args = new Set(argv);
const target = args.has("--remote") ? "--remote" : "--local";
const demo = args.has("--demo");
const demoQuestions = target === "--local" || args.has("--demo-questions");
const persistAt = argv.indexOf("--persist-to");
const persist = persistAt >= 0 && argv[persistAt + 1] ? ["--persist-to", argv[persistAt + 1]!] : [];
if (demo && target === "--remote") throw new Error("--demo is for local development only");

const statements = catalogueSql({ demoQuestions });
if (demo) statements.push(...demoSql(Date.now(), await hashPassword("demo-password")));

mkdirSync(".wrangler", { recursive: true });
const file = ".wrangler/seed.sql";
writeFileSync(file, statements.join("\n") + "\n");
run("wrangler", ["d1", "execute", "DB", target, "--file", file, "--yes", ...persist], { quiet: true });
console.log(
  `Seeded ${target.slice(2)} D1: ${statements.length} statements${demo ? `; demo players ${DEMO_PLAYERS.join(", ")} (password "demo-password")` : ""}.`,
);
