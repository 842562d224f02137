import { beforeAll, describe, expect, it } from "vitest";
import { env } from "cloudflare:test";
import { newAccount, type Client } from "../support/api";
import { catalogue, must } from "../support/bookings";
import { messageRow, messagesOf, queuedRow, settledMessagesOf, uniquePhone } from "../support/messages";
import { runQueue } from "../support/queues";

const FROM = "2030-01-07 10:00";
const TO = "2030-01-07 11:00";

async function tenant(attributes: Record<string, unknown> = {}, serviceAttributes: Record<string, unknown> = {}) {
  const { api, account } = await newAccount(attributes);
  const cat = catalogue(api);
  const resource = await cat.resource({ title: "Chair 1", capacity: 100 });
  const service = await cat.service({ title: "Haircut", ...serviceAttributes });
  const book = (extra: Record<string, unknown> = {}, booking: Record<string, unknown> = {}) =>
    cat.booking(
      {
        resource_id: resource.id,
        service_id: service.id,
        booked_from: FROM,
        booked_to: TO,
        person_attributes: { name: "Kari", phone_number: uniquePhone(), email: `kari${Math.random().toString(36).slice(2)}@example.com` },
        ...booking,
      },
      extra,
    );
  return { api, account, cat, resource, service, book };
}

const summary = (messages: any[]) => messages.map((m) => [m.kind, m.channel, m.recipient]).sort();

describe("booking messages: rendering", () => {
  it("renders the English defaults with the time in the account zone and locale, service and resource", async () => {
    const t = await tenant({ locale: "en", name: "Salon One" });
    const booking = await t.book({ confirmation_send_sms: true, confirmation_send_email: true });
    const messages = await messagesOf(t.api, `?booking_id=${booking.id}`);
    expect(messages.map((m: any) => [m.kind, m.channel, m.subject, m.body]).sort()).toEqual([
      [
        "confirmation",
        "email",
        "Your booking at Salon One is confirmed",
        expect.stringMatching(
          new RegExp(
            "^Hello Kari,\n\nyour booking of Haircut with Chair 1 is confirmed: Monday, 7 January 2030, 10:00\\.\n\n" +
              `Add it to your calendar: http://${t.account.subdomain}\\.localhost/calendar/bookings/${booking.id}\\.ics\\?signature=[\\w-]{43}\n\nSalon One$`,
          ),
        ),
      ],
      ["confirmation", "sms", null, "Your booking of Haircut with Chair 1 is confirmed: Monday, 7 January 2030, 10:00. Salon One"],
    ]);
    expect(messages.find((m: any) => m.channel === "sms").recipient).toBe(booking.person.phone_number_formatted);
    expect(messages.find((m: any) => m.channel === "email").recipient).toBe(booking.person.email);
  });

  it("renders the Swedish verification SMS with the booking's code", async () => {
    const t = await tenant({ locale: "sv", time_zone: "Europe/Stockholm", country_code: "SE", name: "Salong", verification_method: 1 });
    const booking = await t.book({ confirm: false });
    expect(booking.state).toBe("awaiting_verification");
    const [message] = await messagesOf(t.api, `?booking_id=${booking.id}`);
    expect(message).toMatchObject({ kind: "verification", channel: "sms", subject: null });
    expect(message.body).toBe(`Din kod är ${booking.verification_code}. Ange den för att bekräfta din bokning av Haircut hos Chair 1: måndag, 7 januari 2030, 10:00.`);
  });

  it("renders the Norwegian cancellation email when a booking is cancelled", async () => {
    const t = await tenant({ locale: "nb", name: "Frisør", verification_method: 2 });
    const booking = await t.book({ confirmation_send_email: false });
    await must(t.api.put(`/bookings/${booking.id}/cancel`, {}));
    const [message] = await messagesOf(t.api, `?booking_id=${booking.id}`);
    expect(message).toMatchObject({ kind: "cancellation", channel: "email", subject: "Bestillingen din hos Frisør er avbestilt" });
    expect(message.body).toBe("Hei Kari,\n\nbestillingen din av Haircut hos Chair 1 mandag, 7. januar 2030, 10:00 er avbestilt.\n\nFrisør");
  });

  it("uses the service's template first, then the account's, then the default", async () => {
    const t = await tenant(
      {
        sms_confirmation: "Account text for {{ person.name }} at {{ booking.booked_from }}",
        mail_confirmation_subject: "Booked: {{ service.title }}",
      },
      { sms_confirmation: "Service text: {{ service.title }}, {{ resource.title }}, {{ booking.starts }}" },
    );
    const plain = await t.cat.service({ title: "Massage" });
    const withService = await t.book({ confirmation_send_sms: true, confirmation_send_email: true });
    const withAccount = await t.book({ confirmation_send_sms: true }, { service_id: plain.id });

    const bodies = async (id: number) => (await messagesOf(t.api, `?booking_id=${id}`)).map((m: any) => [m.channel, m.subject, m.body]).sort();
    expect(await bodies(withService.id)).toEqual([
      [
        "email",
        "Booked: Haircut",
        expect.stringMatching(
          new RegExp(
            "^Hello Kari,\n\nyour booking of Haircut with Chair 1 is confirmed: Monday, 7 January 2030, 10:00\\.\n\nAdd it to your calendar: \\S+\\.ics\\?signature=\\S+\n\n" +
              `${t.account.name}$`,
          ),
        ),
      ],
      ["sms", null, "Service text: Haircut, Chair 1, Monday, 7 January 2030, 10:00"],
    ]);
    expect(await bodies(withAccount.id)).toEqual([["sms", null, "Account text for Kari at 2030-01-07T10:00:00+01:00"]]);
  });

  it("falls back to the next template when a template does not parse", async () => {
    const t = await tenant({ sms_confirmation: "{% if %}broken" });
    const booking = await t.book({ confirmation_send_sms: true });
    const [message] = await messagesOf(t.api, `?booking_id=${booking.id}`);
    expect(message.body).toBe(`Your booking of Haircut with Chair 1 is confirmed: Monday, 7 January 2030, 10:00. ${t.account.name}`);
  });
});

describe("booking messages: which are sent", () => {
  it("follows the account defaults: customer email with email verification, admin email to the notification recipient", async () => {
    const t = await tenant({ verification_method: 2, email_notification: true, mail_notification_recipient: "desk@example.com" });
    const booking = await t.book();
    expect(summary(await messagesOf(t.api, `?booking_id=${booking.id}`))).toEqual([
      ["confirmation", "email", booking.person.email],
      ["notification", "email", "desk@example.com"],
    ]);
  });

  it("honours flags sent as false over the account defaults", async () => {
    const t = await tenant({ verification_method: 2, email_notification: true, sms_notification: true, phone_number: "+4791234567" });
    const booking = await t.book({ confirmation_send_email: false, notification_send_email: false, notification_send_sms: false });
    expect(await messagesOf(t.api, `?booking_id=${booking.id}`)).toEqual([]);
  });

  it("sends SMS when flags ask for them, admin SMS to the account's phone number", async () => {
    const t = await tenant({ phone_number: "91234567" });
    const booking = await t.book({ confirmation_send_sms: true, notification_send_sms: true });
    expect(summary(await messagesOf(t.api, `?booking_id=${booking.id}`))).toEqual([
      ["confirmation", "sms", booking.person.phone_number_formatted],
      ["notification", "sms", "+4791234567"],
    ]);
  });

  it("sends nothing to the customer of a booking without a person, but still notifies the admin", async () => {
    const t = await tenant({ verification_method: 2, email_notification: true });
    const booking = await t.book({}, { person_attributes: undefined });
    expect(summary(await messagesOf(t.api, `?booking_id=${booking.id}`))).toEqual([["notification", "email", t.account.email]]);
  });

  it("sends nothing to the customer of a booking without a service", async () => {
    const t = await tenant({ verification_method: 2 });
    const booking = await t.book({}, { service_id: undefined });
    expect(await messagesOf(t.api, `?booking_id=${booking.id}`)).toEqual([]);
  });

  it("sends the confirmation after verification, the decline and the modification, and nothing for a status label", async () => {
    const t = await tenant({ verification_method: 2, confirm_manually: true });
    const verified = await t.book({ confirm: false });
    await must(t.api.put(`/bookings/${verified.id}/verify`, {}));
    await must(t.api.put(`/bookings/${verified.id}/confirm`, {}));
    await must(t.api.put(`/bookings/${verified.id}`, { booking: { title: "Moved" } }));
    await must(t.api.put(`/bookings/${verified.id}/status`, { status: "arrived" }));
    const declined = await t.book({ confirm: false });
    await must(t.api.put(`/bookings/${declined.id}/verify`, {}));
    await must(t.api.put(`/bookings/${declined.id}/decline`, {}));

    const kinds = async (id: number) => (await messagesOf(t.api, `?booking_id=${id}`)).map((m: any) => `${m.kind}/${m.channel}`).reverse();
    expect(await kinds(verified.id)).toEqual(["verification/email", "confirmation/email", "modification/email"]);
    expect(await kinds(declined.id)).toEqual(["verification/email", "decline/email"]);
  });

  it("records a booking SMS beyond five an hour to one number as failed, with the reason", async () => {
    const t = await tenant();
    const phone = uniquePhone();
    const first = await t.book({ confirmation_send_sms: true }, { person_attributes: { name: "Ola", phone_number: phone } });
    for (let i = 0; i < 5; i += 1) await t.book({ confirmation_send_sms: true }, { person_id: first.person.id, person_attributes: undefined });
    const messages = await messagesOf(t.api, "?channel=sms");
    expect(messages).toHaveLength(6);
    expect(messages[0]).toMatchObject({ status: "failed", error: "SMS limit reached: at most 5 SMS an hour to one phone number." });
    expect(messages.slice(1).every((m: any) => m.status !== "failed")).toBe(true);
  });
});

describe("GET /api/v1/messages", () => {
  let t: Awaited<ReturnType<typeof tenant>>;
  let other: Client;
  let booking: any;

  beforeAll(async () => {
    t = await tenant({ verification_method: 1, email_notification: true });
    other = (await newAccount()).api;
    booking = await t.book({ confirmation_send_email: true });
    await t.book();
  });

  it("lists the account's messages newest first, wrapped as message, with page headers", async () => {
    const res = await t.api.get("/messages");
    expect(res.status).toBe(200);
    expect(res.headers.get("Total-Count")).toBe("5");
    expect(res.headers.get("Current-Page")).toBe("1");
    const ids = res.body.map((e: any) => e.message.id);
    expect(ids).toEqual([...ids].sort((a: number, b: number) => b - a));
    expect(Object.keys(res.body[0].message).sort()).toEqual([
      "body",
      "booking_id",
      "channel",
      "created_at",
      "error",
      "id",
      "kind",
      "person_id",
      "provider",
      "recipient",
      "sent_at",
      "status",
      "subject",
      "updated_at",
    ]);
  });

  it("filters by booking_id, channel and kind", async () => {
    expect(summary(await messagesOf(t.api, `?booking_id=${booking.id}`))).toEqual([
      ["confirmation", "email", booking.person.email],
      ["confirmation", "sms", booking.person.phone_number_formatted],
      ["notification", "email", t.account.email],
    ]);
    expect((await messagesOf(t.api, "?channel=sms")).every((m: any) => m.channel === "sms")).toBe(true);
    expect((await messagesOf(t.api, "?kind=notification")).map((m: any) => m.kind)).toEqual(["notification", "notification"]);
    expect(await messagesOf(t.api, `?booking_id=${booking.id}&kind=notification&channel=sms`)).toEqual([]);
  });

  it("answers 400 keyed by the filter for an unknown channel, kind or booking_id", async () => {
    const res = await t.api.get("/messages?channel=fax&kind=letter&booking_id=abc");
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      channel: [expect.stringContaining("sms")],
      kind: [expect.stringContaining("verification")],
      booking_id: ["is not an integer"],
    });
  });

  it("never lists another tenant's messages", async () => {
    expect(await messagesOf(other, "")).toEqual([]);
    expect(await messagesOf(other, `?booking_id=${booking.id}`)).toEqual([]);
  });
});

describe("GET /api/v1/messages/{id}", () => {
  it("shows a message the development sink delivered: status sent, provider sink, sent_at set", async () => {
    const t = await tenant();
    const booking = await t.book({ confirmation_send_sms: true });
    const [settled] = await settledMessagesOf(t.api, `?booking_id=${booking.id}`);
    const res = await t.api.get(`/messages/${settled.id}`);
    expect(res.status).toBe(200);
    expect(res.body.message).toMatchObject({
      id: settled.id,
      booking_id: booking.id,
      person_id: booking.person.id,
      kind: "confirmation",
      channel: "sms",
      status: "sent",
      provider: "sink",
      error: null,
      sent_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0[12]:00$/),
    });
  });

  it("answers 404 for an unknown id and for another tenant's message", async () => {
    const t = await tenant();
    const other = await newAccount();
    const booking = await t.book({ confirmation_send_sms: true });
    const [message] = await messagesOf(t.api, `?booking_id=${booking.id}`);
    expect((await t.api.get("/messages/99999999")).status).toBe(404);
    const foreign = await other.api.get(`/messages/${message.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: "The message was not found." });
  });
});

describe("booking-messages queue consumer", () => {
  let accountId: number;
  let api: Client;

  beforeAll(async () => {
    const t = await newAccount();
    accountId = t.account.id;
    api = t.api;
  });

  const receiver = (bucket: string, outcome: "ok" | "fail") => `${env.TEST_RECEIVER}/messages/${bucket}/${outcome}`;
  const received = async (bucket: string) => (await fetch(`${env.TEST_RECEIVER}/messages/${bucket}`)).json() as Promise<any[]>;

  it("delivers through the http provider: JSON to the SMS URL with the bearer token, then marks it sent", async () => {
    const bucket = `ok${Date.now()}`;
    const id = await queuedRow(accountId, { recipient: "+4741111111", body: "Stored text" });
    const result = await runQueue("booking-messages", [{ account_id: accountId, message_id: id, secret_body: "Your code is 12345" }], {
      MESSAGE_PROVIDER: "http",
      SMS_PROVIDER_URL: receiver(bucket, "ok"),
      MESSAGE_PROVIDER_TOKEN: "provider-secret",
    });
    expect(result.explicitAcks).toEqual(["m0"]);
    expect(await received(bucket)).toEqual([
      {
        outcome: "ok",
        authorization: "Bearer provider-secret",
        idempotency_key: `message-${id}`,
        content_type: "application/json",
        body: { id, channel: "sms", to: "+4741111111", subject: null, body: "Your code is 12345" },
      },
    ]);
    // A real provider got the code; the stored copy keeps the masked text.
    expect(await messageRow(id)).toMatchObject({ status: "sent", provider: "http", error: null, body: "Stored text" });
    const shown = await api.get(`/messages/${id}`);
    expect(shown.body.message).toMatchObject({ status: "sent", provider: "http" });
  });

  it("posts emails to the email URL with their subject", async () => {
    const bucket = `mail${Date.now()}`;
    const id = await queuedRow(accountId, { channel: "email", recipient: "kari@example.com", body: "Hello" });
    await runQueue("booking-messages", [{ account_id: accountId, message_id: id }], {
      MESSAGE_PROVIDER: "http",
      EMAIL_PROVIDER_URL: receiver(bucket, "ok"),
    });
    const [entry] = await received(bucket);
    expect(entry.body).toEqual({ id, channel: "email", to: "kari@example.com", subject: null, body: "Hello" });
    expect(entry.authorization).toBeNull();
  });

  it("keeps a message queued with the provider's error and retries it when the provider answers 503", async () => {
    const bucket = `fail${Date.now()}`;
    const id = await queuedRow(accountId);
    const result = await runQueue("booking-messages", [{ account_id: accountId, message_id: id }], {
      MESSAGE_PROVIDER: "http",
      SMS_PROVIDER_URL: receiver(bucket, "fail"),
    });
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages.map((m: { msgId: string }) => m.msgId)).toEqual(["m0"]);
    expect(await received(bucket)).toHaveLength(1);
    expect(await messageRow(id)).toMatchObject({ status: "queued", provider: "http", error: "provider answered HTTP 503", sent_at: null });
  });

  it("stores the delivered text with the sink, so a development token can be read back", async () => {
    const id = await queuedRow(accountId, { body: "Your code is •••••" });
    const result = await runQueue("booking-messages", [{ account_id: accountId, message_id: id, secret_body: "Your code is 54321" }]);
    expect(result.explicitAcks).toEqual(["m0"]);
    expect(await messageRow(id)).toMatchObject({ status: "sent", provider: "sink", body: "Your code is 54321" });
  });

  it("acks a redelivered message that is already sent, without delivering it again", async () => {
    const bucket = `again${Date.now()}`;
    const id = await queuedRow(accountId);
    const overrides = { MESSAGE_PROVIDER: "http", SMS_PROVIDER_URL: receiver(bucket, "ok") };
    await runQueue("booking-messages", [{ account_id: accountId, message_id: id }], overrides);
    const again = await runQueue("booking-messages", [{ account_id: accountId, message_id: id }], overrides, 2);
    expect(again.explicitAcks).toEqual(["m0"]);
    expect(await received(bucket)).toHaveLength(1);
  });

  it("retries an unreadable body rather than dropping it", async () => {
    const result = await runQueue("booking-messages", [{ nonsense: true }]);
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages.map((m: { msgId: string }) => m.msgId)).toEqual(["m0"]);
  });

  it("marks a message failed with its last error when the dead-letter queue receives it", async () => {
    const id = await queuedRow(accountId);
    await runQueue("booking-messages", [{ account_id: accountId, message_id: id }], {
      MESSAGE_PROVIDER: "http",
      SMS_PROVIDER_URL: receiver(`dead${Date.now()}`, "fail"),
    });
    const result = await runQueue("booking-messages-dlq", [{ account_id: accountId, message_id: id }]);
    expect(result.explicitAcks).toEqual(["m0"]);
    expect(await messageRow(id)).toMatchObject({ status: "failed", error: "not delivered, retries exhausted: provider answered HTTP 503" });
  });
});
