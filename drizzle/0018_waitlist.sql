-- The waitlist (docs/decisions/waitlist.md): its entries and the two account settings.
CREATE TABLE `waitlist_entries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`service_id` integer NOT NULL,
	`resource_id` integer,
	`event_id` integer,
	`booked_from` integer NOT NULL,
	`booked_to` integer NOT NULL,
	`count` integer NOT NULL,
	`person_attributes` text NOT NULL,
	`token_hash` text NOT NULL,
	`state` text NOT NULL,
	`hold_id` integer,
	`offer_expires_at` integer,
	`booking_id` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `waitlist_account_time` ON `waitlist_entries` (`account_id`,`booked_from`,`state`);--> statement-breakpoint
CREATE INDEX `waitlist_account_event` ON `waitlist_entries` (`account_id`,`event_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `waitlist_token` ON `waitlist_entries` (`token_hash`);--> statement-breakpoint
ALTER TABLE `accounts` ADD `waitlist_enabled` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `accounts` ADD `waitlist_offer_minutes` integer DEFAULT 30 NOT NULL;