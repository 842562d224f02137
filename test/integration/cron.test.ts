import { createScheduledController } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../src/index";
import { env, newAccount, type Client } from "../support/api";
import { catalogue, must, rawBooking } from "../support/bookings";
import { messagesOf, uniquePhone } from "../support/messages";
import { recordingQueue } from "../support/queues";

const MINUTE = 60_000;

/** One scheduled() run at `at`; answers the web hook events it queued for this file's account. */
async function runCron(at: number, webhooks = recordingQueue(env.WEBHOOK_QUEUE)) {
  await worker.scheduled(createScheduledController({ scheduledTime: new Date(at), cron: "* * * * *" }), { ...env, WEBHOOK_QUEUE: webhooks.recorder });
  // The sweep covers every account in the database, other test files' too (docs/decisions/test-suite.md).
  return webhooks.sent.map((m) => m.body).filter((body) => body.account_id === accountId);
}

let api: Client;
let accountId: number;
let book: (extra?: Record<string, unknown>, booking?: Record<string, unknown>) => Promise<any>;

beforeAll(async () => {
  const created = await newAccount({ verification_method: 1, name: "Salon" });
  ({ api } = created);
  accountId = created.account.id;
  const cat = catalogue(api);
  const resource = await cat.resource({ title: "Chair 1", capacity: 100 });
  const service = await cat.service({ title: "Haircut" });
  book = (extra = {}, booking = {}) =>
    cat.booking(
      {
        resource_id: resource.id,
        service_id: service.id,
        booked_from: "2030-01-07 10:00",
        booked_to: "2030-01-07 11:00",
        person_attributes: { name: "Kari", phone_number: uniquePhone() },
        ...booking,
      },
      extra,
    );
});

describe("cron: expire verifications", () => {
  it("turns unverified bookings past expires_at into verification_expired and announces booking.modified by the system", async () => {
    const booking = await book({ confirm: false });
    const sibling = await book({ confirm: false });
    const sent = await runCron(Date.parse(booking.expires_at) + MINUTE);

    expect(await rawBooking(booking.id)).toMatchObject({ state: "verification_expired", active: 0, verification_code: null });
    const events = sent.filter((e) => e.data.id === booking.id);
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({
      event: "booking.modified",
      performed_by: { via: "system" },
      data: { object: "booking", id: booking.id, booking: { state: "verification_expired", active: false } },
    });
    // Due by the same time, so the same run takes it too.
    expect((await rawBooking(sibling.id))!.state).toBe("verification_expired");
    const shown = await api.get(`/bookings/${booking.id}`);
    expect(shown.body.booking).toMatchObject({ state: "verification_expired", active: false });
  });

  it("leaves bookings that have not expired yet", async () => {
    const booking = await book({ confirm: false });
    await runCron(Date.parse(booking.expires_at) - MINUTE);
    expect(await rawBooking(booking.id)).toMatchObject({ state: "awaiting_verification", active: 1 });
  });

  it("changes and announces each booking once when two runs overlap", async () => {
    const booking = await book({ confirm: false });
    const at = Date.parse(booking.expires_at) + MINUTE;
    const [first, second] = await Promise.all([runCron(at), runCron(at)]);
    const announced = [...first, ...second].filter((e) => e.data.id === booking.id);
    expect(announced).toHaveLength(1);
    expect(await runCron(at + MINUTE)).toEqual([]);
    expect((await rawBooking(booking.id))!.updated_at).toBe(at);
  });
});

describe("cron: SMS reminders", () => {
  // add_reminder_sms puts reminder_at at 12:00 Oslo time the day before: 2030-01-06T11:00Z.
  const DUE = Date.parse("2030-01-06T11:00:00Z");

  it("sends the reminder SMS once and stamps reminded_at, even when two runs overlap", async () => {
    const booking = await book({ add_reminder_sms: true });
    expect(booking.reminder_at).toBe("2030-01-06T12:00:00+01:00");
    await Promise.all([runCron(DUE + MINUTE), runCron(DUE + MINUTE)]);
    await runCron(DUE + 2 * MINUTE);

    const reminders = await messagesOf(api, `?booking_id=${booking.id}&kind=reminder`);
    expect(reminders).toHaveLength(1);
    expect(reminders[0]).toMatchObject({
      channel: "sms",
      recipient: booking.person.phone_number_formatted,
      body: expect.stringMatching(
        new RegExp(`^Reminder: Haircut with Chair 1, Monday, 7 January 2030, 10:00\\. Salon http://\\S+/calendar/bookings/${booking.id}\\.ics\\?signature=[\\w-]{43}$`),
      ),
    });
    expect((await rawBooking(booking.id))!.reminded_at).toBe(DUE + MINUTE);
  });

  it("does not remind before reminder_at, nor for a cancelled booking", async () => {
    const early = await book({ add_reminder_sms: true });
    await runCron(DUE - MINUTE);
    expect((await rawBooking(early.id))!.reminded_at).toBeNull();

    const cancelled = await book({ add_reminder_sms: true });
    await must(api.put(`/bookings/${cancelled.id}/cancel`, {}));
    await runCron(DUE + 3 * MINUTE);
    expect((await rawBooking(cancelled.id))!.reminded_at).toBeNull();
    expect(await messagesOf(api, `?booking_id=${cancelled.id}&kind=reminder`)).toEqual([]);
  });
});

describe("cron: purges", () => {
  it("deletes expired perishable tokens and keeps live ones", async () => {
    const [expiring, live] = [uniquePhone(), uniquePhone()];
    await must(api.post("/people/perishable_token/send", { person: { phone_number: expiring } }));
    await must(api.post("/people/perishable_token/send", { person: { phone_number: live } }));
    const now = Date.now();
    await env.DB.prepare("UPDATE perishable_tokens SET expires_at = ? WHERE identifier = ?")
      .bind(now + 60 * MINUTE, live)
      .run();
    await runCron(now + 11 * MINUTE);
    const left = await env.DB.prepare("SELECT identifier FROM perishable_tokens WHERE identifier IN (?, ?)").bind(expiring, live).all();
    expect(left.results).toEqual([{ identifier: live }]);
  });

  it("deletes idempotency keys older than 24 hours and keeps younger ones", async () => {
    await must(api.post("/people", { person: { name: "Old" } }, { "idempotency-key": "old-key" }));
    await must(api.post("/people", { person: { name: "Young" } }, { "idempotency-key": "young-key" }));
    const now = Date.now();
    await env.DB.prepare("UPDATE idempotency_keys SET created_at = ? WHERE key = 'young-key'")
      .bind(now + 2 * 60 * MINUTE)
      .run();
    await runCron(now + 24 * 60 * MINUTE + MINUTE);
    const left = await env.DB.prepare("SELECT key FROM idempotency_keys WHERE key IN ('old-key', 'young-key')").all();
    expect(left.results).toEqual([{ key: "young-key" }]);
  });
});
