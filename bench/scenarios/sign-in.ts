// Sign-in at production strength: players whose stored hash is scrypt N=2^14, r=8, p=5 (the
// bench's own sign-ups use a lowered N, so these are written to D1 with a real-strength hash made
// here; the Worker verifies with the parameters stored in each hash) sign in through
// POST /api/login, `lanes` at a time (the lookup, the hash, the session). Every login must answer
// 200 with its own user and a session cookie.
import { randomBytes, scrypt } from "node:crypto";
import type { HttpClient } from "../lib/http";
import { sessionCookie } from "../lib/http";
import type { Fixtures } from "../lib/fixtures";
import { now, parallel, round, Samples, type LatencySummary } from "../lib/stats";

export const PRODUCTION_SCRYPT = { N: 2 ** 14, r: 8, p: 5 } as const;

export interface SignInRun {
  logins: number;
  lanes: number;
  seconds: number;
  loginsPerSecond: number;
  latencyMs: LatencySummary;
  succeeded: number;
  scrypt: string;
  errors: number;
  errorSamples: string[];
}

/** The stored form worker/auth/password.ts reads: scrypt$N$r$p$salt$key, base64. */
function productionHash(password: string): Promise<string> {
  const salt = randomBytes(16);
  const { N, r, p } = PRODUCTION_SCRYPT;
  return new Promise((resolve, reject) =>
    scrypt(password.normalize("NFKC"), salt, 32, { N, r, p, maxmem: 256 * N * r + 1024 * 1024 }, (err, key) =>
      err ? reject(err) : resolve(`scrypt$${N}$${r}$${p}$${salt.toString("base64")}$${key.toString("base64")}`),
    ),
  );
}

export async function signIn(http: HttpClient, fx: Fixtures, o: { logins: number; lanes: number }): Promise<SignInRun> {
  const password = "bench-sign-in-password";
  const hash = await productionHash(password);
  const tag = randomBytes(4).toString("hex");
  const names = Array.from({ length: o.logins }, (_, i) => `bsi${tag}_${i}`);
  await fx.sql([
    {
      sql: `INSERT INTO users (username, email, password_hash, date_of_birth)
            SELECT j.value, j.value || '@bench.example', ?, '1990-05-17' FROM json_each(?) AS j`,
      params: [hash, JSON.stringify(names)],
    },
  ]);
  const errorSamples: string[] = [];
  let errors = 0;
  let succeeded = 0;
  const latency = new Samples();
  let next = 0;
  const started = now();
  await parallel(Math.min(o.lanes, o.logins), async () => {
    while (next < names.length) {
      const username = names[next++]!;
      const res = await http.post("/api/login", { username, password });
      latency.add(res.ms);
      if (res.status === 200 && sessionCookie(res.setCookie) && res.json?.username === username) succeeded++;
      else {
        errors++;
        if (errorSamples.length < 10) errorSamples.push(`login ${username}: ${res.status} ${res.text.slice(0, 160)}`);
      }
    }
  });
  const seconds = (now() - started) / 1000;
  return {
    logins: names.length,
    lanes: Math.min(o.lanes, o.logins),
    seconds: round(seconds, 2),
    loginsPerSecond: round(names.length / seconds, 1),
    latencyMs: latency.summary(),
    succeeded,
    scrypt: `N=${PRODUCTION_SCRYPT.N}, r=${PRODUCTION_SCRYPT.r}, p=${PRODUCTION_SCRYPT.p}`,
    errors,
    errorSamples,
  };
}
