-- Sync listings (docs/decisions/sync.md) need updated_at to follow commit order within an account:
-- a write whose clock reading is older than a change already committed (a request that waited on a
-- capacity guard, a slow queue chunk, another isolate's clock) takes the newest updated_at of its
-- account instead, so a client that synced past that change still sees this one. The check reads
-- the (account_id, updated_at) index; rows are rewritten only in that rare case.
CREATE TRIGGER bookings_updated_at_commit_order_insert AFTER INSERT ON bookings
WHEN NEW.updated_at < (SELECT MAX(updated_at) FROM bookings WHERE account_id = NEW.account_id)
BEGIN
  UPDATE bookings SET updated_at = (SELECT MAX(updated_at) FROM bookings WHERE account_id = NEW.account_id) WHERE id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER bookings_updated_at_commit_order_update AFTER UPDATE OF updated_at ON bookings
WHEN NEW.updated_at < (SELECT MAX(updated_at) FROM bookings WHERE account_id = NEW.account_id)
BEGIN
  UPDATE bookings SET updated_at = (SELECT MAX(updated_at) FROM bookings WHERE account_id = NEW.account_id) WHERE id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER people_updated_at_commit_order_insert AFTER INSERT ON people
WHEN NEW.updated_at < (SELECT MAX(updated_at) FROM people WHERE account_id = NEW.account_id)
BEGIN
  UPDATE people SET updated_at = (SELECT MAX(updated_at) FROM people WHERE account_id = NEW.account_id) WHERE id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER people_updated_at_commit_order_update AFTER UPDATE OF updated_at ON people
WHEN NEW.updated_at < (SELECT MAX(updated_at) FROM people WHERE account_id = NEW.account_id)
BEGIN
  UPDATE people SET updated_at = (SELECT MAX(updated_at) FROM people WHERE account_id = NEW.account_id) WHERE id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER events_updated_at_commit_order_insert AFTER INSERT ON events
WHEN NEW.updated_at < (SELECT MAX(updated_at) FROM events WHERE account_id = NEW.account_id)
BEGIN
  UPDATE events SET updated_at = (SELECT MAX(updated_at) FROM events WHERE account_id = NEW.account_id) WHERE id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER events_updated_at_commit_order_update AFTER UPDATE OF updated_at ON events
WHEN NEW.updated_at < (SELECT MAX(updated_at) FROM events WHERE account_id = NEW.account_id)
BEGIN
  UPDATE events SET updated_at = (SELECT MAX(updated_at) FROM events WHERE account_id = NEW.account_id) WHERE id = NEW.id;
END;
