// `npm ci` verifies each package it downloads against the lock's `integrity`; an entry without
// one is installed unchecked. Optional builds for other platforms (workerd for macOS and Windows,
// tailwind's oxide, the import resolver's bindings) are easy to lose when the lock is written on
// one machine, so the lock must carry every platform's hash: `npm ci` checks them on all alike.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

interface LockEntry {
  version?: string;
  integrity?: string;
  link?: boolean;
  optional?: boolean;
}

const lock = JSON.parse(readFileSync(new URL("../package-lock.json", import.meta.url), "utf8")) as {
  lockfileVersion: number;
  packages: Record<string, LockEntry>;
};

describe("package-lock.json", () => {
  const installed = Object.entries(lock.packages).filter(([path, entry]) => path !== "" && !entry.link);

  it("carries an sha512 integrity for every package it installs, every platform's optional builds included", () => {
    const missing = installed.filter(([, entry]) => !/^sha512-[A-Za-z0-9+/]+=*$/.test(entry.integrity ?? "")).map(([path]) => path);
    expect(missing).toEqual([]);
  });

  it("pins a version for each of them and includes other platforms' builds (macOS, Windows)", () => {
    expect(lock.lockfileVersion).toBe(3);
    expect(installed.filter(([, entry]) => !entry.version).map(([path]) => path)).toEqual([]);
    for (const name of ["@cloudflare/workerd-darwin-arm64", "@cloudflare/workerd-windows-64", "@tailwindcss/oxide-win32-x64-msvc"]) {
      expect(lock.packages[`node_modules/${name}`]?.optional).toBe(true);
    }
  });
});
