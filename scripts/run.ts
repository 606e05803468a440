// Small helpers for the project's Node scripts.
import { spawnSync } from "node:child_process";

/** Runs a command from node_modules/.bin (or PATH) and stops the script if it fails. */
export function run(cmd: string, args: string[], opts: { quiet?: boolean } = {}): string {
  const res = spawnSync(cmd, args, { stdio: opts.quiet ? ["ignore", "pipe", "pipe"] : "inherit", encoding: "utf8", shell: false });
  if (res.status !== 0) {
    if (opts.quiet) process.stderr.write(`${res.stdout ?? ""}${res.stderr ?? ""}`);
    throw new Error(`${cmd} ${args.join(" ")} exited with ${res.status}`);
  }
  return res.stdout ?? "";
}
