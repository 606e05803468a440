ALTER TABLE `tournaments` ADD `creator_user_id` integer REFERENCES users(id);--> statement-breakpoint
ALTER TABLE `tournaments` ADD `invite_code` text;--> statement-breakpoint
CREATE UNIQUE INDEX `tournaments_invite_code_unique` ON `tournaments` (`invite_code`);--> statement-breakpoint
CREATE INDEX `tournaments_creator_idx` ON `tournaments` (`creator_user_id`,`status`);