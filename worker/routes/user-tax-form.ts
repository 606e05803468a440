// /api/user/tax-form: the W-9 of a US winner (docs/identity-and-tax.md, "Tax"). GET answers the
// status (the form in force, with only the TIN's last 4 digits); POST files a new W-9, which
// replaces the one in force and keeps the old one for the records. Filing holds a TIN, so it needs
// a step-up: a stolen session cookie alone cannot put someone else's name on the account's 1099.
import { Hono } from "hono";
import { taxFormSchema } from "../../common/api/tax";
import { TAX } from "../../common/messages";
import { requireStepUp } from "../auth/step-up";
import { seal } from "../crypto/sealed";
import { taxForms } from "../db/schema";
import { currentUser, requireUser } from "../http/middleware";
import { hit, type Limit } from "../http/rate-limit";
import { validate } from "../http/validate";
import type { AppEnv } from "../http/app-env";
import { sendSecurityNotice } from "../email/account-mail";
import { requestRegion } from "../responsible-play/region";
import { taxFormSealContext, taxStatus } from "../tax/forms";

const TAX_FILINGS_LIMIT: Limit = { max: 5, windowMs: 60 * 60_000 };

/** The status without the cent figures the gate uses. */
const view = ({ yearPrizesCents: _p, thresholdCents: _t, ...status }: Awaited<ReturnType<typeof taxStatus>>) => status;

export const userTaxFormRoutes = new Hono<AppEnv>()
  .use(requireUser)
  .get("/", async (c) =>
    c.json(view(await taxStatus(c.env, c.get("db"), currentUser(c), { requestCountry: requestRegion(c)?.country ?? null }))),
  )
  .post("/", requireStepUp, validate("json", taxFormSchema), async (c) => {
    const me = currentUser(c);
    const f = c.req.valid("json");
    const db = c.get("db");
    // Each filing is a row kept for good and a mail: a handful an hour is plenty for corrections.
    await hit(db, `tax-form:user:${me.id}`, TAX_FILINGS_LIMIT);
    const tinLast4 = f.tin.slice(-4);
    const now = Date.now();
    const tinSealed = await seal(c.env, f.tin, taxFormSealContext({ userId: me.id, tinType: f.tinType, tinLast4 }));
    await db.insert(taxForms).values({
      userId: me.id,
      legalName: f.legalName,
      businessName: f.businessName ?? null,
      taxClassification: f.taxClassification,
      tinType: f.tinType,
      tinSealed,
      tinLast4,
      street: f.street,
      city: f.city,
      state: f.state,
      zip: f.zip,
      signatureName: f.signatureName,
      certifiedAt: now,
    });
    sendSecurityNotice(c, me, { kind: "tax_form_filed", tinLast4, at: now });
    return c.json({
      ...view(await taxStatus(c.env, db, me, { now, requestCountry: requestRegion(c)?.country ?? null })),
      message: TAX.saved,
    });
  });
