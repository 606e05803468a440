CREATE TABLE `question_shortfalls` (
	`category_id` integer PRIMARY KEY NOT NULL,
	`slot_start` integer NOT NULL,
	`needed` integer NOT NULL,
	`available` integer NOT NULL,
	`noted_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	FOREIGN KEY (`category_id`) REFERENCES `categories`(`id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
ALTER TABLE `questions` ADD `answer_shown_at` integer;--> statement-breakpoint
ALTER TABLE `questions` ADD `practice_only` integer DEFAULT false NOT NULL;--> statement-breakpoint
-- Questions whose answers were already shown before this rule existed are burned: those of finished
-- prize tournaments (their fairness report revealed every committed question) and of practice runs.
UPDATE `questions` SET `answer_shown_at` = cast(unixepoch('subsecond') * 1000 as integer)
WHERE `id` IN (
  SELECT tq.`question_id` FROM `tournament_questions` tq JOIN `tournaments` t ON t.`id` = tq.`tournament_id`
  WHERE (t.`kind` = 'standard' AND t.`status` = 'completed') OR t.`kind` = 'practice_run'
);
