// Lint rules: typescript-eslint's recommended set, React's hooks rules, and the module
// boundaries of the web app (docs/decisions/006-typed-contract.md):
// - no import cycles anywhere;
// - web/src/components, hooks and lib are shared building blocks and never import a feature;
// - a feature never reaches into another feature: pages that need several features are
//   composed in web/src/app.
import js from "@eslint/js";
import tseslint from "typescript-eslint";
import reactHooks from "eslint-plugin-react-hooks";
import { importX } from "eslint-plugin-import-x";
import { createTypeScriptImportResolver } from "eslint-import-resolver-typescript";
import globals from "globals";

const FEATURES = [
  "auth",
  "dashboard",
  "home",
  "leaderboards",
  "marketing",
  "notifications",
  "play",
  "players",
  "profile",
  "tournaments",
  "wallet",
];

export default tseslint.config(
  {
    ignores: [
      "dist/**",
      "node_modules/**",
      ".wrangler/**",
      "worker-configuration.d.ts",
      "test-results/**",
      "bench/results/**",
      "migrations/**",
    ],
  },
  js.configs.recommended,
  tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    plugins: { "import-x": importX },
    settings: {
      "import-x/resolver-next": [
        createTypeScriptImportResolver({
          project: ["tsconfig.web.json", "tsconfig.worker.json", "tsconfig.node.json"],
          noWarnOnMultipleProjects: true,
        }),
      ],
    },
    rules: {
      "import-x/no-cycle": ["error", { ignoreExternal: true }],
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
      "@typescript-eslint/no-explicit-any": "off",
      "@typescript-eslint/no-non-null-assertion": "off",
    },
  },
  {
    // The rules of hooks and complete effect dependencies. The React Compiler's own rules
    // (purity, refs, setState in effects) are left out: the app is not compiled by it, and its
    // timer hooks (countdown, question clock, socket) read the clock and refs on purpose.
    files: ["web/src/**/*.{ts,tsx}"],
    plugins: { "react-hooks": reactHooks },
    rules: { "react-hooks/rules-of-hooks": "error", "react-hooks/exhaustive-deps": "error" },
  },
  {
    files: ["web/src/**/*.{ts,tsx}"],
    rules: {
      "import-x/no-restricted-paths": [
        "error",
        {
          zones: [
            {
              target: ["./web/src/components", "./web/src/hooks", "./web/src/lib"],
              from: "./web/src/features",
              message: "Shared code never imports a feature: move what both need into components/, hooks/ or lib/.",
            },
            ...FEATURES.map((feature) => ({
              target: `./web/src/features/${feature}`,
              from: "./web/src/features",
              except: [`./${feature}`],
              message:
                "A feature does not import another feature: compose them in web/src/app, or share through components/, hooks/ or lib/.",
            })),
          ],
        },
      ],
    },
  },
  {
    // Tests may name anything they check.
    files: ["**/*.test.{ts,tsx}", "web/src/test/**", "worker/test/**", "e2e/**", "bench/**"],
    rules: {
      "@typescript-eslint/no-explicit-any": "off",
      "import-x/no-restricted-paths": "off",
    },
  },
);
