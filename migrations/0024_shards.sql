ALTER TABLE `tournament_participants` ADD `shard` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `tournaments` ADD `shard_count` integer DEFAULT 1 NOT NULL;