CREATE TABLE `identity_events` (
	`event_id` text PRIMARY KEY NOT NULL,
	`session_id` text NOT NULL,
	`type` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE TABLE `identity_name_mismatches` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`user_id` integer NOT NULL,
	`holder_name` text NOT NULL,
	`legal_name` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `identity_name_mismatches_user_idx` ON `identity_name_mismatches` (`user_id`,`created_at`);--> statement-breakpoint
CREATE TABLE `identity_owners` (
	`hash` text PRIMARY KEY NOT NULL,
	`user_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `identity_verifications` (
	`user_id` integer PRIMARY KEY NOT NULL,
	`provider` text NOT NULL,
	`session_id` text NOT NULL,
	`status` text NOT NULL,
	`reason` text,
	`first_name` text,
	`last_name` text,
	`date_of_birth` text,
	`document_country` text,
	`document_type` text,
	`identity_hash` text,
	`verified_count` integer DEFAULT 0 NOT NULL,
	`verified_at` integer,
	`reverify_requested_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `identity_verifications_session_unique` ON `identity_verifications` (`session_id`);--> statement-breakpoint
CREATE INDEX `identity_verifications_hash_idx` ON `identity_verifications` (`identity_hash`);--> statement-breakpoint
ALTER TABLE `users` ADD `identity_duplicate_of` integer;