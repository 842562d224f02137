-- Slot holds (docs/decisions/holds.md): their table, the two account settings, and the version
-- triggers src/db/invalidation.ts states for them (npm run db:triggers): a hold's writes bump what a booking's do.
CREATE TABLE `slot_holds` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`service_id` integer NOT NULL,
	`resource_id` integer,
	`event_id` integer,
	`booked_from` integer NOT NULL,
	`booked_to` integer NOT NULL,
	`occupied_from` integer NOT NULL,
	`occupied_to` integer NOT NULL,
	`count` integer NOT NULL,
	`secret_hash` text NOT NULL,
	`client_hash` text,
	`expires_at` integer NOT NULL,
	`ended_at` integer,
	`ended_by` text,
	`booking_id` integer,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `slot_holds_resource_occupied` ON `slot_holds` (`resource_id`,`occupied_from`,`occupied_to`);--> statement-breakpoint
CREATE INDEX `slot_holds_account_event` ON `slot_holds` (`account_id`,`event_id`);--> statement-breakpoint
CREATE INDEX `slot_holds_account_expires` ON `slot_holds` (`account_id`,`expires_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `slot_holds_secret` ON `slot_holds` (`secret_hash`);--> statement-breakpoint
ALTER TABLE `accounts` ADD `slot_holds_enabled` integer DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE `accounts` ADD `slot_hold_minutes` integer DEFAULT 5 NOT NULL;--> statement-breakpoint
CREATE TRIGGER slot_holds_availability_insert AFTER INSERT ON slot_holds
BEGIN
  INSERT INTO availability_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER slot_holds_availability_update AFTER UPDATE OF resource_id, event_id, occupied_from, occupied_to, count, expires_at, ended_at ON slot_holds
BEGIN
  INSERT INTO availability_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER slot_holds_availability_delete AFTER DELETE ON slot_holds
BEGIN
  INSERT INTO availability_versions (account_id, version) VALUES (OLD.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER slot_holds_calendar_insert AFTER INSERT ON slot_holds
WHEN NEW.event_id IS NOT NULL
BEGIN
  INSERT INTO calendar_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER slot_holds_calendar_update AFTER UPDATE OF resource_id, event_id, occupied_from, occupied_to, count, expires_at, ended_at ON slot_holds
WHEN NEW.event_id IS NOT NULL OR OLD.event_id IS NOT NULL
BEGIN
  INSERT INTO calendar_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER slot_holds_calendar_delete AFTER DELETE ON slot_holds
WHEN OLD.event_id IS NOT NULL
BEGIN
  INSERT INTO calendar_versions (account_id, version) VALUES (OLD.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER slot_holds_booking_hour_insert AFTER INSERT ON slot_holds
WHEN NEW.event_id IS NULL
BEGIN
  INSERT INTO booking_hour_versions (account_id, resource_id, hour, version)
    WITH RECURSIVE hours(hour) AS (SELECT NEW.occupied_from / 3600000 UNION ALL SELECT hour + 1 FROM hours WHERE hour < (NEW.occupied_to - 1) / 3600000 AND hour - NEW.occupied_from / 3600000 < 336)
    SELECT NEW.account_id, NEW.resource_id, hour, 1 FROM hours WHERE NEW.event_id IS NULL AND NEW.occupied_from >= 0 AND (NEW.occupied_to - 1) / 3600000 - NEW.occupied_from / 3600000 < 336
    UNION ALL SELECT NEW.account_id, NEW.resource_id, -1, 1 WHERE NEW.event_id IS NULL AND NOT (NEW.occupied_from >= 0 AND (NEW.occupied_to - 1) / 3600000 - NEW.occupied_from / 3600000 < 336)
    ON CONFLICT (resource_id, hour) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER slot_holds_booking_hour_update AFTER UPDATE OF resource_id, event_id, occupied_from, occupied_to, count, expires_at, ended_at ON slot_holds
WHEN NEW.event_id IS NULL OR OLD.event_id IS NULL
BEGIN
  INSERT INTO booking_hour_versions (account_id, resource_id, hour, version)
    WITH RECURSIVE hours(hour) AS (SELECT OLD.occupied_from / 3600000 UNION ALL SELECT hour + 1 FROM hours WHERE hour < (OLD.occupied_to - 1) / 3600000 AND hour - OLD.occupied_from / 3600000 < 336)
    SELECT OLD.account_id, OLD.resource_id, hour, 1 FROM hours WHERE OLD.event_id IS NULL AND OLD.occupied_from >= 0 AND (OLD.occupied_to - 1) / 3600000 - OLD.occupied_from / 3600000 < 336
    UNION ALL SELECT OLD.account_id, OLD.resource_id, -1, 1 WHERE OLD.event_id IS NULL AND NOT (OLD.occupied_from >= 0 AND (OLD.occupied_to - 1) / 3600000 - OLD.occupied_from / 3600000 < 336)
    ON CONFLICT (resource_id, hour) DO UPDATE SET version = version + 1;
  INSERT INTO booking_hour_versions (account_id, resource_id, hour, version)
    WITH RECURSIVE hours(hour) AS (SELECT NEW.occupied_from / 3600000 UNION ALL SELECT hour + 1 FROM hours WHERE hour < (NEW.occupied_to - 1) / 3600000 AND hour - NEW.occupied_from / 3600000 < 336)
    SELECT NEW.account_id, NEW.resource_id, hour, 1 FROM hours WHERE NEW.event_id IS NULL AND NEW.occupied_from >= 0 AND (NEW.occupied_to - 1) / 3600000 - NEW.occupied_from / 3600000 < 336
    UNION ALL SELECT NEW.account_id, NEW.resource_id, -1, 1 WHERE NEW.event_id IS NULL AND NOT (NEW.occupied_from >= 0 AND (NEW.occupied_to - 1) / 3600000 - NEW.occupied_from / 3600000 < 336)
    ON CONFLICT (resource_id, hour) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER slot_holds_booking_hour_delete AFTER DELETE ON slot_holds
WHEN OLD.event_id IS NULL
BEGIN
  INSERT INTO booking_hour_versions (account_id, resource_id, hour, version)
    WITH RECURSIVE hours(hour) AS (SELECT OLD.occupied_from / 3600000 UNION ALL SELECT hour + 1 FROM hours WHERE hour < (OLD.occupied_to - 1) / 3600000 AND hour - OLD.occupied_from / 3600000 < 336)
    SELECT OLD.account_id, OLD.resource_id, hour, 1 FROM hours WHERE OLD.event_id IS NULL AND OLD.occupied_from >= 0 AND (OLD.occupied_to - 1) / 3600000 - OLD.occupied_from / 3600000 < 336
    UNION ALL SELECT OLD.account_id, OLD.resource_id, -1, 1 WHERE OLD.event_id IS NULL AND NOT (OLD.occupied_from >= 0 AND (OLD.occupied_to - 1) / 3600000 - OLD.occupied_from / 3600000 < 336)
    ON CONFLICT (resource_id, hour) DO UPDATE SET version = version + 1;
END;
