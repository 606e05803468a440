CREATE TABLE `sandbox_payment_intents` (
	`id` text PRIMARY KEY NOT NULL,
	`client_secret` text NOT NULL,
	`user_id` integer NOT NULL,
	`amount_cents` integer NOT NULL,
	`currency` text DEFAULT 'usd' NOT NULL,
	`status` text DEFAULT 'requires_payment_method' NOT NULL,
	`idempotency_key` text NOT NULL,
	`last_error` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	CONSTRAINT "sandbox_intents_amount_positive" CHECK("sandbox_payment_intents"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `sandbox_payment_intents_client_secret_unique` ON `sandbox_payment_intents` (`client_secret`);--> statement-breakpoint
CREATE UNIQUE INDEX `sandbox_payment_intents_idempotency_key_unique` ON `sandbox_payment_intents` (`idempotency_key`);--> statement-breakpoint
ALTER TABLE `users` ADD `deleted_at` integer;