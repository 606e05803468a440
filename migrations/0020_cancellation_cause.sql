ALTER TABLE `tournaments` ADD `cancel_cause` text;--> statement-breakpoint
ALTER TABLE `tournaments` ADD `cancel_reason` text;--> statement-breakpoint
-- custom: backfill the cause of tournaments cancelled before it was stored: an operator's cancellation left an audit row (tournament.cancel, its reason in the note); every other one was the lifecycle's, for too few players.
UPDATE `tournaments` SET `cancel_cause` = 'operator', `cancel_reason` = (SELECT `note` FROM `audit_log` WHERE `action` = 'tournament.cancel' AND `target_type` = 'tournament' AND `target_id` = CAST(`tournaments`.`id` AS TEXT) ORDER BY `id` DESC LIMIT 1) WHERE `status` = 'cancelled' AND EXISTS (SELECT 1 FROM `audit_log` WHERE `action` = 'tournament.cancel' AND `target_type` = 'tournament' AND `target_id` = CAST(`tournaments`.`id` AS TEXT));--> statement-breakpoint
UPDATE `tournaments` SET `cancel_cause` = 'too_few_players' WHERE `status` = 'cancelled' AND `cancel_cause` IS NULL;
