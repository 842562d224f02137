-- Buffers between appointments (docs/decisions/buffers.md). The triggers below replace those whose
-- rule changed (npm run db:triggers): a booking's buffers and a service's buffers now bump versions, and
-- a resource booking bumps the hours of its occupied span.
DROP INDEX `bookings_resource_time`;--> statement-breakpoint
ALTER TABLE `bookings` ADD `buffer_before` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `bookings` ADD `buffer_after` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `bookings` ADD `occupied_from` integer GENERATED ALWAYS AS (booked_from - buffer_before * 60000) VIRTUAL;--> statement-breakpoint
ALTER TABLE `bookings` ADD `occupied_to` integer GENERATED ALWAYS AS (booked_to + buffer_after * 60000) VIRTUAL;--> statement-breakpoint
CREATE INDEX `bookings_resource_occupied` ON `bookings` (`resource_id`,`active`,`occupied_from`,`occupied_to`);--> statement-breakpoint
ALTER TABLE `services` ADD `buffer_before` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `services` ADD `buffer_after` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
DROP TRIGGER IF EXISTS bookings_availability_update;
--> statement-breakpoint
CREATE TRIGGER bookings_availability_update AFTER UPDATE OF resource_id, event_id, booked_from, booked_to, buffer_before, buffer_after, expires_at, state, active, count ON bookings
BEGIN
  INSERT INTO availability_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS services_availability_update;
--> statement-breakpoint
CREATE TRIGGER services_availability_update AFTER UPDATE OF active, booking_type, interval, interval_rounding, max_slots, has_day_booking, day_booking_specify_time, same_day, buffer_before, buffer_after ON services
BEGIN
  INSERT INTO availability_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS bookings_calendar_update;
--> statement-breakpoint
CREATE TRIGGER bookings_calendar_update AFTER UPDATE OF resource_id, event_id, booked_from, booked_to, buffer_before, buffer_after, expires_at, state, active, count ON bookings
WHEN NEW.event_id IS NOT NULL OR OLD.event_id IS NOT NULL
BEGIN
  INSERT INTO calendar_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS services_calendar_update;
--> statement-breakpoint
CREATE TRIGGER services_calendar_update AFTER UPDATE OF active, booking_type, interval, interval_rounding, max_slots, has_day_booking, day_booking_specify_time, same_day, buffer_before, buffer_after ON services
BEGIN
  INSERT INTO calendar_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS bookings_booking_hour_insert;
--> statement-breakpoint
CREATE TRIGGER bookings_booking_hour_insert AFTER INSERT ON bookings
WHEN NEW.event_id IS NULL
BEGIN
  INSERT INTO booking_hour_versions (account_id, resource_id, hour, version)
    WITH RECURSIVE hours(hour) AS (SELECT NEW.occupied_from / 3600000 UNION ALL SELECT hour + 1 FROM hours WHERE hour < (NEW.occupied_to - 1) / 3600000 AND hour - NEW.occupied_from / 3600000 < 336)
    SELECT NEW.account_id, NEW.resource_id, hour, 1 FROM hours WHERE NEW.event_id IS NULL AND NEW.occupied_from >= 0 AND (NEW.occupied_to - 1) / 3600000 - NEW.occupied_from / 3600000 < 336
    UNION ALL SELECT NEW.account_id, NEW.resource_id, -1, 1 WHERE NEW.event_id IS NULL AND NOT (NEW.occupied_from >= 0 AND (NEW.occupied_to - 1) / 3600000 - NEW.occupied_from / 3600000 < 336)
    ON CONFLICT (resource_id, hour) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS bookings_booking_hour_update;
--> statement-breakpoint
CREATE TRIGGER bookings_booking_hour_update AFTER UPDATE OF resource_id, event_id, booked_from, booked_to, buffer_before, buffer_after, expires_at, state, active, count ON bookings
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
DROP TRIGGER IF EXISTS bookings_booking_hour_delete;
--> statement-breakpoint
CREATE TRIGGER bookings_booking_hour_delete AFTER DELETE ON bookings
WHEN OLD.event_id IS NULL
BEGIN
  INSERT INTO booking_hour_versions (account_id, resource_id, hour, version)
    WITH RECURSIVE hours(hour) AS (SELECT OLD.occupied_from / 3600000 UNION ALL SELECT hour + 1 FROM hours WHERE hour < (OLD.occupied_to - 1) / 3600000 AND hour - OLD.occupied_from / 3600000 < 336)
    SELECT OLD.account_id, OLD.resource_id, hour, 1 FROM hours WHERE OLD.event_id IS NULL AND OLD.occupied_from >= 0 AND (OLD.occupied_to - 1) / 3600000 - OLD.occupied_from / 3600000 < 336
    UNION ALL SELECT OLD.account_id, OLD.resource_id, -1, 1 WHERE OLD.event_id IS NULL AND NOT (OLD.occupied_from >= 0 AND (OLD.occupied_to - 1) / 3600000 - OLD.occupied_from / 3600000 < 336)
    ON CONFLICT (resource_id, hour) DO UPDATE SET version = version + 1;
END;
