// Featured events (docs/featured-events.md): the list home and the tournaments page show, what a
// tournament's detail says about its registration, "Remind me", and the operators' Featured switch.
import { z } from "zod";
import type { Tournament } from "./types";

/** Registration of a featured event as the viewer sees it. */
export interface FeaturedRegistration {
  /** When the operator announced it (featured it). */
  announcedAt: string;
  /** When registration opens for everyone. */
  opensAt: string;
  /** When it opens for the viewer: a day earlier for level 6+; for a visitor, everyone's time. */
  opensForYouAt: string;
  /** The viewer registers early (Advanced, level 6+). */
  priority: boolean;
  /** The viewer may register now. */
  open: boolean;
  /** The viewer pressed "Remind me" (false when signed out). */
  reminderSet: boolean;
}

/** GET /api/tournaments/featured: one coming featured event. */
export interface FeaturedEvent extends Tournament {
  registration: FeaturedRegistration;
}

/** POST and DELETE /api/tournaments/:id/reminder */
export interface ReminderState {
  tournamentId: number;
  reminderSet: boolean;
}

/** PUT /api/admin/tournaments/:id/featured */
export const setFeaturedSchema = z.object({
  featured: z.boolean({ error: "featured must be true or false" }),
  /** When registration opens for everyone (ISO time); absent: 72 hours before the start. Ignored when unfeaturing. */
  registrationOpensAt: z.iso
    .datetime({ offset: true, error: "registrationOpensAt must be an ISO date and time" })
    .transform((s) => Date.parse(s))
    .optional(),
});
export type SetFeaturedInput = z.input<typeof setFeaturedSchema>;

/** The console's view of a tournament's featuring. */
export interface AdminFeatured {
  tournamentId: number;
  featured: boolean;
  announcedAt: string | null;
  /** Everyone's registration time (null when not featured). */
  registrationOpensAt: string | null;
}
