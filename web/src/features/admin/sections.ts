// The operator console's screens, in the order its navigation lists them (docs/operating.md).
// Each screen loads lazily: players never download the console.
import type { ComponentType } from "react";

export interface AdminSection {
  /** Below /admin; "" is the console's first screen. */
  path: string;
  label: string;
  load: () => Promise<{ default: ComponentType }>;
  /** false: a screen reached from another (a detail page), not listed in the navigation. */
  nav?: false;
}

export const ADMIN_SECTIONS: AdminSection[] = [
  { path: "", label: "Overview", load: () => import("./overview/overview-page") },
  { path: "payouts", label: "Payouts", load: () => import("./payouts/payouts-page") },
  { path: "tournaments", label: "Tournaments", load: () => import("./tournaments/tournaments-page") },
  { path: "tournaments/:id", label: "Tournament", load: () => import("./tournaments/tournament-detail-page"), nav: false },
  { path: "questions", label: "Questions", load: () => import("./questions/questions-page") },
  { path: "reports", label: "Reports", load: () => import("./questions/reports-page") },
  { path: "fair-play", label: "Fair play", load: () => import("./fair-play/fair-play-screen") },
  { path: "players", label: "Players", load: () => import("./players/players-screen") },
  { path: "players/:id", label: "Player", load: () => import("./players/player-detail-screen"), nav: false },
  { path: "tax", label: "Tax", load: () => import("./tax/tax-page") },
  { path: "approvals", label: "Approvals", load: () => import("./approvals/approvals-page") },
  { path: "audit", label: "Audit log", load: () => import("./audit/audit-page") },
];
