CREATE TABLE `message_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`provider` text NOT NULL,
	`event_id` text NOT NULL,
	`message_id` integer NOT NULL,
	`kind` text NOT NULL,
	`occurred_at` integer NOT NULL,
	`received_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `message_events_provider_event` ON `message_events` (`account_id`,`provider`,`event_id`);--> statement-breakpoint
CREATE TABLE `undeliverable_recipients` (
	`account_id` integer NOT NULL,
	`channel` text NOT NULL,
	`recipient` text NOT NULL,
	`reason` text NOT NULL,
	`detail` text,
	`message_id` integer,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`account_id`, `channel`, `recipient`)
);
--> statement-breakpoint
ALTER TABLE `messages` ADD `provider_message_id` text;