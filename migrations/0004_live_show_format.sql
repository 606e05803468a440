ALTER TABLE `tournaments` ADD `format` text DEFAULT 'self_paced' NOT NULL;--> statement-breakpoint
-- Scheduled paid tournaments not yet started become live shows, as the scheduler now makes them.
UPDATE `tournaments` SET `format` = 'live_show' WHERE `status` = 'upcoming' AND `kind` = 'standard' AND `entry_fee_cents` > 0;
