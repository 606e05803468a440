CREATE TABLE `early_reversals` (
	`event_id` text PRIMARY KEY NOT NULL,
	`payment_intent_id` text NOT NULL,
	`kind` text NOT NULL,
	`object_id` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `early_reversals_intent_idx` ON `early_reversals` (`payment_intent_id`);