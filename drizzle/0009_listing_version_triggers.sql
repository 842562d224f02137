-- Booking-list answers are cached under the account's listing version (docs/decisions/latency.md,
-- "Booking-list answers"). These triggers bump it inside the statement of every write to a table
-- whose rows a listed booking shows or is filtered by: bookings (every column: the answer shows
-- nearly all, and seats held come from them), and the people, resources, services and events the
-- answer embeds (inserts too: a booking may name a row that does not exist yet). Being triggers, no
-- write path (requests, capacity guards, queues, cron, the operator API, an account move) can
-- forget it. Rows never move between accounts, so an update bumps its row's account.
CREATE TRIGGER bookings_listing_insert AFTER INSERT ON bookings
BEGIN
  INSERT INTO listing_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER bookings_listing_update AFTER UPDATE ON bookings
BEGIN
  INSERT INTO listing_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER bookings_listing_delete AFTER DELETE ON bookings
BEGIN
  INSERT INTO listing_versions (account_id, version) VALUES (OLD.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER people_listing_insert AFTER INSERT ON people
BEGIN
  INSERT INTO listing_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER people_listing_update AFTER UPDATE ON people
BEGIN
  INSERT INTO listing_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER people_listing_delete AFTER DELETE ON people
BEGIN
  INSERT INTO listing_versions (account_id, version) VALUES (OLD.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER resources_listing_insert AFTER INSERT ON resources
BEGIN
  INSERT INTO listing_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER resources_listing_update AFTER UPDATE ON resources
BEGIN
  INSERT INTO listing_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER resources_listing_delete AFTER DELETE ON resources
BEGIN
  INSERT INTO listing_versions (account_id, version) VALUES (OLD.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER services_listing_insert AFTER INSERT ON services
BEGIN
  INSERT INTO listing_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER services_listing_update AFTER UPDATE ON services
BEGIN
  INSERT INTO listing_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER services_listing_delete AFTER DELETE ON services
BEGIN
  INSERT INTO listing_versions (account_id, version) VALUES (OLD.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER events_listing_insert AFTER INSERT ON events
BEGIN
  INSERT INTO listing_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER events_listing_update AFTER UPDATE ON events
BEGIN
  INSERT INTO listing_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
--> statement-breakpoint
CREATE TRIGGER events_listing_delete AFTER DELETE ON events
BEGIN
  INSERT INTO listing_versions (account_id, version) VALUES (OLD.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET version = version + 1;
END;
