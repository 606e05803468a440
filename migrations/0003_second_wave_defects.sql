CREATE TABLE `house_ledger` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`amount_cents` integer NOT NULL,
	`type` text NOT NULL,
	`tournament_id` integer,
	`reference` text NOT NULL,
	`description` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`tournament_id`) REFERENCES `tournaments`(`id`) ON UPDATE no action ON DELETE no action,
	CONSTRAINT "house_ledger_amount_positive" CHECK("house_ledger"."amount_cents" > 0)
);
--> statement-breakpoint
CREATE UNIQUE INDEX `house_ledger_reference_unique` ON `house_ledger` (`reference`);--> statement-breakpoint
ALTER TABLE `tournaments` ADD `kind` text DEFAULT 'standard' NOT NULL;--> statement-breakpoint
ALTER TABLE `tournaments` ADD `owner_user_id` integer REFERENCES users(id);--> statement-breakpoint
CREATE INDEX `tournaments_owner_idx` ON `tournaments` (`owner_user_id`,`status`);--> statement-breakpoint
ALTER TABLE `users` ADD `country` text;--> statement-breakpoint
ALTER TABLE `users` ADD `avatar_version` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `transactions_type_time_idx` ON `transactions` (`type`,`created_at`);--> statement-breakpoint
-- The always-open practice entries were recognised by their title; they now say what they are.
UPDATE `tournaments` SET `kind` = 'practice' WHERE `entry_fee_cents` = 0 AND instr(`title`, 'Practice') > 0;
