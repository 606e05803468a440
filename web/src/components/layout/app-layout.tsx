import { Suspense } from "react";
import { Outlet } from "react-router";
import { PageSpinner } from "@/components/ui/spinner";
import { Navbar } from "./navbar";
import { Footer } from "./footer";

export function AppLayout() {
  return (
    <div className="flex min-h-screen flex-col">
      <Navbar />
      <main className="flex-1">
        <Suspense fallback={<PageSpinner />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
    </div>
  );
}
