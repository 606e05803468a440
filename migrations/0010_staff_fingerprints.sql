CREATE TABLE `staff_fingerprints` (
	`kind` text NOT NULL,
	`hash` text NOT NULL,
	`user_id` integer NOT NULL,
	`seen_at` integer NOT NULL,
	PRIMARY KEY(`kind`, `hash`, `user_id`),
	FOREIGN KEY (`user_id`) REFERENCES `users`(`id`) ON UPDATE no action ON DELETE cascade
);
