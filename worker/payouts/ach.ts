// The ACH file of one payout batch: the originator's identity from the ACH_* variables, and the
// file itself, rebuilt from the batch's rows whenever it is downloaded (the same bytes each time:
// everything in it is stored, the moment included). Account numbers are opened only here.
import { buildAchFile, type AchCredit, type AchOriginator } from "../../common/domain/nacha";
import { isValidRoutingNumber } from "../../common/domain/payment-checks";
import { PAYOUTS } from "../../common/console-messages";
import { open, payoutSealContext } from "../crypto/sealed";
import { HttpError } from "../http/errors";

const notConfigured = (name: string, rule: string) => new HttpError(503, "ach_not_configured", PAYOUTS.achNotConfigured(name, rule));

function routing(env: Env, name: "ACH_IMMEDIATE_DESTINATION" | "ACH_ODFI_ROUTING"): string {
  const value = (env[name] ?? "").trim();
  if (!isValidRoutingNumber(value)) throw notConfigured(name, "must be a 9-digit routing number with a valid check digit");
  return value;
}

function text(env: Env, name: "ACH_DESTINATION_NAME" | "ACH_ORIGIN_NAME" | "ACH_COMPANY_NAME", max: number): string {
  const value = (env[name] ?? "").trim();
  if (!/^[\x20-\x7e]+$/.test(value) || value.length > max) throw notConfigured(name, `must be 1-${max} printable ASCII characters`);
  return value;
}

function tenChars(env: Env, name: "ACH_IMMEDIATE_ORIGIN" | "ACH_COMPANY_ID"): string {
  const value = (env[name] ?? "").trim();
  if (!/^[0-9A-Za-z]{1,10}$/.test(value)) throw notConfigured(name, "must be 1-10 letters or digits");
  return value;
}

/** Who sends the file, from the ACH_* variables; a missing or malformed one is a 503 naming it. */
export function achOriginator(env: Env): AchOriginator {
  return {
    immediateDestination: routing(env, "ACH_IMMEDIATE_DESTINATION"),
    immediateDestinationName: text(env, "ACH_DESTINATION_NAME", 23),
    immediateOrigin: tenChars(env, "ACH_IMMEDIATE_ORIGIN"),
    immediateOriginName: text(env, "ACH_ORIGIN_NAME", 23),
    companyName: text(env, "ACH_COMPANY_NAME", 16),
    companyId: tenChars(env, "ACH_COMPANY_ID"),
    odfiRouting: routing(env, "ACH_ODFI_ROUTING"),
  };
}

const FILE_ID_MODIFIERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";

const utcDay = (at: number) => new Date(at).toISOString().slice(0, 10).replace(/-/g, "");

/** `ach-YYYYMMDD-<batch id>.txt`, the day (UTC) the batch was exported. */
export const achFileName = (batchId: number, createdAt: number) => `ach-${utcDay(createdAt)}-${batchId}.txt`;

/** The part of the name before the batch id: known before the batch row exists. */
export const achFileNamePrefix = (createdAt: number) => `ach-${utcDay(createdAt)}-`;

export interface BatchPayout {
  id: number;
  userId: number;
  amountCents: number;
  accountHolderName: string;
  accountLast4: string;
  accountNumberSealed: string | null;
  routingNumber: string;
  accountType: "checking" | "savings";
}

/** The credits of these payouts, their account numbers opened; one that cannot be opened is a 409 naming it. */
export async function achCredits(env: Env, payouts: readonly BatchPayout[]): Promise<AchCredit[]> {
  return Promise.all(
    payouts.map(async (p) => {
      if (p.accountNumberSealed === null) throw new HttpError(409, "payout_not_exportable", PAYOUTS.notExportable(p.id));
      let accountNumber: string;
      try {
        // Bound to this payout's player, bank and last 4 digits: a number copied from another row does not open.
        accountNumber = await open(env, p.accountNumberSealed, payoutSealContext(p));
      } catch {
        throw new HttpError(409, "payout_not_exportable", PAYOUTS.sealedUnreadable(p.id));
      }
      return {
        routingNumber: p.routingNumber,
        accountNumber,
        accountType: p.accountType,
        amountCents: p.amountCents,
        name: p.accountHolderName,
        id: String(p.id),
      };
    }),
  );
}

/** The file of batch `batchId`, made at `createdAt`, paying `credits` (in payout id order). */
export function achFileOf(originator: AchOriginator, batchId: number, createdAt: number, credits: readonly AchCredit[]): string {
  return buildAchFile({
    originator,
    credits,
    createdAt: new Date(createdAt),
    // Files of one day are told apart by this letter; with the batch id in the name too, 36 a day stay distinct.
    fileIdModifier: FILE_ID_MODIFIERS[(batchId - 1) % FILE_ID_MODIFIERS.length]!,
    batchNumber: batchId % 10_000_000,
  });
}
