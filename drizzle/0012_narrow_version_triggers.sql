-- Slot answers are dated by the calendar version and the booking-hour versions of the resources and
-- hours they cover (src/db/invalidation.ts, which renders these triggers: npm run db:triggers), so a
-- booking on one resource and day leaves every other answer valid. Existing bookings start with no
-- hour rows, which is safe: cached answers live in isolates' memory, which a deploy renews.
CREATE TRIGGER bookings_calendar_insert AFTER INSERT ON bookings
WHEN NEW.event_id IS NOT NULL
BEGIN
  INSERT INTO calendar_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER bookings_calendar_update AFTER UPDATE OF resource_id, event_id, booked_from, booked_to, expires_at, state, active, count ON bookings
WHEN NEW.event_id IS NOT NULL OR OLD.event_id IS NOT NULL
BEGIN
  INSERT INTO calendar_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER bookings_calendar_delete AFTER DELETE ON bookings
WHEN OLD.event_id IS NOT NULL
BEGIN
  INSERT INTO calendar_versions (account_id, version) VALUES (OLD.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER events_calendar_insert AFTER INSERT ON events
BEGIN
  INSERT INTO calendar_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER events_calendar_update AFTER UPDATE OF resource_id, service_id, published, capacity, starts_at, ends_at, active ON events
BEGIN
  INSERT INTO calendar_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER events_calendar_delete AFTER DELETE ON events
BEGIN
  INSERT INTO calendar_versions (account_id, version) VALUES (OLD.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER resources_calendar_insert AFTER INSERT ON resources
BEGIN
  INSERT INTO calendar_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER resources_calendar_update AFTER UPDATE OF active, capacity, opening_hours_mon, opening_hours_tue, opening_hours_wed, opening_hours_thu, opening_hours_fri, opening_hours_sat, opening_hours_sun ON resources
BEGIN
  INSERT INTO calendar_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER resources_calendar_delete AFTER DELETE ON resources
BEGIN
  INSERT INTO calendar_versions (account_id, version) VALUES (OLD.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER resource_exception_dates_calendar_insert AFTER INSERT ON resource_exception_dates
BEGIN
  INSERT INTO calendar_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER resource_exception_dates_calendar_update AFTER UPDATE OF resource_id, exception_date, opening_hours ON resource_exception_dates
BEGIN
  INSERT INTO calendar_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER resource_exception_dates_calendar_delete AFTER DELETE ON resource_exception_dates
BEGIN
  INSERT INTO calendar_versions (account_id, version) VALUES (OLD.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER services_calendar_insert AFTER INSERT ON services
BEGIN
  INSERT INTO calendar_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER services_calendar_update AFTER UPDATE OF active, booking_type, interval, interval_rounding, max_slots, has_day_booking, day_booking_specify_time, same_day ON services
BEGIN
  INSERT INTO calendar_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER services_calendar_delete AFTER DELETE ON services
BEGIN
  INSERT INTO calendar_versions (account_id, version) VALUES (OLD.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER providers_calendar_insert AFTER INSERT ON providers
BEGIN
  INSERT INTO calendar_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER providers_calendar_update AFTER UPDATE OF resource_id, service_id, active ON providers
BEGIN
  INSERT INTO calendar_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER providers_calendar_delete AFTER DELETE ON providers
BEGIN
  INSERT INTO calendar_versions (account_id, version) VALUES (OLD.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER accounts_calendar_update AFTER UPDATE OF time_zone, locale, country_code, closed_for_holidays, interval_rounding, slot_generation_type, first_bookable_period, future_bookable_period ON accounts
BEGIN
  INSERT INTO calendar_versions (account_id, version) VALUES (NEW.id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER bookings_booking_hour_insert AFTER INSERT ON bookings
WHEN NEW.event_id IS NULL
BEGIN
  INSERT INTO booking_hour_versions (account_id, resource_id, hour, version)
    WITH RECURSIVE hours(hour) AS (SELECT NEW.booked_from / 3600000 UNION ALL SELECT hour + 1 FROM hours WHERE hour < (NEW.booked_to - 1) / 3600000 AND hour - NEW.booked_from / 3600000 < 336)
    SELECT NEW.account_id, NEW.resource_id, hour, 1 FROM hours WHERE NEW.event_id IS NULL AND NEW.booked_from >= 0 AND (NEW.booked_to - 1) / 3600000 - NEW.booked_from / 3600000 < 336
    UNION ALL SELECT NEW.account_id, NEW.resource_id, -1, 1 WHERE NEW.event_id IS NULL AND NOT (NEW.booked_from >= 0 AND (NEW.booked_to - 1) / 3600000 - NEW.booked_from / 3600000 < 336)
    ON CONFLICT (resource_id, hour) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER bookings_booking_hour_update AFTER UPDATE OF resource_id, event_id, booked_from, booked_to, expires_at, state, active, count ON bookings
WHEN NEW.event_id IS NULL OR OLD.event_id IS NULL
BEGIN
  INSERT INTO booking_hour_versions (account_id, resource_id, hour, version)
    WITH RECURSIVE hours(hour) AS (SELECT OLD.booked_from / 3600000 UNION ALL SELECT hour + 1 FROM hours WHERE hour < (OLD.booked_to - 1) / 3600000 AND hour - OLD.booked_from / 3600000 < 336)
    SELECT OLD.account_id, OLD.resource_id, hour, 1 FROM hours WHERE OLD.event_id IS NULL AND OLD.booked_from >= 0 AND (OLD.booked_to - 1) / 3600000 - OLD.booked_from / 3600000 < 336
    UNION ALL SELECT OLD.account_id, OLD.resource_id, -1, 1 WHERE OLD.event_id IS NULL AND NOT (OLD.booked_from >= 0 AND (OLD.booked_to - 1) / 3600000 - OLD.booked_from / 3600000 < 336)
    ON CONFLICT (resource_id, hour) DO UPDATE SET version = version + 1;
  INSERT INTO booking_hour_versions (account_id, resource_id, hour, version)
    WITH RECURSIVE hours(hour) AS (SELECT NEW.booked_from / 3600000 UNION ALL SELECT hour + 1 FROM hours WHERE hour < (NEW.booked_to - 1) / 3600000 AND hour - NEW.booked_from / 3600000 < 336)
    SELECT NEW.account_id, NEW.resource_id, hour, 1 FROM hours WHERE NEW.event_id IS NULL AND NEW.booked_from >= 0 AND (NEW.booked_to - 1) / 3600000 - NEW.booked_from / 3600000 < 336
    UNION ALL SELECT NEW.account_id, NEW.resource_id, -1, 1 WHERE NEW.event_id IS NULL AND NOT (NEW.booked_from >= 0 AND (NEW.booked_to - 1) / 3600000 - NEW.booked_from / 3600000 < 336)
    ON CONFLICT (resource_id, hour) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER bookings_booking_hour_delete AFTER DELETE ON bookings
WHEN OLD.event_id IS NULL
BEGIN
  INSERT INTO booking_hour_versions (account_id, resource_id, hour, version)
    WITH RECURSIVE hours(hour) AS (SELECT OLD.booked_from / 3600000 UNION ALL SELECT hour + 1 FROM hours WHERE hour < (OLD.booked_to - 1) / 3600000 AND hour - OLD.booked_from / 3600000 < 336)
    SELECT OLD.account_id, OLD.resource_id, hour, 1 FROM hours WHERE OLD.event_id IS NULL AND OLD.booked_from >= 0 AND (OLD.booked_to - 1) / 3600000 - OLD.booked_from / 3600000 < 336
    UNION ALL SELECT OLD.account_id, OLD.resource_id, -1, 1 WHERE OLD.event_id IS NULL AND NOT (OLD.booked_from >= 0 AND (OLD.booked_to - 1) / 3600000 - OLD.booked_from / 3600000 < 336)
    ON CONFLICT (resource_id, hour) DO UPDATE SET version = version + 1;
END;
