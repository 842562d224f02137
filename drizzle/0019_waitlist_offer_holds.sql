-- A waitlist offer's hold names its entry (issue 30, docs/decisions/waitlist.md): the hold goes in
-- only while that entry waits, so a live offer hold without its offered entry is a visible fault.
ALTER TABLE `slot_holds` ADD `waitlist_entry_id` integer;--> statement-breakpoint
UPDATE `slot_holds` SET `waitlist_entry_id` = (SELECT `id` FROM `waitlist_entries` WHERE `waitlist_entries`.`hold_id` = `slot_holds`.`id`)
  WHERE `id` IN (SELECT `hold_id` FROM `waitlist_entries` WHERE `hold_id` IS NOT NULL);
