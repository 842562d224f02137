// Fault tests for web hook delivery: a receiver that refuses the connection, one that never
// answers, one that fails then recovers. Each retry run here is the very message the consumer
// queued, so an attempt lost between two runs would show as a missing row.
import { beforeAll, describe, expect, it } from "vitest";
import { env, newAccount, type Client } from "../support/api";
import { catalogue, must } from "../support/bookings";
import { eventually, recordingQueue, runQueue } from "../support/queues";
import { attemptMessage, eventMessage, receiver, serviceSignatureValid } from "../support/webhooks";

let api: Client;
let accountId: number;
let secret: string;

beforeAll(async () => {
  const mine = await newAccount();
  api = mine.api;
  accountId = mine.account.id;
  secret = mine.webhookSecret;
});

const subscribe = async (target_url: string, event: string) => (await must(api.post("/web_hooks", { web_hook: { target_url, event } }))).web_hook;

const deliveriesOf = async (hookId: number) => (await must(api.get(`/web_hooks/${hookId}/deliveries`))).map((e: any) => e.webhook_delivery);

/**
 * Runs `first` on the webhook consumer, then each attempt message it queues in turn, as the queue
 * would after each delay. Answers the delays the consumer asked for.
 */
async function runSeries(first: unknown): Promise<(number | undefined)[]> {
  const queue = recordingQueue(env.WEBHOOK_QUEUE);
  const delays: (number | undefined)[] = [];
  let next: unknown = first;
  while (next !== undefined && delays.length < 6) {
    const before = queue.sent.length;
    const result = await runQueue("booking-webhooks", [next], { WEBHOOK_QUEUE: queue.recorder });
    expect(result.explicitAcks).toHaveLength(1);
    const queued = queue.sent.slice(before);
    expect(queued.length).toBeLessThanOrEqual(1);
    next = queued[0]?.body;
    if (queued[0]) delays.push(queued[0].delaySeconds);
  }
  return delays;
}

/** Every request the receiver got carries the one body, signed, under the event's webhook-id. */
async function expectSameSignedBody(target: ReturnType<typeof receiver>, idempotencyId: string, count: number) {
  const requests = await target.requests();
  expect(requests).toHaveLength(count);
  for (const { headers, body } of requests) {
    expect(body).toBe(requests[0].body);
    expect(headers["webhook-id"]).toBe(idempotencyId);
    expect(serviceSignatureValid(secret, body, headers["x-service-signature"])).toBe(true);
  }
}

const SHORT = { duration_ms: expect.any(Number), created_at: expect.any(String) };

describe("booking-webhooks consumer: receiver faults", () => {
  it("records a refused connection as an attempt with no status, and the retry it queued delivers the same signed body", async () => {
    const target = receiver("seq=down");
    const hook = await subscribe(target.url, "booking.created");
    const message = eventMessage(accountId, "booking.created", 11);

    expect(await runSeries(message)).toEqual([60]);

    const [delivery] = await deliveriesOf(hook.id);
    expect(delivery).toMatchObject({ state: "delivered", attempt_count: 2, idempotency_id: message.idempotency_id });
    expect(delivery.attempts).toEqual([
      { attempt: 1, status_code: null, error: expect.stringMatching(/network connection lost/i), ...SHORT },
      { attempt: 2, status_code: 200, error: null, ...SHORT },
    ]);
    for (const a of delivery.attempts) expect(a.duration_ms).toBeLessThan(10_000);
    await expectSameSignedBody(target, message.idempotency_id, 2);
  });

  it("abandons a receiver that does not answer at 10 s, records the timeout with its duration, and delivers on the retry", { timeout: 45_000 }, async () => {
    const target = receiver("seq=hang");
    const hook = await subscribe(target.url, "booking.modified");
    const message = eventMessage(accountId, "booking.modified", 12);

    expect(await runSeries(message)).toEqual([60]);

    const [delivery] = await deliveriesOf(hook.id);
    expect(delivery).toMatchObject({ state: "delivered", attempt_count: 2 });
    expect(delivery.attempts).toEqual([
      { attempt: 1, status_code: null, error: "no answer within 10 s", ...SHORT },
      { attempt: 2, status_code: 200, error: null, ...SHORT },
    ]);
    expect(delivery.attempts[0].duration_ms).toBeGreaterThanOrEqual(10_000);
    expect(delivery.attempts[0].duration_ms).toBeLessThan(12_000);
    await expectSameSignedBody(target, message.idempotency_id, 2);
  });

  it("records each failing answer with its status, duration and error, retrying after 60 s then 300 s until the 200", async () => {
    const target = receiver("seq=500,503");
    const hook = await subscribe(target.url, "person.created");
    const message = eventMessage(accountId, "person.created", 13);

    expect(await runSeries(message)).toEqual([60, 300]);

    const [delivery] = await deliveriesOf(hook.id);
    expect(delivery).toMatchObject({ state: "delivered", attempt_count: 3 });
    expect(delivery.attempts).toEqual([
      { attempt: 1, status_code: 500, error: "HTTP 500", ...SHORT },
      { attempt: 2, status_code: 503, error: "HTTP 503", ...SHORT },
      { attempt: 3, status_code: 200, error: null, ...SHORT },
    ]);
    await expectSameSignedBody(target, message.idempotency_id, 3);
  });

  it("keeps a booking announced while the receiver is down: the real queue records the failed attempt, the retry delivers it", async () => {
    const target = receiver("seq=down");
    const hook = await subscribe(target.url, "booking.created");
    const resource = await catalogue(api).resource();
    const { booking } = await must(
      api.post("/bookings", {
        booking: { resource_id: resource.id, booked_from: "2031-06-02 10:00", booked_to: "2031-06-02 11:00" },
      }),
    );

    const [failed] = await eventually(
      () => deliveriesOf(hook.id),
      (list) => list[0]?.attempt_count === 1,
    );
    expect(failed).toMatchObject({ state: "pending", attempts: [{ attempt: 1, status_code: null }] });
    expect(failed.payload).toMatchObject({ event: "booking.created", data: { object: "booking", id: booking.id } });

    // The retry the consumer queued is due in 60 s; this is that message, run now.
    await runQueue("booking-webhooks", [attemptMessage(accountId, failed.id, 2)]);
    const [delivered] = await deliveriesOf(hook.id);
    expect(delivered).toMatchObject({ state: "delivered", attempt_count: 2 });
    expect(delivered.attempts.map((a: any) => [a.attempt, a.status_code])).toEqual([
      [1, null],
      [2, 200],
    ]);
    await expectSameSignedBody(target, failed.idempotency_id, 2);
  });

  it("records one attempt and queues nothing more when two copies of an attempt message run at once", async () => {
    const target = receiver("seq=500");
    const hook = await subscribe(target.url, "event.created");
    const queue = recordingQueue(env.WEBHOOK_QUEUE);
    await runQueue("booking-webhooks", [eventMessage(accountId, "event.created", 14)], { WEBHOOK_QUEUE: queue.recorder });
    const [retry] = queue.sent;

    await Promise.all([1, 2].map(() => runQueue("booking-webhooks", [retry.body], { WEBHOOK_QUEUE: queue.recorder })));

    expect(queue.sent).toHaveLength(1);
    const [delivery] = await deliveriesOf(hook.id);
    expect(delivery).toMatchObject({ state: "delivered", attempt_count: 2 });
    expect(delivery.attempts.map((a: any) => [a.attempt, a.status_code])).toEqual([
      [1, 500],
      [2, 200],
    ]);
  });
});
