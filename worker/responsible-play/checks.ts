// The responsible-play and eligibility checks the money doors call, one call per route:
// deposits (create-payment-intent), joins, withdrawals (docs/responsible-play.md).
import type { Context } from "hono";
import { RESPONSIBLE } from "../../common/messages";
import { DEFAULT_MIN_AGE } from "../../common/spec";
import {
  ageOn,
  barredBy,
  minAgeFor,
  parseRegionAges,
  parseRegionList,
  type LimitFamily,
  type LimitKind,
  type LimitState,
} from "../../common/domain/responsible-play";
import { HttpError } from "../http/errors";
import { currentUser } from "../http/middleware";
import type { AppEnv } from "../http/app-env";
import { loadExclusions, loadExclusionsAndLimits, type ExclusionRow } from "./state";
import { exclusionRefusal, limitRefusal, type Refusal } from "./refusals";
import { requestRegion } from "./region";
import { cardHash } from "./excluded-identities";
import type { CreditChecks } from "../payments/deposits";
import { assertTermsAccepted, outstandingFor, termsNotAccepted } from "../legal/terms";
import { assertNotDuplicateAccount } from "../identity/gate";

type Ctx = Context<AppEnv>;

const asHttpError = (r: Refusal) => new HttpError(r.status, r.code, r.message);

function assertRegionOpen(c: Ctx): void {
  const barred = barredBy(requestRegion(c), parseRegionList(c.env.BARRED_REGIONS));
  if (barred) throw new HttpError(403, "region_barred", RESPONSIBLE.regionBarred(barred));
}

async function assertNotExcluded(c: Ctx, now: number, rows?: ExclusionRow[]): Promise<void> {
  const refusal = exclusionRefusal(rows ?? (await loadExclusions(c.get("db"), currentUser(c).id)), now);
  if (refusal) throw asHttpError(refusal);
}

/** The minimum age where the request comes from (REGION_MIN_AGES, else 18). */
export const minAgeHere = (c: Ctx) => minAgeFor(requestRegion(c), parseRegionAges(c.env.REGION_MIN_AGES), DEFAULT_MIN_AGE);

/** The player's date of birth on file and old enough here. */
function assertOfAge(c: Ctx, now: number): void {
  const dob = currentUser(c).dateOfBirth;
  if (!dob) throw new HttpError(403, "date_of_birth_required", RESPONSIBLE.dateOfBirthRequired);
  const minAge = minAgeHere(c);
  if (ageOn(dob, now) < minAge) throw new HttpError(403, "underage", RESPONSIBLE.underage(minAge));
}

/** Every limit of the family the amount would break, the one that frees up last named. */
async function assertWithinLimits(
  c: Ctx,
  family: LimitFamily,
  amountCents: number,
  now: number,
  loaded?: Map<LimitKind, LimitState>,
): Promise<void> {
  const refusal = await limitRefusal(c.get("db"), currentUser(c).id, family, amountCents, now, loaded);
  if (refusal) throw asHttpError(refusal);
}

/** What crediting a payment checks from this request (region, its minimum age) besides the stored state (payments/deposits.ts). */
export function depositCreditChecks(c: Ctx, maxDepositCents: number): CreditChecks {
  return {
    now: Date.now(),
    maxDepositCents,
    minAge: minAgeHere(c),
    barredRegion: barredBy(requestRegion(c), parseRegionList(c.env.BARRED_REGIONS)),
    hashCard: (fingerprint) => cardHash(c.env, fingerprint),
  };
}

/**
 * The webhook has no player's request: no region, and the default minimum age against the date
 * of birth on file; everything stored (breaks, suspension, limits, the closed account) as ever.
 */
export const webhookCreditChecks = (maxDepositCents: number, env?: { RECEIPT_SECRET?: string }): CreditChecks => ({
  now: Date.now(),
  maxDepositCents,
  minAge: DEFAULT_MIN_AGE,
  barredRegion: null,
  ...(env ? { hashCard: (fingerprint: string) => cardHash(env, fingerprint) } : {}),
});

/**
 * Before a PaymentIntent is made. Open checkouts count as spent (spendsOf), so several opened
 * before paying cannot pass one limit together; the credit checks again when the money arrives.
 */
export async function assertMayDeposit(c: Ctx, amountCents: number): Promise<void> {
  const now = Date.now();
  assertRegionOpen(c);
  await assertNotExcluded(c, now);
  assertOfAge(c, now);
  await assertTermsAccepted(c);
  assertNotDuplicateAccount(currentUser(c));
  await assertWithinLimits(c, "deposit", amountCents, now);
}

/**
 * Any join, free or paid, is closed during an exclusion. Age and region apply to prize play: a
 * paid join, or a free tournament with a prize pool (the house's money); entry-fee limits to paid ones.
 */
export async function assertMayJoin(c: Ctx, entryFeeCents: number, prizePlay = false): Promise<void> {
  const now = Date.now();
  if (entryFeeCents <= 0) {
    await assertNotExcluded(c, now);
    if (prizePlay) {
      assertRegionOpen(c);
      assertOfAge(c, now);
      assertNotDuplicateAccount(currentUser(c));
    }
    return;
  }
  // Read at once: a paid join is the hot path of a join storm.
  const [{ exclusions, limits }, outstanding] = await Promise.all([
    loadExclusionsAndLimits(c.get("db"), currentUser(c).id, now),
    outstandingFor(c.get("db"), currentUser(c).id),
  ]);
  await assertNotExcluded(c, now, exclusions);
  assertRegionOpen(c);
  assertOfAge(c, now);
  if (outstanding.length > 0) throw termsNotAccepted(outstanding);
  // A second account of a verified person plays free tournaments only (docs/identity-and-tax.md).
  assertNotDuplicateAccount(currentUser(c));
  await assertWithinLimits(c, "entry_fees", entryFeeCents, now, limits);
}

/**
 * A withdrawal is refused only where money may not move, to someone under age, or until the
 * documents in force are accepted; exclusions never hold a balance back.
 */
export async function assertMayWithdraw(c: Ctx): Promise<void> {
  assertRegionOpen(c);
  assertOfAge(c, Date.now());
  await assertTermsAccepted(c);
}
