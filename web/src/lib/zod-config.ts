// zod compiles its object parsers with `new Function` unless it is "jitless", and probes for that
// when the first object schema is built. The page's Content-Security-Policy has no 'unsafe-eval',
// so the probe is refused and the browser reports a CSP violation on every page with a form. zod
// takes its settings from this global when it loads; main.tsx sets it first, before any chunk that
// builds a schema, without putting zod itself in the page's first download (lib/zod-config.test.ts
// checks that zod still reads it).
const scope = globalThis as { __zod_globalConfig?: Record<string, unknown> };
scope.__zod_globalConfig = { ...scope.__zod_globalConfig, jitless: true };
