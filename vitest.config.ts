import path from "node:path";
import react from "@vitejs/plugin-react";
import { cloudflareTest, readD1Migrations } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: [
      {
        test: { name: "unit", include: ["common/**/*.test.ts", "scripts/**/*.test.ts"], environment: "node" },
      },
      {
        plugins: [
          cloudflareTest(async () => ({
            wrangler: { configPath: "./wrangler.toml" },
            miniflare: {
              bindings: {
                TEST_MIGRATIONS: await readD1Migrations(path.join(import.meta.dirname, "migrations")),
                // Cheap hashing keeps the suite fast; production keeps DESIGN.md's cost.
                SCRYPT_N: "1024",
                SESSION_SECRET: "test-session-secret-not-for-production",
                STRIPE_SECRET_KEY: "",
                STRIPE_WEBHOOK_SECRET: "",
              },
            },
          })),
        ],
        test: {
          name: "worker",
          include: ["worker/test/**/*.test.ts"],
          setupFiles: ["./worker/test/apply-migrations.ts"],
        },
      },
      {
        plugins: [react()],
        resolve: { alias: { "@": path.join(import.meta.dirname, "web/src"), "@common": path.join(import.meta.dirname, "common") } },
        test: {
          name: "web",
          include: ["web/src/**/*.test.{ts,tsx}"],
          environment: "happy-dom",
          setupFiles: ["./web/src/test/setup.ts"],
        },
      },
    ],
  },
});
