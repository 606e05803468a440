// A frozen account: a card refund or dispute took more than the balance held, so the player owes
// the house. Until a deposit settles it, the account may neither join nor withdraw.
import { MONEY } from "../../common/messages";
import { formatCents } from "../../common/domain/money";
import { HttpError } from "../http/errors";

/** The refusal a frozen account gets, naming what is owed and what to do. */
export const accountFrozen = (owedCents: number) => new HttpError(403, "account_frozen", MONEY.accountFrozen(formatCents(owedCents)));
