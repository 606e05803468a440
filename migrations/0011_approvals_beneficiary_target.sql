ALTER TABLE `approvals` ADD `beneficiary_id` integer;--> statement-breakpoint
ALTER TABLE `approvals` ADD `target` text;--> statement-breakpoint
CREATE UNIQUE INDEX `approvals_pending_unique` ON `approvals` (`kind`,`target`,`amount_cents`) WHERE "approvals"."status" = 'pending';--> statement-breakpoint
-- Who each request from before pays: the payout's player, the adjusted account.
UPDATE `approvals` SET `beneficiary_id` = (SELECT user_id FROM payouts WHERE id = json_extract(payload, '$.payoutId')) WHERE kind = 'payout';--> statement-breakpoint
UPDATE `approvals` SET `beneficiary_id` = json_extract(payload, '$.userId') WHERE kind = 'adjustment';
