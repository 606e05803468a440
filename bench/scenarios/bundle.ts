// 6. The web bundle: what the home page loads before it can render, gzipped (zlib level 9):
// the entry script, its modulepreloads and the stylesheets named in dist/web/index.html.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { gzipSync } from "node:zlib";

export interface BundleRun {
  files: { path: string; kind: "js" | "css"; bytes: number; gzipBytes: number }[];
  jsBytes: number;
  jsGzipBytes: number;
  cssBytes: number;
  cssGzipBytes: number;
  htmlGzipBytes: number;
}

export function webBundle(dir = "dist/web"): BundleRun {
  const html = readFileSync(join(dir, "index.html"), "utf8");
  const refs = new Map<string, "js" | "css">();
  for (const m of html.matchAll(/<script\b[^>]*\bsrc="([^"]+)"[^>]*>/g)) refs.set(m[1]!, "js");
  for (const m of html.matchAll(/<link\b[^>]*>/g)) {
    const tag = m[0];
    const href = /\bhref="([^"]+)"/.exec(tag)?.[1];
    if (!href) continue;
    if (/\brel="modulepreload"/.test(tag)) refs.set(href, "js");
    else if (/\brel="stylesheet"/.test(tag)) refs.set(href, "css");
  }
  const files = [...refs.entries()].map(([href, kind]) => {
    const path = join(dir, href.replace(/^\//, ""));
    const data = readFileSync(path);
    return { path: href, kind, bytes: data.length, gzipBytes: gzipSync(data, { level: 9 }).length };
  });
  const sum = (kind: "js" | "css", key: "bytes" | "gzipBytes") => files.filter((f) => f.kind === kind).reduce((n, f) => n + f[key], 0);
  return {
    files,
    jsBytes: sum("js", "bytes"),
    jsGzipBytes: sum("js", "gzipBytes"),
    cssBytes: sum("css", "bytes"),
    cssGzipBytes: sum("css", "gzipBytes"),
    htmlGzipBytes: gzipSync(Buffer.from(html), { level: 9 }).length,
  };
}
