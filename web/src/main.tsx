import "@/lib/zod-config";
import { startTransition, StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { RouterProvider } from "react-router";
import { Providers } from "@/app/providers";
import { router } from "@/app/router";
import { PageSpinner } from "@/components/ui/spinner";
import "./index.css";

const root = createRoot(document.getElementById("root")!);
// Rendered as a transition: React renders the first page in slices and lets the browser handle
// input between them, instead of one long task (Lighthouse's Total Blocking Time on a phone).
startTransition(() =>
  root.render(
    <StrictMode>
      <Providers>
        <Suspense fallback={<PageSpinner />}>
          <RouterProvider router={router} />
        </Suspense>
      </Providers>
    </StrictMode>,
  ),
);
