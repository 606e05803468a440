// An ACH file in the NACHA format: one batch of PPD credits paying players' withdrawals to their
// bank accounts (docs/operating.md, "Payouts"). Pure: the caller supplies the payouts, the
// originator's identity and the moment; the bank reads the result as is.

export const NACHA_RECORD_LENGTH = 94;
export const NACHA_BLOCKING_FACTOR = 10;

/** Who sends the file and through which bank (the ODFI). */
export interface AchOriginator {
  /** The receiving point of the file: the ODFI's or its operator's routing number (9 digits). */
  immediateDestination: string;
  immediateDestinationName: string;
  /** The sender as the bank knows it (10 characters, often a routing number or 1 + tax id). */
  immediateOrigin: string;
  immediateOriginName: string;
  companyName: string;
  /** The company's identification at the bank (10 characters). */
  companyId: string;
  /** The originating bank's routing number (9 digits); its first 8 prefix every trace number. */
  odfiRouting: string;
}

export interface AchCredit {
  /** 9-digit ABA routing number of the player's bank. */
  routingNumber: string;
  accountNumber: string;
  accountType: "checking" | "savings";
  amountCents: number;
  /** The account holder's name as given. */
  name: string;
  /** Ours, so the bank's returns can be matched: the payout id. */
  id: string;
}

export interface AchFileInput {
  originator: AchOriginator;
  credits: readonly AchCredit[];
  /** When the file is made; the effective entry date is the next day (UTC). */
  createdAt: Date;
  /** Distinguishes files made on the same day (A-Z, 0-9). */
  fileIdModifier: string;
  batchNumber: number;
}

/** Credit to a checking (22) or savings (32) account. */
const TRANSACTION_CODE = { checking: "22", savings: "32" } as const;

/** Upper-case printable ASCII only: banks reject anything else. */
const ascii = (s: string) =>
  s
    .normalize("NFKD")
    .replace(/[^\x20-\x7e]/g, "")
    .toUpperCase();

const alpha = (s: string, width: number) => ascii(s).slice(0, width).padEnd(width, " ");
function numeric(n: number | string, width: number): string {
  const digits = String(n);
  if (!/^\d+$/.test(digits) || digits.length > width) throw new Error(`ACH field does not fit ${width} digits: ${digits}`);
  return digits.padStart(width, "0");
}

const yymmdd = (d: Date) =>
  `${String(d.getUTCFullYear() % 100).padStart(2, "0")}${String(d.getUTCMonth() + 1).padStart(2, "0")}${String(d.getUTCDate()).padStart(2, "0")}`;
const hhmm = (d: Date) => `${String(d.getUTCHours()).padStart(2, "0")}${String(d.getUTCMinutes()).padStart(2, "0")}`;

/** Sum of the receiving banks' 8-digit identifications, its last 10 digits. */
export function entryHash(routingNumbers: readonly string[]): string {
  const sum = routingNumbers.reduce((acc, r) => acc + BigInt(r.slice(0, 8)), 0n);
  return String(sum % 10_000_000_000n).padStart(10, "0");
}

function record(...fields: string[]): string {
  const line = fields.join("");
  if (line.length !== NACHA_RECORD_LENGTH) throw new Error(`ACH record of ${line.length} characters, not ${NACHA_RECORD_LENGTH}`);
  return line;
}

/** The file's text: records of 94 characters, one per line, padded with 9s to a multiple of 10 lines. */
export function buildAchFile({ originator: o, credits, createdAt, fileIdModifier, batchNumber }: AchFileInput): string {
  if (credits.length === 0) throw new Error("an ACH file needs at least one credit");
  if (!/^[A-Z0-9]$/.test(fileIdModifier)) throw new Error(`file id modifier must be A-Z or 0-9: ${fileIdModifier}`);
  for (const c of credits) {
    if (!/^\d{9}$/.test(c.routingNumber)) throw new Error(`routing number must be 9 digits (payout ${c.id})`);
    if (!Number.isSafeInteger(c.amountCents) || c.amountCents <= 0) throw new Error(`amount must be positive cents (payout ${c.id})`);
    if (!/^[0-9A-Za-z-]{1,17}$/.test(c.accountNumber)) throw new Error(`account number does not fit (payout ${c.id})`);
  }
  const effective = new Date(createdAt.getTime() + 24 * 60 * 60 * 1000);
  const odfi = o.odfiRouting.slice(0, 8);
  const batch = numeric(batchNumber, 7);
  const totalCents = credits.reduce((acc, c) => acc + c.amountCents, 0);
  const hash = entryHash(credits.map((c) => c.routingNumber));

  const lines = [
    record(
      "1",
      "01",
      ` ${numeric(o.immediateDestination, 9)}`,
      alpha(o.immediateOrigin.padStart(10, " "), 10),
      yymmdd(createdAt),
      hhmm(createdAt),
      fileIdModifier,
      "094",
      "10",
      "1",
      alpha(o.immediateDestinationName, 23),
      alpha(o.immediateOriginName, 23),
      alpha("", 8),
    ),
    record(
      "5",
      "220",
      alpha(o.companyName, 16),
      alpha("", 20),
      alpha(o.companyId, 10),
      "PPD",
      alpha("PAYOUT", 10),
      yymmdd(createdAt),
      yymmdd(effective),
      "   ",
      "1",
      numeric(odfi, 8),
      batch,
    ),
    ...credits.map((c, i) =>
      record(
        "6",
        TRANSACTION_CODE[c.accountType],
        c.routingNumber,
        alpha(c.accountNumber, 17),
        numeric(c.amountCents, 10),
        alpha(c.id, 15),
        alpha(c.name, 22),
        "  ",
        "0",
        numeric(odfi, 8),
        numeric(i + 1, 7),
      ),
    ),
    record(
      "8",
      "220",
      numeric(credits.length, 6),
      hash,
      numeric(0, 12),
      numeric(totalCents, 12),
      alpha(o.companyId, 10),
      alpha("", 19),
      alpha("", 6),
      numeric(odfi, 8),
      batch,
    ),
  ];
  // File control counts the blocks the file will have, its own record included.
  const blocks = Math.ceil((lines.length + 1) / NACHA_BLOCKING_FACTOR);
  lines.push(
    record(
      "9",
      numeric(1, 6),
      numeric(blocks, 6),
      numeric(credits.length, 8),
      hash,
      numeric(0, 12),
      numeric(totalCents, 12),
      alpha("", 39),
    ),
  );
  while (lines.length % NACHA_BLOCKING_FACTOR !== 0) lines.push("9".repeat(NACHA_RECORD_LENGTH));
  return `${lines.join("\n")}\n`;
}
