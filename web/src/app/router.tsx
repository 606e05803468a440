// Every screen of the product (docs/product.md, Screens). The home page, where most visits start,
// comes with the app itself: rendered at once, without a second round trip for its chunk. The other
// pages load lazily, so the first download stays small.
import { lazy } from "react";
import { createBrowserRouter } from "react-router";
import { AppLayout } from "@/app/layout/app-layout";
import { ProtectedRoute } from "@/app/layout/protected-route";
import HomePage from "@/app/routes/home/home-page";
import { ADMIN_SECTIONS } from "@/features/admin/sections";

const page = (load: () => Promise<{ default: React.ComponentType }>) => {
  const Component = lazy(load);
  return { element: <Component /> };
};

export const router = createBrowserRouter([
  {
    element: <AppLayout />,
    children: [
      // Public
      { path: "/", element: <HomePage /> },
      { path: "/auth", ...page(() => import("@/features/auth/auth-page")) },
      { path: "/how-it-works", ...page(() => import("@/features/marketing/components/how-it-works-page")) },
      { path: "/learn-more", ...page(() => import("@/features/marketing/components/learn-more-page")) },
      { path: "/contact", ...page(() => import("@/features/marketing/components/contact-page")) },
      // The legal documents (one page, which reads its document from the path).
      { path: "/terms", ...page(() => import("@/features/legal/legal-page")) },
      { path: "/rules", ...page(() => import("@/features/legal/legal-page")) },
      { path: "/privacy", ...page(() => import("@/features/legal/legal-page")) },
      { path: "/leaderboards", ...page(() => import("@/features/leaderboards/components/leaderboards-page")) },
      { path: "/tournaments/:id/play", ...page(() => import("@/features/tournaments/play/components/play-page")) },
      // A private tournament's invite link: shown to anyone holding the code, signed in or not.
      { path: "/t/:code", ...page(() => import("@/features/tournaments/custom/invite-page")) },
      { path: "/tournaments/join/:code", ...page(() => import("@/features/tournaments/custom/invite-page")) },
      { path: "/players/:username", ...page(() => import("@/features/players/player-profile-page")) },
      { path: "/verify-receipt", ...page(() => import("@/features/tournaments/fair-play/verify-receipt-page")) },
      { path: "/forgot-password", ...page(() => import("@/features/auth/forgot-password-page")) },
      { path: "/reset-password", ...page(() => import("@/features/auth/reset-password-page")) },
      { path: "/verify-email", ...page(() => import("@/features/auth/verify-email-page")) },
      // Local development only: the API behind it answers on a loopback host without a mail provider.
      { path: "/dev/outbox", ...page(() => import("@/features/dev-outbox/outbox-page")) },
      // Behind the authentication wrapper
      {
        element: <ProtectedRoute />,
        children: [
          { path: "/tournaments", ...page(() => import("@/features/tournaments/components/tournaments-page")) },
          { path: "/tournaments/custom", ...page(() => import("@/features/tournaments/custom/custom-tournaments-page")) },
          { path: "/tournaments/join", ...page(() => import("@/features/tournaments/custom/join-by-code-page")) },
          { path: "/tournaments/:id", ...page(() => import("@/features/tournaments/components/tournament-detail-page")) },
          { path: "/dashboard", ...page(() => import("@/app/routes/dashboard/dashboard-page")) },
          { path: "/profile", ...page(() => import("@/features/profile/profile-page")) },
          { path: "/checkout/:amount?", ...page(() => import("@/features/wallet/checkout-page")) },
          { path: "/payment-success", ...page(() => import("@/features/wallet/payment-success-page")) },
          { path: "/withdraw-confirm/:amount?", ...page(() => import("@/features/wallet/withdraw-confirm-page")) },
          { path: "/identity/sandbox", ...page(() => import("@/features/profile/identity-sandbox-page")) },
        ],
      },
      // The operator console: its layout lets only operators with 2FA through.
      {
        path: "/admin",
        ...page(() => import("@/features/admin/admin-layout")),
        children: ADMIN_SECTIONS.map((s) => (s.path ? { path: s.path, ...page(s.load) } : { index: true, ...page(s.load) })),
      },
      { path: "*", ...page(() => import("@/pages/not-found")) },
    ],
  },
]);
