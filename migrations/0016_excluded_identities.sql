CREATE TABLE `excluded_identities` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`hash` text NOT NULL,
	`ends_at` integer,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `excluded_identities_hash_idx` ON `excluded_identities` (`kind`,`hash`);--> statement-breakpoint
ALTER TABLE `deposit_intents` ADD `card_fingerprint` text;--> statement-breakpoint
ALTER TABLE `payouts` ADD `bank_hash` text;--> statement-breakpoint
ALTER TABLE `sandbox_payment_intents` ADD `card_fingerprint` text;