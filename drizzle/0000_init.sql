CREATE TABLE `accounts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`subdomain` text NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`time_zone` text NOT NULL,
	`country_code` text NOT NULL,
	`template` integer DEFAULT 1 NOT NULL,
	`locale` text DEFAULT 'en' NOT NULL,
	`currency` text,
	`gateway_analytics` text,
	`css_url` text,
	`address` text,
	`phone_number` text,
	`footer` text,
	`payment_provider` text,
	`gateway_merchant_id` text,
	`gateway_merchant_key` text,
	`logo` text,
	`service_template` text,
	`verification_method` integer DEFAULT 0 NOT NULL,
	`verification_methods` text,
	`email_notification` integer DEFAULT false NOT NULL,
	`sms_notification` integer DEFAULT false NOT NULL,
	`confirm_manually` integer DEFAULT false NOT NULL,
	`public_access` integer DEFAULT true NOT NULL,
	`reminder_sms` integer DEFAULT false NOT NULL,
	`closed_for_holidays` integer DEFAULT false NOT NULL,
	`allow_cancellation` integer DEFAULT true NOT NULL,
	`mail_notification_recipient` text,
	`settings` text,
	`interval_rounding` integer DEFAULT 15 NOT NULL,
	`slot_generation_type` integer DEFAULT 2 NOT NULL,
	`future_bookable_period` text,
	`first_bookable_period` text,
	`cancellation_period` text,
	`new_user_text` text,
	`new_booking_text` text,
	`booking_form` text,
	`person_form` text,
	`resource_form` text,
	`service_form` text,
	`event_form` text,
	`appointment_form` text,
	`category_form` text,
	`sms_verification` text,
	`sms_confirmation` text,
	`sms_modification` text,
	`sms_cancellation` text,
	`sms_reminder` text,
	`mail_verification` text,
	`mail_confirmation` text,
	`mail_modification` text,
	`mail_cancellation` text,
	`mail_verification_subject` text,
	`mail_confirmation_subject` text,
	`mail_modification_subject` text,
	`mail_cancellation_subject` text,
	`api_enabled` integer DEFAULT true NOT NULL,
	`billing_status` text DEFAULT 'ok' NOT NULL,
	`webhook_secret` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_subdomain_unique` ON `accounts` (`subdomain`);--> statement-breakpoint
CREATE TABLE `api_keys` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`key_hash` text NOT NULL,
	`created_at` integer NOT NULL,
	`revoked_at` integer
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE INDEX `api_keys_account` ON `api_keys` (`account_id`);--> statement-breakpoint
CREATE TABLE `bookings` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`service_id` integer,
	`event_id` integer,
	`resource_id` integer NOT NULL,
	`person_id` integer,
	`booked_from` integer NOT NULL,
	`booked_to` integer NOT NULL,
	`expires_at` integer,
	`title` text,
	`notes` text,
	`reminder_at` integer,
	`reminded_at` integer,
	`paid_at` integer,
	`external_id` text,
	`gateway_order_number` text,
	`custom_data` text,
	`state` text NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`count` integer DEFAULT 1 NOT NULL,
	`collection_id` text,
	`status` text,
	`verification_code` text,
	`message_flags` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `bookings_resource_time` ON `bookings` (`resource_id`,`active`,`booked_from`,`booked_to`);--> statement-breakpoint
CREATE INDEX `bookings_account_from` ON `bookings` (`account_id`,`booked_from`);--> statement-breakpoint
CREATE INDEX `bookings_account_updated` ON `bookings` (`account_id`,`updated_at`);--> statement-breakpoint
CREATE INDEX `bookings_account_external` ON `bookings` (`account_id`,`external_id`);--> statement-breakpoint
CREATE INDEX `bookings_account_person` ON `bookings` (`account_id`,`person_id`);--> statement-breakpoint
CREATE INDEX `bookings_account_event` ON `bookings` (`account_id`,`event_id`);--> statement-breakpoint
CREATE INDEX `bookings_state_expires` ON `bookings` (`state`,`expires_at`);--> statement-breakpoint
CREATE INDEX `bookings_reminder_due` ON `bookings` (`reminder_at`) WHERE reminded_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `bookings_collection_start` ON `bookings` (`collection_id`,`booked_from`) WHERE collection_id IS NOT NULL;--> statement-breakpoint
CREATE TABLE `categories` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`title` text NOT NULL,
	`parent_id` integer,
	`custom_data` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `categories_account` ON `categories` (`account_id`);--> statement-breakpoint
CREATE TABLE `category_services` (
	`account_id` integer NOT NULL,
	`category_id` integer NOT NULL,
	`service_id` integer NOT NULL,
	PRIMARY KEY(`category_id`, `service_id`)
);
--> statement-breakpoint
CREATE TABLE `events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`resource_id` integer NOT NULL,
	`service_id` integer NOT NULL,
	`published` integer DEFAULT true NOT NULL,
	`capacity` integer NOT NULL,
	`starts_at` integer NOT NULL,
	`ends_at` integer NOT NULL,
	`title` text,
	`description` text,
	`custom_data` text,
	`collection_id` text,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `events_account_starts` ON `events` (`account_id`,`starts_at`);--> statement-breakpoint
CREATE INDEX `events_account_updated` ON `events` (`account_id`,`updated_at`);--> statement-breakpoint
CREATE UNIQUE INDEX `events_collection_start` ON `events` (`collection_id`,`starts_at`) WHERE collection_id IS NOT NULL;--> statement-breakpoint
CREATE TABLE `idempotency_keys` (
	`account_id` integer NOT NULL,
	`key` text NOT NULL,
	`request_hash` text NOT NULL,
	`response_status` integer,
	`response_body` text,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`account_id`, `key`)
);
--> statement-breakpoint
CREATE INDEX `idempotency_created` ON `idempotency_keys` (`created_at`);--> statement-breakpoint
CREATE TABLE `messages` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`booking_id` integer,
	`person_id` integer,
	`kind` text NOT NULL,
	`channel` text NOT NULL,
	`recipient` text NOT NULL,
	`subject` text,
	`body` text NOT NULL,
	`status` text NOT NULL,
	`provider` text,
	`error` text,
	`sent_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `messages_account_created` ON `messages` (`account_id`,`created_at`);--> statement-breakpoint
CREATE INDEX `messages_recipient_created` ON `messages` (`recipient`,`created_at`);--> statement-breakpoint
CREATE TABLE `people` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`name` text,
	`email` text,
	`phone_number` text,
	`phone_e164` text,
	`external_id` text,
	`custom_data` text,
	`date_of_birth` text,
	`national_id_no` text,
	`street` text,
	`city` text,
	`postal_code` text,
	`state` text,
	`country_code` text,
	`notes` text,
	`parent_id` integer,
	`provider` text,
	`uid` text,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `people_account_email` ON `people` (`account_id`,`email`);--> statement-breakpoint
CREATE UNIQUE INDEX `people_account_phone` ON `people` (`account_id`,`phone_e164`);--> statement-breakpoint
CREATE UNIQUE INDEX `people_account_national_id` ON `people` (`account_id`,`national_id_no`);--> statement-breakpoint
CREATE UNIQUE INDEX `people_account_provider_uid` ON `people` (`account_id`,`provider`,`uid`);--> statement-breakpoint
CREATE INDEX `people_account_updated` ON `people` (`account_id`,`updated_at`);--> statement-breakpoint
CREATE INDEX `people_account_parent` ON `people` (`account_id`,`parent_id`);--> statement-breakpoint
CREATE TABLE `perishable_tokens` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`identifier` text NOT NULL,
	`code_hash` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `perishable_tokens_identifier` ON `perishable_tokens` (`account_id`,`identifier`);--> statement-breakpoint
CREATE INDEX `perishable_tokens_expires` ON `perishable_tokens` (`expires_at`);--> statement-breakpoint
CREATE TABLE `providers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`resource_id` integer NOT NULL,
	`service_id` integer NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `providers_service_resource` ON `providers` (`service_id`,`resource_id`);--> statement-breakpoint
CREATE INDEX `providers_account` ON `providers` (`account_id`);--> statement-breakpoint
CREATE TABLE `resource_exception_dates` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`resource_id` integer NOT NULL,
	`exception_date` text NOT NULL,
	`opening_hours` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `exception_dates_resource_date` ON `resource_exception_dates` (`resource_id`,`exception_date`);--> statement-breakpoint
CREATE TABLE `resources` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`title` text NOT NULL,
	`description` text,
	`active` integer DEFAULT true NOT NULL,
	`capacity` integer DEFAULT 1 NOT NULL,
	`opening_hours_mon` text,
	`opening_hours_tue` text,
	`opening_hours_wed` text,
	`opening_hours_thu` text,
	`opening_hours_fri` text,
	`opening_hours_sat` text,
	`opening_hours_sun` text,
	`custom_data` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `resources_account` ON `resources` (`account_id`,`active`);--> statement-breakpoint
CREATE TABLE `services` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`title` text NOT NULL,
	`description` text,
	`active` integer DEFAULT true NOT NULL,
	`booking_capacity` integer,
	`day_booking_specify_time` integer DEFAULT false NOT NULL,
	`has_day_booking` integer DEFAULT false NOT NULL,
	`interval` integer DEFAULT 60 NOT NULL,
	`max_slots` integer DEFAULT 1 NOT NULL,
	`price` text,
	`same_day` integer DEFAULT false NOT NULL,
	`template` text,
	`interval_rounding` integer,
	`booking_type` text DEFAULT 'appointment' NOT NULL,
	`custom_data` text,
	`booking_form` text,
	`mail_verification` text,
	`mail_confirmation` text,
	`sms_verification` text,
	`sms_confirmation` text,
	`sms_reminder` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `services_account` ON `services` (`account_id`,`active`);--> statement-breakpoint
CREATE TABLE `user_links` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`user_id` integer NOT NULL,
	`role` text NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `user_links_account_user` ON `user_links` (`account_id`,`user_id`);--> statement-breakpoint
CREATE TABLE `users` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`name` text NOT NULL,
	`email` text NOT NULL,
	`phone_number` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `users_account_email` ON `users` (`account_id`,`email`);--> statement-breakpoint
CREATE TABLE `web_hooks` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`target_url` text NOT NULL,
	`event` text NOT NULL,
	`active` integer DEFAULT true NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE INDEX `web_hooks_account` ON `web_hooks` (`account_id`,`active`);--> statement-breakpoint
CREATE TABLE `webhook_attempts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`delivery_id` integer NOT NULL,
	`attempt` integer NOT NULL,
	`status_code` integer,
	`duration_ms` integer NOT NULL,
	`error` text,
	`created_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_attempts_delivery` ON `webhook_attempts` (`delivery_id`,`attempt`);--> statement-breakpoint
CREATE TABLE `webhook_deliveries` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`web_hook_id` integer NOT NULL,
	`idempotency_id` text NOT NULL,
	`event` text NOT NULL,
	`payload` text NOT NULL,
	`state` text NOT NULL,
	`attempts` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `webhook_deliveries_idempotency` ON `webhook_deliveries` (`web_hook_id`,`idempotency_id`);--> statement-breakpoint
CREATE INDEX `webhook_deliveries_hook` ON `webhook_deliveries` (`account_id`,`web_hook_id`,`created_at`);