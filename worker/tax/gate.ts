// The withdrawal's tax check (docs/identity-and-tax.md, "Tax"): a US payee whose prizes this
// calendar year reached the reporting threshold withdraws only with a W-9 on file. It applies to
// every withdrawal, its card-refund part included: the refusal is about the player, not the
// money's route, and the year's 1099-MISC needs the TIN whichever way money leaves.
import { formatThresholdUsd } from "../../common/domain/tax";
import { TAX } from "../../common/messages";
import type { Context } from "hono";
import type { AppEnv } from "../http/app-env";
import { HttpError } from "../http/errors";
import { currentUser } from "../http/middleware";
import { requestRegion } from "../responsible-play/region";
import { taxStatus } from "./forms";

/** 403 tax_form_required when the signed-in player must file a W-9 before withdrawing. */
export async function assertTaxFormIfRequired(c: Context<AppEnv>): Promise<void> {
  const status = await taxStatus(c.env, c.get("db"), currentUser(c), { requestCountry: requestRegion(c)?.country ?? null });
  if (status.formRequired)
    throw new HttpError(403, "tax_form_required", TAX.formRequired(formatThresholdUsd(status.thresholdCents), status.year));
}
