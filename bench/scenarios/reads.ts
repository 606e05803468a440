// 4. Read path: `lanes` connections each sending one GET after another for a fixed time.
// Every reply must have the expected status (200) and pass `check` (a wrong body is an error).
import type { HttpClient } from "../lib/http";
import { diffCounters, perOp, type D1Counters, type Fixtures } from "../lib/fixtures";
import { now, parallel, round, Samples, type LatencySummary } from "../lib/stats";

export interface ReadRun {
  path: string;
  lanes: number;
  seconds: number;
  requests: number;
  requestsPerSecond: number;
  latencyMs: LatencySummary;
  responseBytes: number;
  errors: number;
  errorSamples: string[];
  d1PerRequest: D1Counters;
}

export async function readPath(
  http: HttpClient,
  fx: Fixtures,
  path: string,
  o: { lanes: number; durationMs: number; check: (json: any) => boolean; label: string; status?: number },
): Promise<ReadRun & { label: string }> {
  const latency = new Samples();
  const errorSamples: string[] = [];
  let errors = 0;
  let bytes = 0;
  const before = await fx.d1();
  const started = now();
  const stopAt = started + o.durationMs;
  await parallel(o.lanes, async () => {
    while (now() < stopAt) {
      const r = await http.get(path);
      latency.add(r.ms);
      bytes = r.text.length;
      if (r.status !== (o.status ?? 200) || !o.check(r.json)) {
        errors++;
        if (errorSamples.length < 5) errorSamples.push(`${r.status} ${r.text.slice(0, 120)}`);
      }
    }
  });
  const seconds = (now() - started) / 1000;
  const after = await fx.d1();
  return {
    label: o.label,
    path,
    lanes: o.lanes,
    seconds: round(seconds, 2),
    requests: latency.count,
    requestsPerSecond: round(latency.count / seconds, 0),
    latencyMs: latency.summary(),
    responseBytes: bytes,
    errors,
    errorSamples,
    d1PerRequest: perOp(diffCounters(before, after), Math.max(1, latency.count)),
  };
}
