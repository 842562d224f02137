ALTER TABLE `bookings` ADD `public_token_hash` text;--> statement-breakpoint
ALTER TABLE `bookings` ADD `verify_attempts` integer DEFAULT 0 NOT NULL;