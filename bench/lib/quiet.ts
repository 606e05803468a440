// Between phases: a phase that closed thousands of sockets leaves the Worker's process busy
// (each close runs the Durable Object's close handler) and holding descriptors until workerd
// releases them. The next phase starts only once both have settled, so neither its socket
// count nor its CPU figures carry the previous phase's closes; the wait itself is measured.
import { cpuSeconds, openFds } from "./direct";
import { now, round } from "./stats";

export interface QuietReport {
  /** Descriptors the Worker's process held when the wait began and when it ended. */
  fdsBefore: number;
  fdsAfter: number;
  /** Descriptors it held before the phase opened its sockets (what "released" means). */
  fdsBaseline: number;
  /** The Worker's CPU (share of one core) over the last second of the wait. */
  cpuShareAtEnd: number;
  seconds: number;
  /** False when the time limit came first: the next phase then starts with what is left. */
  settled: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until the process holds no more than `baseline + slack` descriptors and used under
 * `idleShare` of a core over one second, or until `timeoutMs`.
 */
export async function waitForQuiet(
  pid: number,
  baseline: number,
  o: { slack?: number; idleShare?: number; timeoutMs?: number } = {},
): Promise<QuietReport> {
  const slack = o.slack ?? 200;
  const idleShare = o.idleShare ?? 0.05;
  const started = now();
  const fdsBefore = openFds(pid);
  let share = 1;
  let settled = false;
  while (now() - started < (o.timeoutMs ?? 60_000)) {
    const cpu = cpuSeconds(pid);
    const t = now();
    await sleep(1000);
    share = (cpuSeconds(pid) - cpu) / ((now() - t) / 1000);
    if (openFds(pid) <= baseline + slack && share < idleShare) {
      settled = true;
      break;
    }
  }
  return {
    fdsBefore,
    fdsAfter: openFds(pid),
    fdsBaseline: baseline,
    cpuShareAtEnd: round(share, 2),
    seconds: round((now() - started) / 1000, 1),
    settled,
  };
}
