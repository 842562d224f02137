-- Paid bookings (issue 31, docs/decisions/payments.md): services say what a booking pays, accounts
-- their payment window, refund policy and linked Stripe account; a booking keeps its payment as JSON;
-- provider events applied are recorded once.
CREATE TABLE `payment_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`provider` text NOT NULL,
	`event_id` text NOT NULL,
	`kind` text NOT NULL,
	`booking_id` integer,
	`received_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_events_provider_event` ON `payment_events` (`provider`,`event_id`);--> statement-breakpoint
ALTER TABLE `accounts` ADD `payment_window_minutes` integer DEFAULT 15 NOT NULL;--> statement-breakpoint
ALTER TABLE `accounts` ADD `refund_until_hours` integer DEFAULT 24;--> statement-breakpoint
ALTER TABLE `accounts` ADD `stripe_account_id` text;--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_stripe_account_id_unique` ON `accounts` (`stripe_account_id`);--> statement-breakpoint
ALTER TABLE `bookings` ADD `payment` text;--> statement-breakpoint
ALTER TABLE `services` ADD `payment` text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE `services` ADD `deposit` text;--> statement-breakpoint
-- The payments sweep's refunds still owed (features/payments/sweep.ts): found without reading every booking.
CREATE INDEX `bookings_refund_due` ON `bookings` (`account_id`) WHERE json_extract(payment, '$.refund_due') IS NOT NULL;
