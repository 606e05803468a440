// Responsible play as pure rules (docs/responsible-play.md): self-set limits and when their
// changes apply, rolling-window usage from the ledger, exclusion lengths, age and regions.
import { LIMIT_RAISE_DELAY_MS, LIMIT_WINDOWS_MS, SELF_EXCLUSION_PERIOD_MONTHS } from "../spec";

export const LIMIT_KINDS = [
  "deposit_daily",
  "deposit_weekly",
  "deposit_monthly",
  "entry_fees_daily",
  "entry_fees_weekly",
  "entry_fees_monthly",
] as const;
export type LimitKind = (typeof LIMIT_KINDS)[number];
export type LimitFamily = "deposit" | "entry_fees";
export type LimitPeriod = keyof typeof LIMIT_WINDOWS_MS;

export const limitFamily = (kind: LimitKind): LimitFamily => (kind.startsWith("deposit") ? "deposit" : "entry_fees");
export const limitPeriod = (kind: LimitKind): LimitPeriod => kind.slice(kind.lastIndexOf("_") + 1) as LimitPeriod;
export const limitWindowMs = (kind: LimitKind): number => LIMIT_WINDOWS_MS[limitPeriod(kind)];

/** A limit as stored: the amount in force (null: none) and a raise or removal waiting for its time. */
export interface LimitState {
  amountCents: number | null;
  pendingAmountCents: number | null;
  /** When the pending change applies; null when none waits. */
  pendingFrom: number | null;
}

export const NO_LIMIT: LimitState = { amountCents: null, pendingAmountCents: null, pendingFrom: null };

/** The limit as it stands at `now`: a pending change whose time has come is in force. */
export function settleLimit(s: LimitState, now: number): LimitState {
  if (s.pendingFrom === null || s.pendingFrom > now) return s;
  return { amountCents: s.pendingAmountCents, pendingAmountCents: null, pendingFrom: null };
}

/** Stricter: a limit where there was none, or a lower one. */
const stricter = (requested: number | null, current: number | null) => requested !== null && (current === null || requested < current);

/**
 * The player asks for `requested` (null: no limit). A stricter limit applies at once and drops
 * any waiting raise; the same one only drops a waiting change; a looser one (higher or none)
 * waits LIMIT_RAISE_DELAY_MS, so a moment's impulse cannot lift it.
 */
export function changeLimit(current: LimitState, requested: number | null, now: number): LimitState {
  const s = settleLimit(current, now);
  if (stricter(requested, s.amountCents) || requested === s.amountCents)
    return { amountCents: requested, pendingAmountCents: null, pendingFrom: null };
  // Asking again for the raise already waiting keeps its time rather than restarting the wait.
  if (s.pendingFrom !== null && s.pendingAmountCents === requested) return s;
  return { amountCents: s.amountCents, pendingAmountCents: requested, pendingFrom: now + LIMIT_RAISE_DELAY_MS };
}

/** One amount counted against a limit at the moment it happened. */
export interface Spend {
  at: number;
  cents: number;
}

export interface LimitCheck {
  limitCents: number;
  /** Counted in the window ending now. */
  usedCents: number;
  /** What may still go in now (never below 0). */
  leftCents: number;
  /** Whether `amountCents` fits now. */
  fits: boolean;
  /** The earliest moment the amount fits as older amounts leave the window; null when it never will (it is above the limit itself). */
  fitsAt: number | null;
}

/** Rolling window: an amount counts for `windowMs` after it happened, then frees up. */
export function checkLimit(limitCents: number, spends: readonly Spend[], windowMs: number, now: number, amountCents: number): LimitCheck {
  const inWindow = spends.filter((s) => s.at > now - windowMs && s.at <= now).sort((a, b) => a.at - b.at);
  const usedCents = inWindow.reduce((sum, s) => sum + s.cents, 0);
  const leftCents = Math.max(0, limitCents - usedCents);
  const fits = usedCents + amountCents <= limitCents;
  let fitsAt: number | null = fits ? now : null;
  if (!fits && amountCents <= limitCents) {
    let remaining = usedCents;
    for (const s of inWindow) {
      remaining -= s.cents;
      if (remaining + amountCents <= limitCents) {
        fitsAt = s.at + windowMs;
        break;
      }
    }
  }
  return { limitCents, usedCents, leftCents, fits, fitsAt };
}

/** A ledger row as the entry-fee count reads it: entry fees are negative, refunds positive. */
export interface LedgerMove {
  reference: string | null;
  amountCents: number;
  at: number;
}

const ENTRY_REF = /^entry:(\d+):(\d+)(?::(\d+))?$/;
const LEAVE_REF = /^leave:(\d+):(\d+):(\d+)$/;
const CANCEL_REF = /^refund:(\d+):(\d+)$/;

/**
 * Entry fees net of refunds: an entry the player left before the start (leave:{t}:{u}:{n}
 * refunds entry number n) or that a cancellation refunded (refund:{t}:{u}, the latest entry)
 * counts nothing; every other entry counts its fee at the time it was paid. Refunds are matched
 * to their entry rather than summed, so joining and leaving can never build up room under a limit.
 */
export function netEntryFees(entries: readonly LedgerMove[], refunds: readonly LedgerMove[]): Spend[] {
  const refunded = new Set<string>();
  const cancelled = new Set<string>();
  for (const r of refunds) {
    const leave = r.reference ? LEAVE_REF.exec(r.reference) : null;
    if (leave) refunded.add(`${leave[1]}:${leave[2]}:${leave[3]}`);
    const cancel = r.reference ? CANCEL_REF.exec(r.reference) : null;
    if (cancel) cancelled.add(`${cancel[1]}:${cancel[2]}`);
  }
  const parsed = entries.map((e) => {
    const m = e.reference ? ENTRY_REF.exec(e.reference) : null;
    return { e, seat: m ? `${m[1]}:${m[2]}` : null, n: m ? Number(m[3] ?? 0) : 0 };
  });
  const latest = new Map<string, number>();
  for (const p of parsed) if (p.seat) latest.set(p.seat, Math.max(latest.get(p.seat) ?? 0, p.n));
  return parsed
    .filter((p) => !p.seat || !(refunded.has(`${p.seat}:${p.n}`) || (cancelled.has(p.seat) && latest.get(p.seat) === p.n)))
    .map((p) => ({ at: p.e.at, cents: Math.abs(p.e.amountCents) }));
}

export type CoolOffPeriod = "24h" | "7d" | "30d";
export type SelfExclusionPeriod = keyof typeof SELF_EXCLUSION_PERIOD_MONTHS;

/** When a self-exclusion from `now` ends: calendar months later (clamped to the month's last day), or null for permanent. */
export function selfExclusionEnd(period: SelfExclusionPeriod, now: number): number | null {
  const months = SELF_EXCLUSION_PERIOD_MONTHS[period];
  if (months === null) return null;
  const d = new Date(now);
  const target = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, 1));
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(d.getUTCDate(), lastDay));
  target.setUTCHours(d.getUTCHours(), d.getUTCMinutes(), d.getUTCSeconds(), d.getUTCMilliseconds());
  return target.getTime();
}

/** An exclusion as stored; endsAt null: permanent. */
export interface Exclusion {
  kind: "cool_off" | "self_exclusion";
  startsAt: number;
  endsAt: number | null;
}

/** The exclusion in force at `now`: a self-exclusion before a cool-off, then the one that ends last. */
export function activeExclusion<E extends Exclusion>(rows: readonly E[], now: number): E | null {
  const active = rows.filter((r) => r.startsAt <= now && (r.endsAt === null || r.endsAt > now));
  const rank = (r: Exclusion) => (r.kind === "self_exclusion" ? 1 : 0);
  const end = (r: Exclusion) => r.endsAt ?? Number.POSITIVE_INFINITY;
  return active.sort((a, b) => rank(b) - rank(a) || end(b) - end(a))[0] ?? null;
}

/** A real calendar date written YYYY-MM-DD (no 2001-02-30). */
export function isIsoDate(text: string): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return false;
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3])));
  return d.getUTCFullYear() === Number(m[1]) && d.getUTCMonth() === Number(m[2]) - 1 && d.getUTCDate() === Number(m[3]);
}

/** Whole years from the date of birth to `now` (UTC); a 29 February birthday comes on 1 March in other years. */
export function ageOn(dateOfBirth: string, now: number): number {
  const [y, m, d] = dateOfBirth.split("-").map(Number) as [number, number, number];
  const today = new Date(now);
  const ty = today.getUTCFullYear();
  const tm = today.getUTCMonth() + 1;
  const td = today.getUTCDate();
  const hadBirthday = tm > m || (tm === m && td >= d);
  return ty - y - (hadBirthday ? 0 : 1);
}

/** Where a request comes from: an ISO 3166-1 country and, when known, its ISO 3166-2 subdivision ("US-WA"). */
export interface Region {
  country: string;
  subdivision: string | null;
}

/** "US-WA" or "DE" to a region (Cloudflare's "T1" for Tor and "XX" for unknown included); null when it is neither form. */
export function parseRegion(text: string): Region | null {
  const code = text.trim().toUpperCase();
  const m = /^([A-Z][A-Z0-9])(?:-([A-Z0-9]{1,3}))?$/.exec(code);
  if (!m) return null;
  return { country: m[1]!, subdivision: m[2] ? code : null };
}

/** A comma-separated list of codes ("US-WA, FR"), upper-cased, blanks dropped. */
export const parseRegionList = (text: string | undefined): string[] =>
  (text ?? "")
    .split(",")
    .map((s) => s.trim().toUpperCase())
    .filter(Boolean);

/** The first listed code that covers the region: its subdivision, or its whole country. */
export function barredBy(region: Region | null, barred: readonly string[]): string | null {
  if (!region) return null;
  if (region.subdivision && barred.includes(region.subdivision)) return region.subdivision;
  return barred.includes(region.country) ? region.country : null;
}

/** "US-AL:19,US-MS:21" to a map; entries that are not CODE:AGE are skipped. */
export function parseRegionAges(text: string | undefined): Map<string, number> {
  const ages = new Map<string, number>();
  for (const part of parseRegionList(text)) {
    const [code, age] = part.split(":").map((s) => s.trim());
    const n = Number(age);
    if (code && parseRegion(code) && Number.isInteger(n) && n > 0) ages.set(code, n);
  }
  return ages;
}

/** The age required where the request comes from: its subdivision's, else its country's, else the default. */
export function minAgeFor(region: Region | null, ages: ReadonlyMap<string, number>, defaultAge: number): number {
  if (region?.subdivision && ages.has(region.subdivision)) return ages.get(region.subdivision)!;
  if (region && ages.has(region.country)) return ages.get(region.country)!;
  return defaultAge;
}
