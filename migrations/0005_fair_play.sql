ALTER TABLE `questions` ADD `paid_uses` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `tournament_participants` ADD `device_hash` text;--> statement-breakpoint
ALTER TABLE `tournament_participants` ADD `network_hash` text;--> statement-breakpoint
ALTER TABLE `tournament_participants` ADD `flags` text;--> statement-breakpoint
ALTER TABLE `tournaments` ADD `question_draw` integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE `tournaments` ADD `fairness_commitment` text;--> statement-breakpoint
ALTER TABLE `user_responses` ADD `answered_at` integer;--> statement-breakpoint
-- Held prizes (fair-play review): a held row is in the ledger but not in the balance until an
-- operator releases it (held -> completed, applied then, once) or forfeits it (held ->
-- forfeited, never applied; the house records the amount). The triggers of 0001 are replaced so
-- that neither held nor forfeited rows touch a balance.
DROP TRIGGER `transactions_apply_insert`;
--> statement-breakpoint
CREATE TRIGGER `transactions_apply_insert` AFTER INSERT ON `transactions`
WHEN NEW.`status` IN ('completed', 'pending')
BEGIN
  UPDATE `users` SET `balance_cents` = `balance_cents` + NEW.`amount_cents` WHERE `id` = NEW.`user_id`;
END;
--> statement-breakpoint
DROP TRIGGER `transactions_apply_fail`;
--> statement-breakpoint
CREATE TRIGGER `transactions_apply_fail` AFTER UPDATE OF `status` ON `transactions`
WHEN OLD.`status` IN ('completed', 'pending') AND NEW.`status` = 'failed'
BEGIN
  UPDATE `users` SET `balance_cents` = `balance_cents` - OLD.`amount_cents` WHERE `id` = NEW.`user_id`;
END;
--> statement-breakpoint
CREATE TRIGGER `transactions_apply_release` AFTER UPDATE OF `status` ON `transactions`
WHEN OLD.`status` = 'held' AND NEW.`status` = 'completed'
BEGIN
  UPDATE `users` SET `balance_cents` = `balance_cents` + NEW.`amount_cents` WHERE `id` = NEW.`user_id`;
END;
--> statement-breakpoint
-- A held row only moves to completed or forfeited; nothing else becomes held or forfeited; a
-- forfeited row is final.
CREATE TRIGGER `transactions_held_moves` BEFORE UPDATE OF `status` ON `transactions`
WHEN (OLD.`status` = 'held' AND NEW.`status` NOT IN ('held', 'completed', 'forfeited'))
  OR (OLD.`status` <> 'held' AND NEW.`status` IN ('held', 'forfeited') AND NEW.`status` <> OLD.`status`)
BEGIN
  SELECT RAISE(ABORT, 'a held prize is only released or forfeited');
END;
