CREATE TABLE `approvals` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`kind` text NOT NULL,
	`payload` text NOT NULL,
	`summary` text NOT NULL,
	`amount_cents` integer NOT NULL,
	`requested_by` integer NOT NULL,
	`requested_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`status` text DEFAULT 'pending' NOT NULL,
	`decided_by` integer,
	`decided_at` integer,
	`note` text,
	`result_ref` text
);
--> statement-breakpoint
CREATE INDEX `approvals_status_idx` ON `approvals` (`status`,`requested_at`);--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`actor_user_id` integer NOT NULL,
	`action` text NOT NULL,
	`target_type` text NOT NULL,
	`target_id` text,
	`before` text,
	`after` text,
	`note` text,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_log_time_idx` ON `audit_log` (`created_at`);--> statement-breakpoint
CREATE INDEX `audit_log_target_idx` ON `audit_log` (`target_type`,`target_id`);--> statement-breakpoint
CREATE INDEX `audit_log_actor_idx` ON `audit_log` (`actor_user_id`);--> statement-breakpoint
CREATE TABLE `payout_batches` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`file_name` text NOT NULL,
	`entry_count` integer NOT NULL,
	`total_cents` integer NOT NULL,
	`status` text DEFAULT 'exported' NOT NULL,
	`created_by` integer NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL,
	`paid_by` integer,
	`paid_at` integer
);
--> statement-breakpoint
ALTER TABLE `payouts` ADD `account_number_sealed` text;--> statement-breakpoint
ALTER TABLE `payouts` ADD `batch_id` integer;--> statement-breakpoint
ALTER TABLE `payouts` ADD `approved_by` integer;--> statement-breakpoint
ALTER TABLE `payouts` ADD `approved_at` integer;--> statement-breakpoint
ALTER TABLE `question_feedback` ADD `tournament_id` integer;--> statement-breakpoint
ALTER TABLE `question_feedback` ADD `resolution` text;--> statement-breakpoint
ALTER TABLE `question_feedback` ADD `resolved_by` integer;--> statement-breakpoint
ALTER TABLE `question_feedback` ADD `resolved_at` integer;--> statement-breakpoint
ALTER TABLE `questions` ADD `retired_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `suspended_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `banned_at` integer;--> statement-breakpoint
ALTER TABLE `users` ADD `moderation_note` text;--> statement-breakpoint
CREATE TRIGGER `audit_log_no_update` BEFORE UPDATE ON `audit_log`
BEGIN
  SELECT RAISE(ABORT, 'the audit log is append only');
END;
--> statement-breakpoint
CREATE TRIGGER `audit_log_no_delete` BEFORE DELETE ON `audit_log`
BEGIN
  SELECT RAISE(ABORT, 'the audit log is append only');
END;
