-- A booking's revision, its iCalendar SEQUENCE, grows with every change of what a calendar shows
-- of it (docs/decisions/calendar-feeds.md). A trigger, so no write path can forget it; SQLite's
-- recursive_triggers is off, and the WHEN skips a write that sets the revision itself.
CREATE TRIGGER bookings_revision_update AFTER UPDATE OF resource_id, event_id, service_id, person_id, booked_from, booked_to, state, active, title, count ON bookings
WHEN NEW.revision = OLD.revision
BEGIN
  UPDATE bookings SET revision = revision + 1 WHERE id = NEW.id;
END;
