CREATE TABLE `calendar_feeds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`resource_id` integer,
	`token_hash` text NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `calendar_feeds_account_token` ON `calendar_feeds` (`account_id`,`token_hash`);--> statement-breakpoint
CREATE INDEX `calendar_feeds_account_resource` ON `calendar_feeds` (`account_id`,`resource_id`);--> statement-breakpoint
CREATE TABLE `calendar_file_keys` (
	`account_id` integer PRIMARY KEY NOT NULL,
	`secret` text NOT NULL
);
--> statement-breakpoint
ALTER TABLE `bookings` ADD `revision` integer DEFAULT 0 NOT NULL;