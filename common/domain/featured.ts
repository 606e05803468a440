// Featured events (docs/featured-events.md): announced a week ahead, registration that opens a day
// earlier for Advanced players, and the "Remind me" reminders' send windows. Pure rules: the
// Worker's routes and the cron apply them, the pages explain them.
import {
  FEATURED_MIN_NOTICE_MS,
  FEATURED_REGISTRATION_LEAD_MS,
  PRIORITY_ACCESS_LEAD_MS,
  REMINDER_DAY_LEAD_MS,
  REMINDER_SOON_LEAD_MS,
} from "../spec";
import { TIERS } from "./levels";

/** Advanced (level 6) and up register early. */
export const PRIORITY_MIN_LEVEL = TIERS.find((t) => t.name === "Advanced")!.minLevel;

export const hasPriorityAccess = (level: number) => level >= PRIORITY_MIN_LEVEL;

/** Why a tournament starting at `startTime` cannot be featured at `now`, or null when it can. */
export function featureRefusal(startTime: number, now: number): "too_soon" | null {
  return startTime - now < FEATURED_MIN_NOTICE_MS ? "too_soon" : null;
}

/** When registration opens for everyone: the operator's time, else 72 hours before the start. */
export const defaultRegistrationOpensAt = (startTime: number) => startTime - FEATURED_REGISTRATION_LEAD_MS;

/**
 * Why an operator's registration time does not work, or null: it must fall before the start, and
 * the priority day before it must begin after `now` (the announcement), so that day is real.
 */
export function registrationTimeRefusal(opensAt: number, startTime: number, now: number): "after_start" | "too_early" | null {
  if (opensAt >= startTime) return "after_start";
  if (opensAt - PRIORITY_ACCESS_LEAD_MS < now) return "too_early";
  return null;
}

export interface FeaturedTerms {
  /** Null: not featured, registration follows the ordinary rules. */
  featuredAt: number | null;
  registrationOpensAt: number | null;
  startTime: number;
}

/** When registration opens for everyone; null when the tournament is not featured (no waiting). */
export function registrationOpensForAll(t: FeaturedTerms): number | null {
  if (t.featuredAt === null) return null;
  return t.registrationOpensAt ?? defaultRegistrationOpensAt(t.startTime);
}

/** When registration opens for a player of this level; null when it never waited. */
export function registrationOpensFor(t: FeaturedTerms, level: number): number | null {
  const all = registrationOpensForAll(t);
  if (all === null) return null;
  return hasPriorityAccess(level) ? all - PRIORITY_ACCESS_LEAD_MS : all;
}

/** Whether a player of this level may register at `now`. */
export function registrationOpen(t: FeaturedTerms, level: number, now: number): boolean {
  const opens = registrationOpensFor(t, level);
  return opens === null || now >= opens;
}

/** The two reminders of "Remind me": a day before, and about ten minutes before. */
export const REMINDER_KINDS = ["day", "soon"] as const;
export type ReminderKind = (typeof REMINDER_KINDS)[number];

/**
 * A reminder is due while the time left before the start is at most `leadMs` and more than
 * `floorMs`. The day reminder stops where the 10-minute one begins, so a
 * reminder asked for late never sends a "tomorrow" notice minutes before the start; the
 * 10-minute one stops at the start. Each is sent by the first cron run inside its window.
 */
export const REMINDER_WINDOWS: Record<ReminderKind, { leadMs: number; floorMs: number }> = {
  day: { leadMs: REMINDER_DAY_LEAD_MS, floorMs: REMINDER_SOON_LEAD_MS },
  soon: { leadMs: REMINDER_SOON_LEAD_MS, floorMs: 0 },
};

export function isReminderDue(kind: ReminderKind, startTime: number, now: number): boolean {
  const left = startTime - now;
  const w = REMINDER_WINDOWS[kind];
  return left <= w.leadMs && left > w.floorMs;
}
