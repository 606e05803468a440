// Makes a player an operator (users.role = 'admin'), who may then work the payout queue at
// /api/admin/payouts once their account has two-factor authentication on. `npm run admin:grant -- <username> [--remote] [--revoke] [--persist-to DIR]`
// Local D1 by default; --remote changes production. --revoke makes the account a player again.
import { run } from "./run";

const argv = process.argv.slice(2);
const flags = new Set(argv.filter((a) => a.startsWith("--")));
const persistAt = argv.indexOf("--persist-to");
const persistDir = persistAt >= 0 ? argv[persistAt + 1] : undefined;
const positional = argv.filter((a, i) => !a.startsWith("--") && !(persistAt >= 0 && i === persistAt + 1));
const username = positional[0];

// Registration allows only these characters, so the name can be put in SQL as a literal safely.
if (!username || positional.length > 1 || !/^[A-Za-z0-9_.-]{3,30}$/.test(username)) {
  console.error("usage: npm run admin:grant -- <username> [--remote] [--revoke] [--persist-to DIR]");
  process.exit(2);
}
for (const f of flags) {
  if (!["--remote", "--revoke", "--persist-to"].includes(f)) {
    console.error(`unknown option ${f}`);
    process.exit(2);
  }
}

const role = flags.has("--revoke") ? "player" : "admin";
const target = flags.has("--remote") ? "--remote" : "--local";
const sql = `UPDATE users SET role = '${role}' WHERE lower(username) = lower('${username}') AND deleted_at IS NULL RETURNING id, username, role`;
const out = run(
  "wrangler",
  ["d1", "execute", "DB", target, "--json", "--command", sql, ...(persistDir ? ["--persist-to", persistDir] : [])],
  // Locally a running dev server may hold the D1 file's write lock for a moment.
  { quiet: true, retryOn: /SQLITE_BUSY/ },
);

const [first] = JSON.parse(out) as { results?: { id: number; username: string; role: string }[] }[];
const user = first?.results?.[0];
if (!user) {
  console.error(`No account named "${username}" in the ${target.slice(2)} database.`);
  process.exit(1);
}
console.log(
  `${user.username} (id ${user.id}) is now ${user.role === "admin" ? "an operator (admin)" : "a player"} in the ${target.slice(2)} database.`,
);
// The operators' routes refuse an operator without two-factor authentication.
if (user.role === "admin") {
  console.log("They must enable two-factor authentication (profile, Security) before the operators' routes answer.");
  // docs/operating.md, "Making a player an operator": the room removes staff seats at each start.
  console.log(
    "Staff cannot play for prizes: their seats in upcoming prize tournaments are removed, and the entry fees refunded, when each starts.",
  );
}
