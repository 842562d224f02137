-- A visitor may move their own booking on the booking site (docs/decisions/booking-site.md, issue 34);
-- null, every existing account's value, means "as allow_cancellation". It shapes no slot, so no trigger takes it.
ALTER TABLE `accounts` ADD `allow_rescheduling` integer;