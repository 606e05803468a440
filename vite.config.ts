import react from "@vitejs/plugin-react";
import tailwindcss from "@tailwindcss/vite";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vite";
import { securityHeaders } from "./scripts/security-headers.ts";

export default defineConfig({
  root: "web",
  plugins: [react(), tailwindcss(), securityHeaders()],
  resolve: {
    alias: { "@": fileURLToPath(new URL("./web/src", import.meta.url)), "@common": fileURLToPath(new URL("./common", import.meta.url)) },
  },
  build: {
    outDir: "../dist/web",
    emptyOutDir: true,
    sourcemap: false,
    rolldownOptions: {
      output: {
        // Left to itself the bundler splits every module two lazy pages share into its own chunk: the
        // home page arrived as 31 scripts, dozens of them icons of 0.2 KB. Grouped instead: what the
        // first page needs is two chunks (libraries, which change rarely and stay cached, and the app
        // shell with the home page), every icon a later page uses is one chunk, and each lazy page
        // keeps its own chunk (bench: "Home page JavaScript in Chromium").
        codeSplitting: {
          groups: [
            { name: "vendor", test: /node_modules/, tags: ["$initial"], priority: 3 },
            { name: "shell", tags: ["$initial"], priority: 2 },
            { name: "icons", test: /lucide-react/, priority: 1 },
          ],
        },
      },
    },
  },
  // `npm run dev:web` serves the SPA with hot reload and sends API calls to `npm start`'s Worker.
  server: { proxy: { "/api": "http://localhost:8787", "/ws": { target: "ws://localhost:8787", ws: true } } },
});
