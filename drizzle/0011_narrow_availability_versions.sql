CREATE TABLE `booking_hour_versions` (
	`account_id` integer NOT NULL,
	`resource_id` integer NOT NULL,
	`hour` integer NOT NULL,
	`version` integer NOT NULL,
	PRIMARY KEY(`resource_id`, `hour`)
);
--> statement-breakpoint
CREATE TABLE `calendar_versions` (
	`account_id` integer PRIMARY KEY NOT NULL,
	`version` integer NOT NULL
);
