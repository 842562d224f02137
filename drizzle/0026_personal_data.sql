ALTER TABLE `accounts` ADD `retention_days_after_last_booking` integer;--> statement-breakpoint
ALTER TABLE `accounts` ADD `message_body_retention_days` integer;--> statement-breakpoint
ALTER TABLE `accounts` ADD `delivery_payload_retention_days` integer;--> statement-breakpoint
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
    error = CASE WHEN status IN ('queued', 'sending') THEN 'not sent: the person was erased' ELSE NULL END
  WHERE id = NEW.id;
END;
--> statement-breakpoint
-- An event queued before the erasure and fanned out after it (the queue holds its copy) is stored
-- as erasure leaves a delivery: which event about which object, without the object. The erasure's
-- own event, which carries the blank person, is stored as sent.
CREATE TRIGGER webhook_deliveries_erased_person_insert AFTER INSERT ON webhook_deliveries
WHEN NEW.event <> 'person.erased' AND json_valid(NEW.payload) AND EXISTS (
  SELECT 1 FROM people WHERE erased_at IS NOT NULL AND account_id = NEW.account_id AND id IN (
    CASE WHEN json_extract(NEW.payload, '$.data.object') = 'person' THEN json_extract(NEW.payload, '$.data.id') END,
    json_extract(NEW.payload, '$.data.booking.person_id'),
    json_extract(NEW.payload, '$.data.message.person_id')
  )
)
BEGIN
  UPDATE webhook_deliveries SET payload = json_object('event', json_extract(payload, '$.event'), 'idempotency_id', json_extract(payload, '$.idempotency_id'), 'generated_at', json_extract(payload, '$.generated_at'), 'performed_by', json_extract(payload, '$.performed_by'), 'data', json_object('object', json_extract(payload, '$.data.object'), 'id', json_extract(payload, '$.data.id'), 'erased', json('true')))
  WHERE id = NEW.id;
END;
