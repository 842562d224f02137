ALTER TABLE `accounts` ADD `previous_webhook_secret` text;--> statement-breakpoint
ALTER TABLE `accounts` ADD `previous_webhook_secret_expires_at` integer;