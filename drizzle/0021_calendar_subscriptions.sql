CREATE TABLE `busy_times` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`resource_id` integer NOT NULL,
	`subscription_id` integer NOT NULL,
	`occupied_from` integer NOT NULL,
	`occupied_to` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `busy_times_resource_occupied` ON `busy_times` (`resource_id`,`occupied_from`,`occupied_to`);--> statement-breakpoint
CREATE INDEX `busy_times_subscription` ON `busy_times` (`subscription_id`,`occupied_from`);--> statement-breakpoint
CREATE TABLE `calendar_subscriptions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`resource_id` integer NOT NULL,
	`url` text NOT NULL,
	`url_hint` text NOT NULL,
	`name` text,
	`etag` text,
	`last_modified` text,
	`last_fetched_at` integer,
	`last_success_at` integer,
	`last_error` text,
	`last_error_at` integer,
	`failures` integer DEFAULT 0 NOT NULL,
	`events_read` integer DEFAULT 0 NOT NULL,
	`busy_count` integer DEFAULT 0 NOT NULL,
	`next_fetch_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `calendar_subscriptions_account_resource` ON `calendar_subscriptions` (`account_id`,`resource_id`);--> statement-breakpoint
CREATE INDEX `calendar_subscriptions_due` ON `calendar_subscriptions` (`next_fetch_at`);--> statement-breakpoint
CREATE TRIGGER busy_times_availability_insert AFTER INSERT ON busy_times
BEGIN
  INSERT INTO availability_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER busy_times_availability_update AFTER UPDATE OF resource_id, occupied_from, occupied_to ON busy_times
BEGIN
  INSERT INTO availability_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER busy_times_availability_delete AFTER DELETE ON busy_times
BEGIN
  INSERT INTO availability_versions (account_id, version) VALUES (OLD.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER busy_times_booking_hour_insert AFTER INSERT ON busy_times
BEGIN
  INSERT INTO booking_hour_versions (account_id, resource_id, hour, version)
    WITH RECURSIVE hours(hour) AS (SELECT NEW.occupied_from / 3600000 UNION ALL SELECT hour + 1 FROM hours WHERE hour < (NEW.occupied_to - 1) / 3600000 AND hour - NEW.occupied_from / 3600000 < 336)
    SELECT NEW.account_id, NEW.resource_id, hour, 1 FROM hours WHERE NEW.occupied_from >= 0 AND (NEW.occupied_to - 1) / 3600000 - NEW.occupied_from / 3600000 < 336
    UNION ALL SELECT NEW.account_id, NEW.resource_id, -1, 1 WHERE NOT (NEW.occupied_from >= 0 AND (NEW.occupied_to - 1) / 3600000 - NEW.occupied_from / 3600000 < 336)
    ON CONFLICT (resource_id, hour) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER busy_times_booking_hour_update AFTER UPDATE OF resource_id, occupied_from, occupied_to ON busy_times
BEGIN
  INSERT INTO booking_hour_versions (account_id, resource_id, hour, version)
    WITH RECURSIVE hours(hour) AS (SELECT OLD.occupied_from / 3600000 UNION ALL SELECT hour + 1 FROM hours WHERE hour < (OLD.occupied_to - 1) / 3600000 AND hour - OLD.occupied_from / 3600000 < 336)
    SELECT OLD.account_id, OLD.resource_id, hour, 1 FROM hours WHERE OLD.occupied_from >= 0 AND (OLD.occupied_to - 1) / 3600000 - OLD.occupied_from / 3600000 < 336
    UNION ALL SELECT OLD.account_id, OLD.resource_id, -1, 1 WHERE NOT (OLD.occupied_from >= 0 AND (OLD.occupied_to - 1) / 3600000 - OLD.occupied_from / 3600000 < 336)
    ON CONFLICT (resource_id, hour) DO UPDATE SET version = version + 1;
  INSERT INTO booking_hour_versions (account_id, resource_id, hour, version)
    WITH RECURSIVE hours(hour) AS (SELECT NEW.occupied_from / 3600000 UNION ALL SELECT hour + 1 FROM hours WHERE hour < (NEW.occupied_to - 1) / 3600000 AND hour - NEW.occupied_from / 3600000 < 336)
    SELECT NEW.account_id, NEW.resource_id, hour, 1 FROM hours WHERE NEW.occupied_from >= 0 AND (NEW.occupied_to - 1) / 3600000 - NEW.occupied_from / 3600000 < 336
    UNION ALL SELECT NEW.account_id, NEW.resource_id, -1, 1 WHERE NOT (NEW.occupied_from >= 0 AND (NEW.occupied_to - 1) / 3600000 - NEW.occupied_from / 3600000 < 336)
    ON CONFLICT (resource_id, hour) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER busy_times_booking_hour_delete AFTER DELETE ON busy_times
BEGIN
  INSERT INTO booking_hour_versions (account_id, resource_id, hour, version)
    WITH RECURSIVE hours(hour) AS (SELECT OLD.occupied_from / 3600000 UNION ALL SELECT hour + 1 FROM hours WHERE hour < (OLD.occupied_to - 1) / 3600000 AND hour - OLD.occupied_from / 3600000 < 336)
    SELECT OLD.account_id, OLD.resource_id, hour, 1 FROM hours WHERE OLD.occupied_from >= 0 AND (OLD.occupied_to - 1) / 3600000 - OLD.occupied_from / 3600000 < 336
    UNION ALL SELECT OLD.account_id, OLD.resource_id, -1, 1 WHERE NOT (OLD.occupied_from >= 0 AND (OLD.occupied_to - 1) / 3600000 - OLD.occupied_from / 3600000 < 336)
    ON CONFLICT (resource_id, hour) DO UPDATE SET version = version + 1;
END;
