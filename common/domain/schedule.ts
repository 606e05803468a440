// Where scheduled tournaments go: a fixed grid per category, so the cron can be run any number
// of times and always lands on the same start times (that is what makes it idempotent).
import { FEE_TIERS, SCHEDULE_LEAD_MS, SCHEDULE_MIN_UPCOMING, SCHEDULE_SPACING_MS, SCHEDULE_STAGGER_MS } from "../spec";

const offsetOf = (categoryId: number) => (categoryId * SCHEDULE_STAGGER_MS) % SCHEDULE_SPACING_MS;

/** The next start times a category must have tournaments at: the first grid slots at least the lead time away. */
export function upcomingSlots(categoryId: number, now: number, count: number = SCHEDULE_MIN_UPCOMING): number[] {
  const offset = offsetOf(categoryId);
  const first = Math.ceil((now + SCHEDULE_LEAD_MS - offset) / SCHEDULE_SPACING_MS) * SCHEDULE_SPACING_MS + offset;
  return Array.from({ length: count }, (_, i) => first + i * SCHEDULE_SPACING_MS);
}

/** Slots rotate through the fee tiers, so each tier comes round several times a day. */
export function tierForSlot(categoryId: number, start: number): (typeof FEE_TIERS)[number] {
  const slot = Math.round((start - offsetOf(categoryId)) / SCHEDULE_SPACING_MS);
  return FEE_TIERS[((slot % FEE_TIERS.length) + FEE_TIERS.length) % FEE_TIERS.length]!;
}
