// 7. The pages as Lighthouse judges them: its default run (a mid-range phone, simulated slow 4G
// and a 4x slower CPU) of each page for a visitor, in Debian's Chromium launched headless by
// chrome-launcher. Scores are Lighthouse's own (0-100); the metrics are its simulated ones.
import * as chromeLauncher from "chrome-launcher";
import lighthouse from "lighthouse";

export interface LighthousePage {
  path: string;
  /** Where the page ended up (a visitor asking for a signed-in page is sent to /auth). */
  finalPath: string;
  scores: { performance: number; accessibility: number; bestPractices: number; seo: number };
  metrics: { fcpMs: number; lcpMs: number; tbtMs: number; cls: number; speedIndexMs: number };
  /** Audits that cost points outside performance, by id (e.g. color-contrast), and the category they count in. */
  failing: string[];
  /** Runs of this page; the one reported is the median by performance score. */
  runs: number;
  performanceScores: number[];
  lighthouseVersion: string;
}

const CATEGORIES = ["performance", "accessibility", "best-practices", "seo"] as const;

export async function lighthousePages(baseUrl: string, paths: readonly string[], runs = 1): Promise<LighthousePage[]> {
  const chrome = await chromeLauncher.launch({
    chromePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    chromeFlags: ["--headless=new", "--no-sandbox"],
  });
  try {
    const out: LighthousePage[] = [];
    for (const path of paths) {
      const results: LighthousePage[] = [];
      for (let i = 0; i < runs; i++) results.push(await auditWithRetry(chrome.port, baseUrl, path));
      results.sort((a, b) => a.scores.performance - b.scores.performance);
      const median = results[Math.floor(results.length / 2)]!;
      out.push({ ...median, runs, performanceScores: results.map((r) => r.scores.performance) });
    }
    return out;
  } finally {
    chrome.kill();
  }
}

/**
 * One retry: on this shared machine Chromium now and then shows an interstitial instead of the page
 * (Lighthouse's CHROME_INTERSTITIAL_ERROR), which says nothing about the page itself.
 */
async function auditWithRetry(port: number, baseUrl: string, path: string): Promise<LighthousePage> {
  try {
    return await audit(port, baseUrl, path);
  } catch {
    return audit(port, baseUrl, path);
  }
}

async function audit(port: number, baseUrl: string, path: string): Promise<LighthousePage> {
  const result = await lighthouse(`${baseUrl}${path}`, { port, output: "json", logLevel: "error", onlyCategories: [...CATEGORIES] });
  if (!result) throw new Error(`Lighthouse returned nothing for ${path}`);
  const lhr = result.lhr;
  if (lhr.runtimeError) throw new Error(`Lighthouse on ${path}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const score = (id: (typeof CATEGORIES)[number]) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
  const metric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;
  const failing: string[] = [];
  for (const id of CATEGORIES.slice(1)) {
    for (const ref of lhr.categories[id]?.auditRefs ?? []) {
      const a = lhr.audits[ref.id];
      if (ref.weight > 0 && a && a.score !== null && a.score < 1) failing.push(`${ref.id} (${id})`);
    }
  }
  return {
    path,
    finalPath: new URL(lhr.finalDisplayedUrl).pathname,
    scores: {
      performance: score("performance"),
      accessibility: score("accessibility"),
      bestPractices: score("best-practices"),
      seo: score("seo"),
    },
    metrics: {
      fcpMs: Math.round(metric("first-contentful-paint")),
      lcpMs: Math.round(metric("largest-contentful-paint")),
      tbtMs: Math.round(metric("total-blocking-time")),
      cls: Math.round(metric("cumulative-layout-shift") * 1000) / 1000,
      speedIndexMs: Math.round(metric("speed-index")),
    },
    failing,
    runs: 1,
    performanceScores: [],
    lighthouseVersion: lhr.lighthouseVersion,
  };
}
