ALTER TABLE `tournament_participants` ADD `disqualified_at` integer;--> statement-breakpoint
ALTER TABLE `tournament_participants` ADD `disqualified_reason` text;