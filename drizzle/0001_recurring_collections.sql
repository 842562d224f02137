CREATE TABLE `recurring_collections` (
	`id` text PRIMARY KEY NOT NULL,
	`account_id` integer NOT NULL,
	`kind` text NOT NULL,
	`template` text NOT NULL,
	`rrule` text,
	`rdate` text,
	`exdate` text,
	`occurrences` text NOT NULL,
	`status` text NOT NULL,
	`next_index` integer DEFAULT 0 NOT NULL,
	`created_count` integer DEFAULT 0 NOT NULL,
	`skipped` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `recurring_collections_account` ON `recurring_collections` (`account_id`,`created_at`);