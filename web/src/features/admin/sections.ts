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
  { path: "fair-play", label: "Fair play", load: () => import("./fair-play/fair-play-screen") },
  { path: "players", label: "Players", load: () => import("./players/players-screen") },
  { path: "players/:id", label: "Player", load: () => import("./players/player-detail-screen"), nav: false },
];
