CREATE TABLE `terms_acceptances` (
	`user_id` integer NOT NULL,
	`document` text NOT NULL,
	`version` text NOT NULL,
	`accepted_at` integer NOT NULL,
	`network_hash` text,
	PRIMARY KEY(`user_id`, `document`, `version`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
