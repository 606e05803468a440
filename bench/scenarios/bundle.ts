// 6. The home page's JavaScript as a browser downloads it: every script Debian's Chromium fetches
// for `/` until the network is idle (the entry, its modulepreloads and every lazy chunk the page
// imports while it renders), each gzipped here (zlib level 9) so the figure does not depend on
// how the local server compresses. A visitor (no session) at a phone's viewport.
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";

export interface PageScript {
  /** The script's path, e.g. /assets/index-Ab12.js. */
  path: string;
  bytes: number;
  gzipBytes: number;
  /** Named by index.html (the entry or a modulepreload); otherwise imported lazily while the page rendered. */
  initial: boolean;
}

export interface BundleRun {
  url: string;
  scripts: PageScript[];
  jsBytes: number;
  jsGzipBytes: number;
  stylesheets: number;
  cssGzipBytes: number;
  /** Console errors and uncaught exceptions the page logged while it loaded. */
  consoleErrors: string[];
  /** Navigation to network idle over loopback, unthrottled: a figure of this machine, not of a phone. */
  loadedMs: number;
}

/** Quiet time that counts as "the network is idle" once the load event has fired (Playwright's networkidle is 500 ms). */
const IDLE_MS = 1500;

export async function homePageScripts(baseUrl: string): Promise<BundleRun> {
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update"],
  });
  try {
    const page = await browser.newPage({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75 });
    const pending: Promise<{ kind: "js" | "css"; path: string; body: Buffer } | null>[] = [];
    let lastRequestAt = Date.now();
    page.on("request", () => (lastRequestAt = Date.now()));
    page.on("response", (res) => {
      const type = res.request().resourceType();
      if (type !== "script" && type !== "stylesheet") return;
      const path = new URL(res.url()).pathname;
      pending.push(
        res.body().then(
          (body) => ({ kind: type === "script" ? "js" : "css", path, body }),
          () => null,
        ),
      );
    });
    const consoleErrors: string[] = [];
    page.on("console", (m) => m.type() === "error" && consoleErrors.push(m.text()));
    page.on("pageerror", (e) => consoleErrors.push(e.message));

    const started = Date.now();
    const doc = await page.goto(`${baseUrl}/`, { waitUntil: "networkidle" });
    if (!doc?.ok()) throw new Error(`GET / answered ${doc?.status()}`);
    // A lazy chunk can be asked for after a first quiet spell (a query that resolves, then renders a lazy part).
    while (Date.now() - lastRequestAt < IDLE_MS) await page.waitForTimeout(250);
    const loadedMs = lastRequestAt - started;
    const html = await doc.text();

    const files = (await Promise.all(pending)).filter((f) => f !== null);
    const scripts = files
      .filter((f) => f.kind === "js")
      .map((f) => ({
        path: f.path,
        bytes: f.body.length,
        gzipBytes: gzipSync(f.body, { level: 9 }).length,
        initial: html.includes(`"${f.path}"`),
      }));
    const css = files.filter((f) => f.kind === "css");
    return {
      url: `${baseUrl}/`,
      scripts,
      jsBytes: scripts.reduce((n, s) => n + s.bytes, 0),
      jsGzipBytes: scripts.reduce((n, s) => n + s.gzipBytes, 0),
      stylesheets: css.length,
      cssGzipBytes: css.reduce((n, f) => n + gzipSync(f.body, { level: 9 }).length, 0),
      consoleErrors,
      loadedMs,
    };
  } finally {
    await browser.close();
  }
}
