// The processes of `wrangler dev`: the workerd that runs the Worker (with its Durable Objects
// and the local D1) on a loopback port of its own, and the proxy workerd that wrangler puts in
// front of it on the public port (a development artefact: it logs each request through
// wrangler's Node process, and every socket through it costs descriptors in both processes).
// The harness drives the Worker's own port, the address the proxy forwards to, and reads the
// Worker process's CPU time and open descriptors from /proc.
import { readdirSync, readFileSync, readlinkSync } from "node:fs";
import http from "node:http";

function children(pid: number): number[] {
  const out: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (ppid === pid) out.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return out;
}

function descendants(pid: number): number[] {
  const out: number[] = [];
  const queue = [pid];
  while (queue.length) {
    for (const c of children(queue.shift()!)) {
      out.push(c);
      queue.push(c);
    }
  }
  return out;
}

/** The process's listening TCP ports, in the order of their file descriptors (oldest first). */
function listeningPorts(pid: number): number[] {
  const portByInode = new Map<string, number>();
  for (const line of readFileSync(`/proc/${pid}/net/tcp`, "utf8").split("\n").slice(1)) {
    const cols = line.trim().split(/\s+/);
    if (cols.length >= 10 && cols[3] === "0A") portByInode.set(cols[9]!, parseInt(cols[1]!.split(":")[1]!, 16));
  }
  const ports: number[] = [];
  const fds = readdirSync(`/proc/${pid}/fd`)
    .map(Number)
    .sort((a, b) => a - b);
  for (const fd of fds) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`));
      const port = m ? portByInode.get(m[1]!) : undefined;
      if (port !== undefined) ports.push(port);
    } catch {
      // closed meanwhile
    }
  }
  return ports;
}

function health(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const req = http.get({ host: "127.0.0.1", port, path: "/api/health", timeout: 2000 }, (res) => {
      let body = "";
      res.on("data", (c) => (body += c));
      res.on("end", () => resolve(res.statusCode === 200 && body.includes('"ok":true')));
    });
    req.on("timeout", () => req.destroy());
    req.on("error", () => resolve(false));
  });
}

export interface ServerProcesses {
  /** The workerd running the Worker, its Durable Objects and the local D1, and its entry port. */
  worker: { pid: number; port: number } | null;
  /** The workerd of wrangler's proxy on the public port. */
  proxyPid: number | null;
}

/** The two workerd processes under `wranglerPid`. */
export async function findServerProcesses(wranglerPid: number, publicPort: number): Promise<ServerProcesses> {
  const out: ServerProcesses = { worker: null, proxyPid: null };
  for (const pid of descendants(wranglerPid)) {
    let cmd: string;
    try {
      cmd = readFileSync(`/proc/${pid}/cmdline`, "utf8");
    } catch {
      continue;
    }
    if (!cmd.includes("workerd")) continue;
    if (cmd.includes(`entry=127.0.0.1:${publicPort}`)) out.proxyPid = pid;
    if (!cmd.includes("--inspector-addr") || out.worker) continue;
    const inspector = Number(/--inspector-addr=[^\0]*:(\d+)/.exec(cmd)?.[1]);
    // The entry socket is opened first; the debug port (Cap'n Proto, which logs a warning when
    // it is sent HTTP) later, so the oldest listening socket is tried first.
    for (const port of listeningPorts(pid)) {
      if (port !== publicPort && port !== inspector && (await health(port))) {
        out.worker = { port, pid };
        break;
      }
    }
  }
  return out;
}

/** CPU time (user + system) a process has used so far, in seconds; 0 when it is gone. */
export function cpuSeconds(pid: number | null | undefined): number {
  if (!pid) return 0;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // Fields 14 and 15 of stat (utime, stime), counted after the command name; USER_HZ is 100 on Linux.
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return 0;
  }
}

/** Whether a process still runs. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Open file descriptors of a process (for the report). */
export function openFds(pid: number): number {
  try {
    return readdirSync(`/proc/${pid}/fd`).length;
  } catch {
    return -1;
  }
}

export { descendants };

/**
 * How many more TCP connections a process can take: workerd holds two descriptors for each
 * (the accepted socket and a duplicate), so this is half of what its open-files limit leaves.
 */
export function connectionHeadroom(pid: number, reserve = 400): { limit: number; open: number; connections: number } {
  const line = readFileSync(`/proc/${pid}/limits`, "utf8")
    .split("\n")
    .find((l) => l.startsWith("Max open files"));
  const limit = Number(line?.trim().split(/\s+/)[3] ?? 1024);
  const open = openFds(pid);
  return { limit, open, connections: Math.max(0, Math.floor((limit - open - reserve) / 2)) };
}
