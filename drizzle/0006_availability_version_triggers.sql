-- Slot answers are cached under the account's availability version (docs/decisions/latency.md,
-- "Slot answers"). These triggers bump it inside the statement of every write that can change a
-- slot answer, so no write path (requests, capacity guards, queues, cron, the operator API) can
-- forget it. Updates bump only when they set a column the slot reads use; rows never move
-- between accounts, so an update bumps its row's account.
CREATE TRIGGER bookings_availability_insert AFTER INSERT ON bookings
BEGIN
  INSERT INTO availability_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER bookings_availability_update AFTER UPDATE OF resource_id, event_id, booked_from, booked_to, expires_at, state, active, count ON bookings
BEGIN
  INSERT INTO availability_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER bookings_availability_delete AFTER DELETE ON bookings
BEGIN
  INSERT INTO availability_versions (account_id, version) VALUES (OLD.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER events_availability_insert AFTER INSERT ON events
BEGIN
  INSERT INTO availability_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER events_availability_update AFTER UPDATE OF resource_id, service_id, published, capacity, starts_at, ends_at, active ON events
BEGIN
  INSERT INTO availability_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER events_availability_delete AFTER DELETE ON events
BEGIN
  INSERT INTO availability_versions (account_id, version) VALUES (OLD.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER resources_availability_insert AFTER INSERT ON resources
BEGIN
  INSERT INTO availability_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER resources_availability_update AFTER UPDATE OF active, capacity, opening_hours_mon, opening_hours_tue, opening_hours_wed, opening_hours_thu, opening_hours_fri, opening_hours_sat, opening_hours_sun ON resources
BEGIN
  INSERT INTO availability_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER resources_availability_delete AFTER DELETE ON resources
BEGIN
  INSERT INTO availability_versions (account_id, version) VALUES (OLD.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER resource_exception_dates_availability_insert AFTER INSERT ON resource_exception_dates
BEGIN
  INSERT INTO availability_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER resource_exception_dates_availability_update AFTER UPDATE OF resource_id, exception_date, opening_hours ON resource_exception_dates
BEGIN
  INSERT INTO availability_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER resource_exception_dates_availability_delete AFTER DELETE ON resource_exception_dates
BEGIN
  INSERT INTO availability_versions (account_id, version) VALUES (OLD.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER services_availability_insert AFTER INSERT ON services
BEGIN
  INSERT INTO availability_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER services_availability_update AFTER UPDATE OF active, booking_type, interval, interval_rounding, max_slots, has_day_booking, day_booking_specify_time, same_day ON services
BEGIN
  INSERT INTO availability_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER services_availability_delete AFTER DELETE ON services
BEGIN
  INSERT INTO availability_versions (account_id, version) VALUES (OLD.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER providers_availability_insert AFTER INSERT ON providers
BEGIN
  INSERT INTO availability_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER providers_availability_update AFTER UPDATE OF resource_id, service_id, active ON providers
BEGIN
  INSERT INTO availability_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER providers_availability_delete AFTER DELETE ON providers
BEGIN
  INSERT INTO availability_versions (account_id, version) VALUES (OLD.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER accounts_availability_update AFTER UPDATE OF time_zone, locale, country_code, closed_for_holidays, interval_rounding, slot_generation_type, first_bookable_period, future_bookable_period ON accounts
BEGIN
  INSERT INTO availability_versions (account_id, version) VALUES (NEW.id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
