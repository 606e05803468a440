-- The ledger is the only way a balance changes. Every transaction row that is not failed is
-- applied to users.balance_cents by these triggers, inside the statement that writes the row,
-- so the CHECK (balance_cents >= 0) on users aborts an overdraft together with its ledger row,
-- and a duplicate reference (INSERT ... ON CONFLICT (reference) DO NOTHING) changes nothing.
CREATE TRIGGER `transactions_apply_insert` AFTER INSERT ON `transactions`
WHEN NEW.`status` <> 'failed'
BEGIN
  UPDATE `users` SET `balance_cents` = `balance_cents` + NEW.`amount_cents` WHERE `id` = NEW.`user_id`;
END;
--> statement-breakpoint
-- A pending or completed row that turns failed gives its amount back (e.g. a failed payout).
CREATE TRIGGER `transactions_apply_fail` AFTER UPDATE OF `status` ON `transactions`
WHEN OLD.`status` <> 'failed' AND NEW.`status` = 'failed'
BEGIN
  UPDATE `users` SET `balance_cents` = `balance_cents` - OLD.`amount_cents` WHERE `id` = NEW.`user_id`;
END;
--> statement-breakpoint
-- Amounts are immutable once written; only the status may move.
CREATE TRIGGER `transactions_amount_immutable` BEFORE UPDATE OF `amount_cents`, `user_id` ON `transactions`
BEGIN
  SELECT RAISE(ABORT, 'ledger rows are immutable');
END;
--> statement-breakpoint
-- A failed row is final: reviving it would need a new row with its own reference.
CREATE TRIGGER `transactions_failed_final` BEFORE UPDATE OF `status` ON `transactions`
WHEN OLD.`status` = 'failed' AND NEW.`status` <> 'failed'
BEGIN
  SELECT RAISE(ABORT, 'a failed ledger row is final');
END;
