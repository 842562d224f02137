CREATE TABLE `booking_day_versions` (
	`account_id` integer NOT NULL,
	`resource_id` integer NOT NULL,
	`day` integer NOT NULL,
	`version` integer NOT NULL,
	PRIMARY KEY(`resource_id`, `day`)
);
--> statement-breakpoint
CREATE TABLE `calendar_versions` (
	`account_id` integer PRIMARY KEY NOT NULL,
	`version` integer NOT NULL
);
