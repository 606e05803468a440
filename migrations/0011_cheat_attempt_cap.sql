DROP INDEX `cheat_attempts_tournament_idx`;--> statement-breakpoint
ALTER TABLE `cheat_attempts` ADD `suppressed` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX `cheat_attempts_tournament_user_idx` ON `cheat_attempts` (`tournament_id`,`user_id`);