// The tax API's contract (docs/identity-and-tax.md, "Tax"): the W-9 a US winner files, its status
// (never more of the TIN than its last 4 digits) and the operators' 1099-MISC summary.
import { z } from "zod";
import { TAX } from "../messages";
import { TAX_CONSOLE } from "../console-messages";
import {
  isUsZip,
  TAX_CLASSIFICATIONS,
  tinDigits,
  tinProblem,
  TIN_TYPES,
  US_STATE_CODES,
  type TaxClassification,
  type TinType,
} from "../domain/tax";

const text = (min: number, max: number, message: string) =>
  z
    .string({ error: message })
    .trim()
    .min(min, message)
    .max(max, message)
    // Control characters would end up in the export's CSV.
    .refine((s) => ![...s].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f), message);

/** Names compared as people write them: case and runs of spaces do not matter. */
const sameName = (a: string, b: string) => a.trim().replace(/\s+/g, " ").toLowerCase() === b.trim().replace(/\s+/g, " ").toLowerCase();

/** POST /api/user/tax-form: the W-9's fields. The TIN comes out as its 9 digits. */
export const taxFormSchema = z
  .object({
    legalName: text(2, 100, TAX.legalNameRequired),
    businessName: z.preprocess(
      (v) => (typeof v === "string" && v.trim() === "" ? undefined : v),
      text(1, 100, TAX.businessNameLength).optional(),
    ),
    taxClassification: z.enum(TAX_CLASSIFICATIONS, { error: TAX.classificationRequired }),
    tinType: z.enum(TIN_TYPES, { error: TAX.tinTypeRequired }),
    tin: z
      .string({ error: TAX.tinRequired })
      .trim()
      .min(1, TAX.tinRequired)
      .transform(tinDigits)
      .refine((d) => /^\d{9}$/.test(d), TAX.tinFormat),
    street: text(2, 100, TAX.streetRequired),
    city: text(2, 50, TAX.cityRequired),
    state: z.preprocess((v) => (typeof v === "string" ? v.trim().toUpperCase() : v), z.enum(US_STATE_CODES, { error: TAX.stateInvalid })),
    zip: z.string({ error: TAX.zipInvalid }).trim().refine(isUsZip, TAX.zipInvalid),
    certified: z.literal(true, { error: TAX.certificationRequired }),
    signatureName: text(2, 100, TAX.signatureRequired),
  })
  .superRefine((f, ctx) => {
    const problem = tinProblem(f.tinType, f.tin);
    if (problem) ctx.addIssue({ code: "custom", path: ["tin"], message: f.tinType === "ssn" ? TAX.ssnInvalid : TAX.einInvalid });
    else if (f.taxClassification !== "individual" && f.tinType !== "ein") {
      ctx.addIssue({ code: "custom", path: ["tinType"], message: TAX.einForEntities });
    }
    if (!sameName(f.signatureName, f.legalName)) ctx.addIssue({ code: "custom", path: ["signatureName"], message: TAX.signatureMismatch });
  });

export type TaxFormInput = z.input<typeof taxFormSchema>;

/** The W-9 in force as its owner sees it again: everything but the TIN, of which only the last 4 digits. */
export interface TaxFormView {
  legalName: string;
  businessName: string | null;
  taxClassification: TaxClassification;
  tinType: TinType;
  tinLast4: string;
  street: string;
  city: string;
  state: string;
  zip: string;
  /** ISO time it was certified. */
  certifiedAt: string;
}

/** GET /api/user/tax-form, and the answer of a filing. */
export interface TaxStatus {
  /** Whether the account counts as a US payee (common/domain/tax.ts, isUsTaxPayee). */
  usPayee: boolean;
  year: number;
  /** USD: this calendar year's prizes, and the reporting threshold. */
  yearPrizes: number;
  threshold: number;
  /** Whether a withdrawal would be refused for want of a W-9 now. */
  formRequired: boolean;
  form: TaxFormView | null;
  message?: string;
}

/** GET /api/admin/tax/1099-misc?year= (and /summary?year=). */
export const taxYearQuerySchema = z.object({
  year: z.coerce
    .number({ error: TAX_CONSOLE.yearInvalid })
    .int(TAX_CONSOLE.yearInvalid)
    .min(2000, TAX_CONSOLE.yearInvalid)
    .refine((y) => y <= new Date().getUTCFullYear() + 1, TAX_CONSOLE.yearInvalid),
});

/** The console's view of a year's 1099-MISC export, without any TIN. USD. */
export interface Tax1099Summary {
  year: number;
  threshold: number;
  /** Every prize the ledger paid in the year, to anyone. */
  totalPrizes: number;
  /** What the export reports: the listed payees' prizes; equals the C row's total. */
  reportedTotal: number;
  payees: number;
  /** Listed payees without a W-9 (empty TIN in the file). */
  payeesWithoutForm: number;
  /** Who they are, to ask them to file before the return is due (first 100, by prizes, largest first). */
  withoutForm: { userId: number; username: string; prizes: number }[];
  /** Not reported: prizes of US payees under the threshold, and of everyone else. */
  belowThreshold: number;
  notUs: number;
}
