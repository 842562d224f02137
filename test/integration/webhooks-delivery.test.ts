// Web hook delivery: the booking-webhooks consumer and its dead-letter queue, driven with real
// queue batches, against a receiver reached by real HTTP (test/support/receiver-server.ts).
import { beforeAll, describe, expect, it } from "vitest";
import { newAccount, publicSite, type Client } from "../support/api";
import { catalogue, must } from "../support/bookings";
import { eventually } from "../support/queues";
import { objectOfEvent, WEBHOOK_EVENTS } from "../../src/features/webhooks/emit";
import { attemptMessage, drive, eventMessage, receiver, serviceSignatureValid, standardSignatureValid } from "../support/webhooks";

let api: Client;
let accountId: number;
let secret: string;
let subdomain: string;

beforeAll(async () => {
  const mine = await newAccount({ first_bookable_period: "2 hours", future_bookable_period: "2 years" });
  api = mine.api;
  accountId = mine.account.id;
  secret = mine.webhookSecret;
  subdomain = mine.account.subdomain;
});

const subscribe = async (target_url: string, event = "*", active = true) => (await must(api.post("/web_hooks", { web_hook: { target_url, event, active } }))).web_hook;

const deliveriesOf = async (hookId: number) => (await must(api.get(`/web_hooks/${hookId}/deliveries`))).map((e: any) => e.webhook_delivery);

const attemptsOf = (delivery: any) => delivery.attempts.map((a: any) => [a.attempt, a.status_code, a.error]);

describe("booking-webhooks consumer: delivery and retries", () => {
  it("retries a receiver that fails twice, then delivers: three attempts, one body, both signatures valid", async () => {
    const target = receiver("fail=2");
    const hook = await subscribe(target.url, "booking.created");
    const message = eventMessage(accountId, "booking.created", 42);

    const first = await drive([message]);
    expect(first.explicitAcks).toHaveLength(1);
    expect(first.retryMessages).toEqual([]);
    const [pending] = await deliveriesOf(hook.id);
    expect(pending).toMatchObject({ state: "pending", attempt_count: 1 });

    await drive([attemptMessage(accountId, pending.id, 2)]);
    await drive([attemptMessage(accountId, pending.id, 3)]);

    const [done] = await deliveriesOf(hook.id);
    expect(done.state).toBe("delivered");
    expect(attemptsOf(done)).toEqual([
      [1, 500, "HTTP 500"],
      [2, 500, "HTTP 500"],
      [3, 200, null],
    ]);

    const requests = await target.requests();
    expect(requests).toHaveLength(3);
    for (const { headers, body } of requests) {
      expect(body).toBe(requests[0].body);
      expect(headers["content-type"]).toBe("application/json");
      expect(headers["user-agent"]).toMatch(/^booking-edge-api-webhooks\//);
      expect(headers["webhook-id"]).toBe(message.idempotency_id);
      expect(Math.abs(Number(headers["webhook-timestamp"]) - Date.now() / 1000)).toBeLessThan(300);
      expect(serviceSignatureValid(secret, body, headers["x-service-signature"])).toBe(true);
      expect(standardSignatureValid(secret, headers, body)).toBe(true);
      expect(serviceSignatureValid(secret, body.replace("42", "43"), headers["x-service-signature"])).toBe(false);
    }
  });

  it("sends the payload with data and the deprecated root copies", async () => {
    const target = receiver();
    await subscribe(target.url, "person.modified");
    const message = eventMessage(accountId, "person.modified", 7);
    await drive([message]);
    const [{ body }] = await target.requests();
    expect(JSON.parse(body)).toEqual({
      event: "person.modified",
      idempotency_id: message.idempotency_id,
      generated_at: "2030-01-07T10:00:00+01:00",
      performed_by: { via: "private_api" },
      data: { object: "person", id: 7, person: { id: 7, title: "Cut" } },
      object: "person",
      id: 7,
      person: { id: 7, title: "Cut" },
    });
    expect(Object.keys(JSON.parse(body))).toEqual(["event", "idempotency_id", "generated_at", "performed_by", "data", "object", "id", "person"]);
  });

  it.each(WEBHOOK_EVENTS)("names the event %s at the root, with its object under data", async (name) => {
    const target = receiver();
    await subscribe(target.url, name);
    const object = objectOfEvent(name);
    await drive([eventMessage(accountId, name, 31)]);
    const [{ body }] = await target.requests();
    const payload = JSON.parse(body);
    expect(payload.event).toBe(name);
    expect(payload.data).toEqual({ object, id: 31, [object]: { id: 31, title: "Cut" } });
    expect([payload.object, payload.id]).toEqual([object, 31]);
  });

  it("leaves out the deprecated root copy of an event object, which would hide the event's name", async () => {
    const target = receiver();
    await subscribe(target.url, "event.*");
    await drive([eventMessage(accountId, "event.deleted", 8)]);
    const [{ body }] = await target.requests();
    expect(Object.keys(JSON.parse(body))).toEqual(["event", "idempotency_id", "generated_at", "performed_by", "data", "object", "id"]);
  });

  it("gives up after exactly six attempts and marks the delivery failed; a stale message changes nothing", async () => {
    const target = receiver("fail=always&status=503");
    const hook = await subscribe(target.url, "booking.cancelled");
    await drive([eventMessage(accountId, "booking.cancelled")]);
    const [delivery] = await deliveriesOf(hook.id);
    for (let attempt = 2; attempt <= 6; attempt++) {
      expect((await deliveriesOf(hook.id))[0].state).toBe("pending");
      await drive([attemptMessage(accountId, delivery.id, attempt)]);
    }
    const [failed] = await deliveriesOf(hook.id);
    expect(failed).toMatchObject({ state: "failed", attempt_count: 6 });
    expect(attemptsOf(failed)).toEqual([1, 2, 3, 4, 5, 6].map((n) => [n, 503, "HTTP 503"]));

    await drive([attemptMessage(accountId, delivery.id, 7), attemptMessage(accountId, delivery.id, 3)]);
    expect((await deliveriesOf(hook.id))[0]).toMatchObject({ state: "failed", attempt_count: 6 });
    expect(await target.requests()).toHaveLength(6);
  });

  it("counts a redirect and a 4xx as failures without following the redirect", async () => {
    const moved = receiver("fail=always&status=302");
    const gone = receiver("fail=always&status=404");
    const movedHook = await subscribe(moved.url, "event.created");
    const goneHook = await subscribe(gone.url, "event.created");
    await drive([eventMessage(accountId, "event.created")]);
    expect(attemptsOf((await deliveriesOf(movedHook.id))[0])).toEqual([[1, 302, "HTTP 302"]]);
    expect(attemptsOf((await deliveriesOf(goneHook.id))[0])).toEqual([[1, 404, "HTTP 404"]]);
    expect((await deliveriesOf(goneHook.id))[0].state).toBe("pending");
  });

  it("records one attempt when the same attempt message arrives twice", async () => {
    const target = receiver("fail=1");
    const hook = await subscribe(target.url, "event.deleted");
    await drive([eventMessage(accountId, "event.deleted")]);
    const [delivery] = await deliveriesOf(hook.id);
    await drive([attemptMessage(accountId, delivery.id, 2)]);
    await drive([attemptMessage(accountId, delivery.id, 2)]);
    const [after] = await deliveriesOf(hook.id);
    expect(after).toMatchObject({ state: "delivered", attempt_count: 2 });
    expect(attemptsOf(after)).toEqual([
      [1, 500, "HTTP 500"],
      [2, 200, null],
    ]);
  });

  it("stops, recorded as not sent, when the web hook was paused between attempts", async () => {
    const target = receiver("fail=1");
    const hook = await subscribe(target.url, "person.deleted");
    await drive([eventMessage(accountId, "person.deleted")]);
    await must(api.put(`/web_hooks/${hook.id}`, { web_hook: { active: false } }));
    const [delivery] = await deliveriesOf(hook.id);
    await drive([attemptMessage(accountId, delivery.id, 2)]);
    const [after] = await deliveriesOf(hook.id);
    expect(after.state).toBe("failed");
    expect(attemptsOf(after)).toEqual([
      [1, 500, "HTTP 500"],
      [2, null, "not sent: the web hook is inactive"],
    ]);
    expect(await target.requests()).toHaveLength(1);
  });
});

describe("booking-webhooks consumer: matching and idempotency", () => {
  it("delivers to *, <object>.* and the exact name, and not to other names or paused hooks", async () => {
    const hooks = {
      all: await subscribe(receiver().url, "*"),
      group: await subscribe(receiver().url, "booking.*"),
      exact: await subscribe(receiver().url, "booking.verified"),
      otherName: await subscribe(receiver().url, "booking.confirmed"),
      otherGroup: await subscribe(receiver().url, "person.*"),
      paused: await subscribe(receiver().url, "*", false),
    };
    const message = eventMessage(accountId, "booking.verified");
    await drive([message]);
    const delivered = async (hook: any) => (await deliveriesOf(hook.id)).filter((d: any) => d.idempotency_id === message.idempotency_id).length;
    expect(await delivered(hooks.all)).toBe(1);
    expect(await delivered(hooks.group)).toBe(1);
    expect(await delivered(hooks.exact)).toBe(1);
    expect(await delivered(hooks.otherName)).toBe(0);
    expect(await delivered(hooks.otherGroup)).toBe(0);
    expect(await delivered(hooks.paused)).toBe(0);
  });

  it("creates no second delivery and sends no second request when the queue repeats an event", async () => {
    const target = receiver();
    const hook = await subscribe(target.url, "message.processed");
    const message = eventMessage(accountId, "message.processed");
    await drive([message]);
    await drive([message, message]);
    const deliveries = await deliveriesOf(hook.id);
    expect(deliveries).toHaveLength(1);
    expect(deliveries[0]).toMatchObject({ state: "delivered", attempt_count: 1 });
    expect(await target.requests()).toHaveLength(1);
  });

  it("acknowledges an event no subscription wants", async () => {
    const result = await drive([eventMessage(accountId, "event.modified")]);
    expect(result.explicitAcks).toHaveLength(1);
    expect(result.retryMessages).toEqual([]);
  });

  it("retries an unreadable message, so it ends in the dead-letter queue rather than vanishing", async () => {
    const result = await drive([{ hello: "world" }]);
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages).toHaveLength(1);
  });
});

describe("booking-webhooks-dlq consumer", () => {
  it("marks a dead-lettered attempt's delivery failed and records why", async () => {
    const hook = await subscribe(receiver("fail=always").url, "booking.declined");
    await drive([eventMessage(accountId, "booking.declined")]);
    const [delivery] = await deliveriesOf(hook.id);
    const result = await drive([attemptMessage(accountId, delivery.id, 2)], "booking-webhooks-dlq");
    expect(result.explicitAcks).toHaveLength(1);
    const [after] = await deliveriesOf(hook.id);
    expect(after.state).toBe("failed");
    expect(attemptsOf(after)).toEqual([
      [1, 500, "HTTP 500"],
      [2, null, "dead-lettered: the attempt could not be processed"],
    ]);
  });

  it("records a dead-lettered event as a failed delivery on each matching subscription", async () => {
    const target = receiver();
    const hook = await subscribe(target.url, "booking.deleted");
    const message = eventMessage(accountId, "booking.deleted");
    await drive([message], "booking-webhooks-dlq");
    const [delivery] = await deliveriesOf(hook.id);
    expect(delivery).toMatchObject({ idempotency_id: message.idempotency_id, state: "failed", attempt_count: 1 });
    expect(await target.requests()).toHaveLength(0);
  });

  it("acknowledges an unreadable message after logging it", async () => {
    const result = await drive([{ hello: "world" }], "booking-webhooks-dlq");
    expect(result.explicitAcks).toHaveLength(1);
  });
});

describe("event emission through the real queue", () => {
  let resource: any;
  let service: any;

  beforeAll(async () => {
    const make = catalogue(api);
    resource = await make.resource({ title: "Chair", capacity: 5 });
    service = await make.service({ interval: 30, max_slots: 2 });
    await make.provider(resource.id, service.id);
  });

  const inTwoWeeks = () => new Date(Date.now() + 14 * 86_400_000).toISOString().slice(0, 10);

  const deliveredFor = (hookId: number, bookingId: number) =>
    eventually(
      async () => (await deliveriesOf(hookId)).find((d: any) => d.payload.id === bookingId && d.state === "delivered"),
      (d) => d !== undefined,
    );

  it("announces a booking made on the private API as performed via private_api", async () => {
    const target = receiver();
    const hook = await subscribe(target.url, "booking.created");
    const { booking } = await must(
      api.post("/bookings", {
        booking: { resource_id: resource.id, booked_from: `${inTwoWeeks()} 10:00`, booked_to: `${inTwoWeeks()} 11:00` },
      }),
    );
    const delivery = await deliveredFor(hook.id, booking.id);
    expect(delivery.payload).toMatchObject({
      event: "booking.created",
      performed_by: { via: "private_api" },
      object: "booking",
      id: booking.id,
      data: { object: "booking", id: booking.id, booking: { id: booking.id, resource_id: resource.id } },
    });
  });

  it("tells event.created, event.modified and event.deleted apart for an event.* receiver", async () => {
    const target = receiver();
    const hook = await subscribe(target.url, "event.*");
    const yoga = (await must(api.post("/services", { service: { title: "Yoga", booking_type: "attendance" } }))).service;
    const day = inTwoWeeks();
    const { event } = await must(
      api.post("/events", {
        event: { resource_id: resource.id, service_id: yoga.id, capacity: 3, starts_at: `${day} 18:00`, ends_at: `${day} 19:00` },
      }),
    );
    await must(api.put(`/events/${event.id}`, { event: { capacity: 4 } }));
    await must(api.delete(`/events/${event.id}`));
    const delivered = await eventually(
      async () => (await deliveriesOf(hook.id)).filter((d: any) => d.payload.id === event.id && d.state === "delivered"),
      (list) => list.length === 3,
    );
    const names = delivered.map((d: any) => d.payload.event).sort();
    expect(names).toEqual(["event.created", "event.deleted", "event.modified"]);
    for (const { payload } of delivered) {
      expect(payload).toMatchObject({ object: "event", id: event.id, data: { object: "event", id: event.id, event: { id: event.id } } });
    }
  });

  it("announces a booking made on the public booking site as performed via public_api", async () => {
    const hook = await subscribe(receiver().url, "booking.*");
    const res = await publicSite(subdomain).post("/bookings", {
      booking: {
        service_id: service.id,
        booked_from: `${inTwoWeeks()} 12:00`,
        booked_to: `${inTwoWeeks()} 12:30`,
        person_attributes: { name: "Visitor", email: `v${Date.now()}@example.com` },
      },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const delivery = await deliveredFor(hook.id, res.body.booking.id);
    expect(delivery.payload).toMatchObject({ event: "booking.created", performed_by: { via: "public_api" } });
  });
});
