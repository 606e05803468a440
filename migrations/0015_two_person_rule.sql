CREATE TABLE `two_person_tally` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`bucket` text NOT NULL,
	`kind` text NOT NULL,
	`operator_id` integer NOT NULL,
	`payee_id` integer,
	`amount_cents` integer NOT NULL,
	`reference` text NOT NULL,
	`created_at` integer DEFAULT (cast(unixepoch('subsecond') * 1000 as integer)) NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `two_person_tally_reference_unique` ON `two_person_tally` (`reference`);--> statement-breakpoint
CREATE INDEX `two_person_tally_operator_idx` ON `two_person_tally` (`bucket`,`operator_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `two_person_tally_payee_idx` ON `two_person_tally` (`bucket`,`payee_id`,`created_at`);--> statement-breakpoint
ALTER TABLE `approvals` ADD `beneficiary_id` integer;--> statement-breakpoint
ALTER TABLE `approvals` ADD `target` text;--> statement-breakpoint
CREATE UNIQUE INDEX `approvals_pending_unique` ON `approvals` (`kind`,`target`,`amount_cents`) WHERE "approvals"."status" = 'pending';--> statement-breakpoint
ALTER TABLE `payout_batches` ADD `file_sealed` text;--> statement-breakpoint
-- The payouts exported in the last 24 hours without a second operator count from the start.
INSERT INTO `two_person_tally` (`bucket`, `kind`, `operator_id`, `payee_id`, `amount_cents`, `reference`, `created_at`)
SELECT 'payout', 'payout', b.created_by, p.user_id, p.amount_cents, 'payout:' || p.id, b.created_at
FROM payouts p JOIN payout_batches b ON b.id = p.batch_id
WHERE p.approved_at IS NULL AND b.created_at > cast(unixepoch('subsecond') * 1000 as integer) - 86400000;--> statement-breakpoint
-- Who each request from before pays: the payout's player, the adjusted account.
UPDATE `approvals` SET `beneficiary_id` = (SELECT user_id FROM payouts WHERE id = json_extract(payload, '$.payoutId')) WHERE kind = 'payout';--> statement-breakpoint
UPDATE `approvals` SET `beneficiary_id` = json_extract(payload, '$.userId') WHERE kind = 'adjustment';
