ALTER TABLE `accounts` ADD `closed_at` integer;--> statement-breakpoint
ALTER TABLE `accounts` ADD `delete_at` integer;--> statement-breakpoint
CREATE INDEX `accounts_delete_at` ON `accounts` (`delete_at`);