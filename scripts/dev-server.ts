// Prepares a local environment (dev vars, migrated and seeded D1, built SPA) and serves it with
// `wrangler dev`. Used by `npm start`, the browser tests and the benchmark.
import { spawn, type ChildProcess } from "node:child_process";
import { appendFileSync, copyFileSync, existsSync, readFileSync } from "node:fs";
import { run } from "./run";

export interface DevServerOptions {
  port: number;
  /** Local state directory (D1, Durable Objects); a fresh one gives a fresh database. */
  persistTo?: string;
  demo?: boolean;
  build?: boolean;
  /** Extra `--var NAME:VALUE` bindings for wrangler dev. */
  vars?: Record<string, string>;
  quiet?: boolean;
  /** Extra arguments for `wrangler dev` (the benchmark serves a prebuilt Worker and its own assets). */
  devArgs?: string[];
  /**
   * The persist directory already holds this server's migrated and seeded database and the web app
   * is built: a server started again after a kill skips the migrations, the seed and the build, and
   * comes back as fast as wrangler dev starts (a restart mid-show must fit inside a question's window).
   */
  prepared?: boolean;
  /**
   * Runs wrangler dev and its workerd in a process group of their own, so that `kill()` ends them
   * all at once the way a crash or a deploy does. Off by default: a server in the caller's group
   * also stops when the terminal's Ctrl-C reaches the group.
   */
  ownProcessGroup?: boolean;
  /** Extra environment for wrangler (the benchmark's two-session row gives both sessions a dev registry of their own). */
  env?: Record<string, string>;
  /** Run the cron handler once the server answers (default). A second session on the same D1 leaves that to the first. */
  schedule?: boolean;
  /**
   * false: without wrangler dev's local trace collector (X_LOCAL_OBSERVABILITY=false). By default
   * wrangler attaches a streaming tail worker to the Worker that turns every invocation (each
   * socket message is one) into trace events, in JavaScript, in the same workerd process: about
   * half of that process's CPU per socket answer here. Production has no such worker in the
   * Worker's process, so the benchmark measures without it (README, Performance).
   */
  localTraces?: boolean;
}

export interface DevServer {
  url: string;
  process: ChildProcess;
  /** Runs the cron handler once (the scheduler that keeps tournaments supplied). */
  runSchedule(): Promise<void>;
  stop(): Promise<void>;
  /** SIGKILL to wrangler dev's whole process group (workerd included): nothing gets to shut down. Needs `ownProcessGroup`. */
  kill(): Promise<void>;
}

/**
 * Local settings: .dev.vars.example copied to .dev.vars the first time; later, a setting the
 * example gained since is appended with its example value (the developer's own values stay).
 */
export function ensureDevVars() {
  if (!existsSync(".dev.vars")) return copyFileSync(".dev.vars.example", ".dev.vars");
  const names = (text: string) => new Set([...text.matchAll(/^\s*([A-Z][A-Z0-9_]*)\s*=/gm)].map((m) => m[1]!));
  const mine = names(readFileSync(".dev.vars", "utf8"));
  const missing = readFileSync(".dev.vars.example", "utf8")
    .split("\n")
    .filter((line) => [...names(line)].some((n) => !mine.has(n)));
  if (missing.length > 0) appendFileSync(".dev.vars", `\n${missing.join("\n")}\n`);
}

export async function startDevServer(opts: DevServerOptions): Promise<DevServer> {
  ensureDevVars();
  const persist = opts.persistTo ? ["--persist-to", opts.persistTo] : [];
  if (!opts.prepared) {
    run("wrangler", ["d1", "migrations", "apply", "DB", "--local", ...persist], { quiet: true });
    run("tsx", ["scripts/seed.ts", "--local", ...(opts.demo ? ["--demo"] : []), ...persist]);
    if (opts.build !== false) run("vite", ["build", "--logLevel", "warn"]);
  }

  // Local runs pay with the sandbox's test cards; wrangler.toml's own value (stripe) is what deploys.
  // Mail sent from the cron (event reminders) links to this server, whatever its port.
  const vars = Object.entries({ PAYMENT_PROVIDER: "sandbox", SITE_URL: `http://localhost:${opts.port}`, ...opts.vars }).flatMap(
    ([k, v]) => ["--var", `${k}:${v}`],
  );
  const child = spawn(
    "wrangler",
    [
      "dev",
      ...(opts.devArgs ?? []),
      "--port",
      String(opts.port),
      "--ip",
      "127.0.0.1",
      "--test-scheduled",
      "--show-interactive-dev-session=false",
      ...persist,
      ...vars,
    ],
    {
      stdio: opts.quiet ? ["ignore", "pipe", "pipe"] : ["ignore", "inherit", "inherit"],
      env: {
        ...process.env,
        WRANGLER_SEND_METRICS: "false",
        ...(opts.localTraces === false ? { X_LOCAL_OBSERVABILITY: "false" } : {}),
        ...opts.env,
      },
      detached: opts.ownProcessGroup === true,
    },
  );
  let log = "";
  child.stdout?.on("data", (d) => (log += d));
  child.stderr?.on("data", (d) => (log += d));
  const url = `http://localhost:${opts.port}`;
  await waitFor(`${url}/api/health`, child, () => log);

  const server: DevServer = {
    url,
    process: child,
    async runSchedule() {
      // /cdn-cgi/handler/scheduled, not /__scheduled: with static assets the SPA's fallback
      // answers /__scheduled (200, index.html) and the cron handler never runs.
      const res = await fetch(`${url}/cdn-cgi/handler/scheduled?cron=*/5+*+*+*+*`);
      const text = await res.text();
      if (!res.ok || text.trim() !== "ok") throw new Error(`scheduled handler failed: ${res.status} ${text.slice(0, 200)}`);
    },
    stop: () =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill("SIGTERM");
        setTimeout(() => child.kill("SIGKILL"), 5000).unref();
      }),
    async kill() {
      if (!opts.ownProcessGroup) throw new Error("kill() needs a server started with ownProcessGroup");
      // The negative pid is the group: wrangler and the workerd processes it started.
      const group = -child.pid!;
      try {
        process.kill(group, "SIGKILL");
      } catch {
        return; // the group has already gone
      }
      // Back once no process of the group is left (the port is free for a new server).
      const deadline = Date.now() + 10_000;
      for (;;) {
        try {
          process.kill(group, 0);
        } catch {
          return;
        }
        if (Date.now() > deadline) throw new Error(`wrangler dev's processes (group ${child.pid}) outlived SIGKILL by 10 s`);
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
  if (opts.schedule !== false) await server.runSchedule();
  return server;
}

async function waitFor(url: string, child: ChildProcess, log: () => string) {
  const deadline = Date.now() + 120_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited (${child.exitCode}):\n${log()}`);
    try {
      const res = await fetch(url);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`wrangler dev did not answer ${url} within 120 s:\n${log()}`);
}
