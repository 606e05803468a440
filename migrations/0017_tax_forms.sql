CREATE TABLE `tax_forms` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`legal_name` text NOT NULL,
	`business_name` text,
	`tax_classification` text NOT NULL,
	`tin_type` text NOT NULL,
	`tin_sealed` text NOT NULL,
	`tin_last4` text NOT NULL,
	`street` text NOT NULL,
	`city` text NOT NULL,
	`state` text NOT NULL,
	`zip` text NOT NULL,
	`signature_name` text NOT NULL,
	`certified_at` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `tax_forms_user_idx` ON `tax_forms` (`user_id`,`id`);--> statement-breakpoint
-- custom: W-9 filings are records the payer must keep; a new filing is a new row, so no row ever changes or goes.
CREATE TRIGGER `tax_forms_no_update` BEFORE UPDATE ON `tax_forms` BEGIN SELECT RAISE(ABORT, 'tax_forms is append-only'); END;
--> statement-breakpoint
CREATE TRIGGER `tax_forms_no_delete` BEFORE DELETE ON `tax_forms` BEGIN SELECT RAISE(ABORT, 'tax_forms is append-only'); END;
