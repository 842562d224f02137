-- An account may keep its services' buffers inside opening hours (docs/decisions/buffers.md); the
-- setting shapes slots, so the accounts triggers that bump the availability and calendar versions
-- take it (npm run db:triggers).
ALTER TABLE `accounts` ADD `buffers_within_opening_hours` integer DEFAULT false NOT NULL;--> statement-breakpoint
DROP TRIGGER IF EXISTS accounts_availability_update;
--> statement-breakpoint
CREATE TRIGGER accounts_availability_update AFTER UPDATE OF time_zone, locale, country_code, closed_for_holidays, interval_rounding, slot_generation_type, first_bookable_period, future_bookable_period, buffers_within_opening_hours ON accounts
BEGIN
  INSERT INTO availability_versions (account_id, version) VALUES (NEW.id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
DROP TRIGGER IF EXISTS accounts_calendar_update;
--> statement-breakpoint
CREATE TRIGGER accounts_calendar_update AFTER UPDATE OF time_zone, locale, country_code, closed_for_holidays, interval_rounding, slot_generation_type, first_bookable_period, future_bookable_period, buffers_within_opening_hours ON accounts
BEGIN
  INSERT INTO calendar_versions (account_id, version) VALUES (NEW.id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
