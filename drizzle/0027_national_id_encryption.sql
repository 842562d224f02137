DROP INDEX `people_account_national_id`;--> statement-breakpoint
ALTER TABLE `people` ADD `national_id_hash` text;--> statement-breakpoint
CREATE UNIQUE INDEX `people_account_national_id_hash` ON `people` (`account_id`,`national_id_hash`);--> statement-breakpoint
CREATE INDEX `people_account_national_id_plain` ON `people` (`account_id`,`national_id_no`) WHERE national_id_hash IS NULL AND national_id_no IS NOT NULL;--> statement-breakpoint
CREATE INDEX `people_national_id_sealed` ON `people` (`national_id_no`) WHERE national_id_hash IS NOT NULL;