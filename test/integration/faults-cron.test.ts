// Fault tests for the every-minute cron: several scheduled() runs at once over many due bookings
// of two accounts, and a run racing the API's verify on the same bookings.
import { createScheduledController } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../src/index";
import { env, newAccount, type Client } from "../support/api";
import { catalogue, rawBooking } from "../support/bookings";
import { recordingQueue, type SentMessage } from "../support/queues";
import { messagesOf, uniquePhone } from "../support/messages";

const MINUTE = 60_000;

interface Tenant {
  api: Client;
  accountId: number;
  book: (extra?: Record<string, unknown>, booking?: Record<string, unknown>) => Promise<any>;
}

async function tenant(name: string): Promise<Tenant> {
  const { api, account } = await newAccount({ verification_method: 1, name });
  const make = catalogue(api);
  const resource = await make.resource({ title: "Chair", capacity: 100 });
  const service = await make.service({ title: "Haircut" });
  return {
    api,
    accountId: account.id,
    book: (extra = {}, booking = {}) =>
      make.booking(
        {
          resource_id: resource.id,
          service_id: service.id,
          booked_from: "2031-01-06 10:00",
          booked_to: "2031-01-06 11:00",
          person_attributes: { name: "Kari", phone_number: uniquePhone() },
          ...booking,
        },
        extra,
      ),
  };
}

/** One scheduled() run at `at`, with the webhook and message queues recorded (and still real). */
function runCron(at: number, queues: { webhooks: ReturnType<typeof recordingQueue>; messages: ReturnType<typeof recordingQueue> }) {
  return worker.scheduled(createScheduledController({ scheduledTime: new Date(at), cron: "* * * * *" }), {
    ...env,
    WEBHOOK_QUEUE: queues.webhooks.recorder,
    MESSAGE_QUEUE: queues.messages.recorder,
  });
}

const recorders = () => ({ webhooks: recordingQueue(env.WEBHOOK_QUEUE), messages: recordingQueue(env.MESSAGE_QUEUE) });
const eventsFor = (sent: SentMessage[], bookingId: number) =>
  sent.filter((m) => m.body.data?.object === "booking" && m.body.data.id === bookingId).map((m) => m.body.event);
const times = <T>(n: number, make: () => Promise<T>) => Promise.all(Array.from({ length: n }, make));

let salon: Tenant;
let spa: Tenant;

beforeAll(async () => {
  [salon, spa] = await Promise.all([tenant("Salon"), tenant("Spa")]);
});

describe("scheduled(): overlapping runs", () => {
  it("expires each due booking once with one booking.modified, and queues one reminder SMS per due reminder, across three runs at once", async () => {
    // A reminder due a few minutes from now, on bookings two days out: due in the same run as the expiries.
    const remindAt = new Date(Date.now() + 5 * MINUTE).toISOString();
    const booked = new Date(Date.now() + 2 * 24 * 60 * MINUTE).toISOString().slice(0, 10);
    const reminderBooking = { booked_from: `${booked} 10:00`, booked_to: `${booked} 11:00`, reminder_at: remindAt };
    const unverified = [...(await times(4, () => salon.book({ confirm: false }))), ...(await times(4, () => spa.book({ confirm: false })))];
    const reminded = [...(await times(4, () => salon.book({}, reminderBooking))), ...(await times(4, () => spa.book({}, reminderBooking)))];
    const at = Math.max(...unverified.map((b) => Date.parse(b.expires_at))) + MINUTE;

    const queues = recorders();
    await Promise.all([runCron(at, queues), runCron(at, queues), runCron(at, queues)]);
    await runCron(at + MINUTE, queues);

    for (const booking of unverified) {
      expect(await rawBooking(booking.id)).toMatchObject({ state: "verification_expired", active: 0, updated_at: at });
      expect(eventsFor(queues.webhooks.sent, booking.id)).toEqual(["booking.modified"]);
    }
    for (const booking of reminded) {
      expect(await rawBooking(booking.id)).toMatchObject({ state: "confirmed", reminded_at: at });
      expect(eventsFor(queues.webhooks.sent, booking.id)).toEqual([]);
    }
    const reminderRows = [...(await messagesOf(salon.api, "?kind=reminder")), ...(await messagesOf(spa.api, "?kind=reminder"))];
    expect(reminderRows.map((m: any) => m.booking_id).sort()).toEqual(reminded.map((b) => b.id).sort());
    expect(reminderRows.map((m: any) => m.recipient).sort()).toEqual(reminded.map((b) => b.person.phone_number_formatted).sort());
    // One queue message per stored reminder: the consumer has nothing to send twice. The runs sweep
    // every account in the database, other test files' too (docs/decisions/test-suite.md).
    const queuedIds = queues.messages.sent
      .filter((m) => [salon.accountId, spa.accountId].includes(m.body.account_id))
      .map((m) => m.body.message_id)
      .sort();
    expect(queuedIds).toEqual(reminderRows.map((m: any) => m.id).sort());
  });

  it("lets each verification either win or lose against an expiry run at the same moment, never both", async () => {
    const bookings = await times(7, () => salon.book({ confirm: false }));
    // The cron's clock is past expires_at; the API's is not, so both may act on every booking.
    const at = Math.max(...bookings.map((b) => Date.parse(b.expires_at))) + MINUTE;
    const queues = recorders();
    const verify = (booking: any) => salon.api.put(`/bookings/${booking.id}/verify`, {});

    // Framed by a verify that surely comes first and one that surely comes last; the cron starts
    // when the first racing verify answers, while the others are still in flight.
    const before = await verify(bookings[0]);
    const racing = bookings.slice(1, 6).map(verify);
    await Promise.all([...racing, racing[0].then(() => runCron(at, queues))]);
    const after = await verify(bookings[6]);
    const outcomes = [before, ...(await Promise.all(racing)), after];
    expect(before.status).toBe(200);
    expect(after.status).toBe(400);

    for (const [i, booking] of bookings.entries()) {
      const row = await rawBooking(booking.id);
      const confirmations = await messagesOf(salon.api, `?booking_id=${booking.id}&kind=confirmation`);
      if (outcomes[i].status === 200) {
        expect(row).toMatchObject({ state: "confirmed", active: 1 });
        expect(eventsFor(queues.webhooks.sent, booking.id)).toEqual([]);
        expect(confirmations).toHaveLength(1);
      } else {
        expect(outcomes[i]).toMatchObject({ status: 400, body: { state: [expect.stringContaining("verification_expired")] } });
        expect(row).toMatchObject({ state: "verification_expired", active: 0 });
        expect(eventsFor(queues.webhooks.sent, booking.id)).toEqual(["booking.modified"]);
        expect(confirmations).toEqual([]);
      }
    }
  });
});
