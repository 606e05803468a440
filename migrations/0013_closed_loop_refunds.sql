CREATE TABLE `sandbox_refunds` (
	`id` text PRIMARY KEY NOT NULL,
	`intent_id` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`idempotency_key` text NOT NULL,
	`reason` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`intent_id`) REFERENCES `sandbox_payment_intents`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "sandbox_refunds_amount_positive" CHECK("sandbox_refunds"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sandbox_refunds_idempotency_key_unique` ON `sandbox_refunds` (`idempotency_key`);--> statement-breakpoint
CREATE INDEX `sandbox_refunds_intent_idx` ON `sandbox_refunds` (`intent_id`);--> statement-breakpoint
ALTER TABLE `payouts` ADD `withdrawal_group` text;--> statement-breakpoint
ALTER TABLE `sandbox_payment_intents` ADD `refunded_cents` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `sandbox_payment_intents` ADD `card_last4` text;