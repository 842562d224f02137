CREATE TABLE `payment_facts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`booking_id` integer,
	`provider` text NOT NULL,
	`source` text NOT NULL,
	`kind` text NOT NULL,
	`object_id` text NOT NULL,
	`payment_intent_id` text,
	`status` text NOT NULL,
	`paid` integer DEFAULT false NOT NULL,
	`amount` integer NOT NULL,
	`currency` text,
	`observed_at` integer NOT NULL,
	`recorded_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `payment_facts_source` ON `payment_facts` (`account_id`,`provider`,`source`);--> statement-breakpoint
CREATE INDEX `payment_facts_booking` ON `payment_facts` (`account_id`,`booking_id`);--> statement-breakpoint
CREATE INDEX `payment_facts_intent` ON `payment_facts` (`account_id`,`payment_intent_id`);--> statement-breakpoint
-- The payments sweep's endings not yet confirmed at the provider (features/payments/sweep.ts): found without reading every booking.
CREATE INDEX `bookings_payment_reconcile` ON `bookings` (`account_id`) WHERE json_extract(payment, '$.reconcile_at') IS NOT NULL;
