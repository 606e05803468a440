CREATE TABLE `settlement_chunks` (
	`tournament_id` integer NOT NULL,
	`chunk` integer NOT NULL,
	`applied_at` integer NOT NULL,
	PRIMARY KEY(`tournament_id`, `chunk`),
	FOREIGN KEY (`tournament_id`) REFERENCES `tournaments`(`id`) ON UPDATE no action ON DELETE no action
);
