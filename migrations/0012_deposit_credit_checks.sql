CREATE TABLE `deposit_intents` (
	`id` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	`status` text DEFAULT 'open' NOT NULL,
	`refund_reason` text,
	`refunded_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `deposit_intents_user_idx` ON `deposit_intents` (`user_id`,`status`,`created_at`);--> statement-breakpoint
ALTER TABLE `sandbox_payment_intents` ADD `refunded_at` integer;--> statement-breakpoint
ALTER TABLE `sandbox_payment_intents` ADD `refund_reason` text;--> statement-breakpoint
-- A refunded deposit row never enters a balance (transactions_apply_insert applies only completed
-- and pending rows) and is final: nothing may turn it into money in the balance later.
CREATE TRIGGER `transactions_refunded_final` BEFORE UPDATE OF `status` ON `transactions`
WHEN (OLD.`status` = 'refunded' AND NEW.`status` <> 'refunded') OR (OLD.`status` <> 'refunded' AND NEW.`status` = 'refunded')
BEGIN
  SELECT RAISE(ABORT, 'a refunded ledger row is written once and is final');
END;
