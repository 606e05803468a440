// Small helpers for the project's Node scripts.
import { spawnSync } from "node:child_process";

/**
 * Runs a command from node_modules/.bin (or PATH) and stops the script if it fails. `retryOn`: a
 * failure whose output matches is tried again, up to 5 times, a second apart (quiet runs only).
 */
export function run(cmd: string, args: string[], opts: { quiet?: boolean; retryOn?: RegExp } = {}): string {
  let res = spawnSync(cmd, args, { stdio: opts.quiet ? ["ignore", "pipe", "pipe"] : "inherit", encoding: "utf8", shell: false });
  for (let attempt = 1; attempt <= 5 && res.status !== 0 && opts.retryOn?.test(`${res.stdout ?? ""}${res.stderr ?? ""}`); attempt++) {
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
    res = spawnSync(cmd, args, { stdio: ["ignore", "pipe", "pipe"], encoding: "utf8", shell: false });
  }
  if (res.status !== 0) {
    if (opts.quiet) process.stderr.write(`${res.stdout ?? ""}${res.stderr ?? ""}`);
    throw new Error(`${cmd} ${args.join(" ")} exited with ${res.status}`);
  }
  return res.stdout ?? "";
}
