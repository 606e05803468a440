// The load generator's own health while it measures: its CPU time and how late its event loop
// ran. A figure taken while the generator was saturated says more about this process than about
// the server, so every socket scenario reports these beside its latencies.
import { monitorEventLoopDelay } from "node:perf_hooks";
import { now, round } from "./stats";

export interface LoadGenReport {
  /** CPU seconds this process used (user + system) during the phase. */
  cpuSeconds: number;
  /** That CPU as a share of one core over the phase's wall time. */
  cpuShareOfOneCore: number;
  /** Event-loop delay: how late timers ran (ms). */
  eventLoopLagMs: { p50: number; p99: number; max: number };
}

export function watchLoadGenerator(): { stop(): LoadGenReport } {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  const cpu = process.cpuUsage();
  const started = now();
  return {
    stop() {
      histogram.disable();
      const used = process.cpuUsage(cpu);
      const seconds = (used.user + used.system) / 1e6;
      const wall = (now() - started) / 1000;
      return {
        cpuSeconds: round(seconds, 2),
        cpuShareOfOneCore: round(seconds / Math.max(wall, 0.001), 2),
        eventLoopLagMs: {
          p50: round(histogram.percentile(50) / 1e6, 1),
          p99: round(histogram.percentile(99) / 1e6, 1),
          max: round(histogram.max / 1e6, 1),
        },
      };
    },
  };
}
