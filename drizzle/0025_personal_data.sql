ALTER TABLE `people` ADD `erased_at` integer;--> statement-breakpoint
-- A write that raced an erasure (it read the person before the erasure and wrote after it) must
-- not leave personal data tied to the erased person (docs/decisions/personal-data.md). Triggers,
-- so no write path can forget it; the columns are the registry's (db/personal-data.ts), which
-- test/integration/personal-data.test.ts holds them to.
CREATE TRIGGER bookings_erased_person_insert AFTER INSERT ON bookings
WHEN NEW.person_id IS NOT NULL AND EXISTS (SELECT 1 FROM people WHERE id = NEW.person_id AND erased_at IS NOT NULL)
BEGIN
  UPDATE bookings SET title = NULL, notes = NULL, custom_data = NULL, payment = json_set(payment, '$.client_hash', NULL) WHERE id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER bookings_erased_person_update AFTER UPDATE OF person_id, title, notes, custom_data, payment ON bookings
WHEN NEW.person_id IS NOT NULL AND EXISTS (SELECT 1 FROM people WHERE id = NEW.person_id AND erased_at IS NOT NULL)
  AND (NEW.title IS NOT NULL OR NEW.notes IS NOT NULL OR NEW.custom_data IS NOT NULL OR json_extract(NEW.payment, '$.client_hash') IS NOT NULL)
BEGIN
  UPDATE bookings SET title = NULL, notes = NULL, custom_data = NULL, payment = json_set(payment, '$.client_hash', NULL) WHERE id = NEW.id;
END;
--> statement-breakpoint
CREATE TRIGGER messages_erased_person_insert AFTER INSERT ON messages
WHEN EXISTS (
  SELECT 1 FROM people WHERE erased_at IS NOT NULL
    AND id = COALESCE(NEW.person_id, (SELECT person_id FROM bookings WHERE id = NEW.booking_id))
)
BEGIN
  UPDATE messages SET recipient = '', subject = NULL, body = '',
    status = CASE WHEN status IN ('queued', 'sending') THEN 'failed' ELSE status END,
    error = CASE WHEN status IN ('queued', 'sending') THEN 'not sent: the person was erased' ELSE error END
  WHERE id = NEW.id;
END;
