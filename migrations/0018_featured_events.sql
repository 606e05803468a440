CREATE TABLE `tournament_reminders` (
	`user_id` integer NOT NULL,
	`tournament_id` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`day_sent_at` integer,
	`soon_sent_at` integer,
	PRIMARY KEY(`user_id`, `tournament_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`tournament_id`) REFERENCES `tournaments`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `tournament_reminders_tournament_idx` ON `tournament_reminders` (`tournament_id`);--> statement-breakpoint
ALTER TABLE `tournaments` ADD `featured_at` integer;--> statement-breakpoint
ALTER TABLE `tournaments` ADD `registration_opens_at` integer;--> statement-breakpoint
CREATE INDEX `tournaments_featured_idx` ON `tournaments` (`featured_at`,`start_time`);