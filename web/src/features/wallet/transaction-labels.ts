// How each ledger row type reads to a person: the player's transaction history and the console's player ledger.
import type { Transaction } from "@common/api/types";

export const TRANSACTION_TYPE_LABEL: Record<Transaction["type"], string> = {
  deposit: "Deposit",
  withdrawal: "Withdrawal",
  tournament_entry: "Tournament Entry",
  prize: "Prize",
  refund: "Refund",
  card_refund: "Card Refund",
  chargeback: "Card Dispute",
  chargeback_reversal: "Dispute Won",
  adjustment: "Adjustment",
};
