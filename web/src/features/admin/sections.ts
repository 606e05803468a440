// The operator console's screens, in the order its navigation lists them (docs/operating.md).
// Each screen loads lazily: players never download the console.
import type { ComponentType } from "react";

export interface AdminSection {
  /** Below /admin; "" is the console's first screen. */
  path: string;
  label: string;
  load: () => Promise<{ default: ComponentType }>;
}

export const ADMIN_SECTIONS: AdminSection[] = [{ path: "", label: "Overview", load: () => import("./overview/overview-page") }];
