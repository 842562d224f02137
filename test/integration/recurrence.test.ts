import { beforeAll, describe, expect, it } from "vitest";
import { env, newAccount, type Client } from "../support/api";
import { catalogue, must } from "../support/bookings";
import { eventually, runQueue } from "../support/queues";

let api: Client;
let other: Client;
let accountId: number;
let make: ReturnType<typeof catalogue>;

beforeAll(async () => {
  const mine = await newAccount();
  api = mine.api;
  accountId = mine.account.id;
  make = catalogue(api);
  other = (await newAccount()).api;
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const FULL = { booked_from: ["is not available: the resource is fully booked at this time"] };
const TOO_MANY = { collection_id: ["has more than 731 occurrences: narrow the rule with COUNT or UNTIL"] };

/** Runs the recurrence consumer on `copies` deliveries of one message, as the queue would. */
async function deliver(collectionId: string, opts: { from?: number; copies?: number; queue?: string; account?: number } = {}) {
  const body = { collection_id: collectionId, account_id: opts.account ?? accountId, from: opts.from ?? 0 };
  return runQueue(
    opts.queue ?? "booking-recurrence",
    Array.from({ length: opts.copies ?? 1 }, () => body),
  );
}

/** POSTs a recurring booking and runs its first chunk; answers the collection id. */
async function recur(booking: Record<string, unknown>, recurring: Record<string, unknown>, extra: Record<string, unknown> = {}) {
  const { collection_id } = await must(api.post("/bookings/recurring", { booking, recurring, ...extra }));
  const result = await deliver(collection_id);
  expect(result.explicitAcks).toHaveLength(1);
  return collection_id as string;
}

const occurrences = async (collectionId: string, client = api) => (await must(client.get(`/bookings/recurring/${collectionId}`))).map((e: any) => e.booking);
const times = (bookings: any[]) => bookings.map((b) => [b.booked_from, b.booked_to]);
const status = async (collectionId: string) => (await must(api.get(`/bookings/recurring/${collectionId}/status`))).recurring_collection;
/** A pending copy of a stored collection under a new id: no queue message exists for it. */
async function quietCopy(collectionId: string) {
  const id = crypto.randomUUID();
  await env.DB.prepare(
    `INSERT INTO recurring_collections (id, account_id, kind, template, rrule, rdate, exdate, occurrences, status, next_index, created_count, skipped, created_at, updated_at)
     SELECT ?, account_id, kind, template, rrule, rdate, exdate, occurrences, 'pending', 0, 0, '[]', created_at, updated_at
     FROM recurring_collections WHERE id = ?`,
  )
    .bind(id, collectionId)
    .run();
  return id;
}

const countRows = async (sql: string, ...params: unknown[]) =>
  (await env.DB.prepare(sql)
    .bind(...params)
    .first<{ n: number }>())!.n;

describe("POST /api/v1/bookings/recurring", () => {
  it("answers only the collection id and records the collection for the queue", async () => {
    const resource = await make.resource();
    const res = await api.post("/bookings/recurring", {
      booking: { resource_id: resource.id, booked_from: "2030-01-07 10:00", booked_to: "2030-01-07 11:00" },
      recurring: { rrule: "FREQ=DAILY;COUNT=2" },
    });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(["collection_id"]);
    expect(res.body.collection_id).toMatch(UUID);
    expect(await status(res.body.collection_id)).toMatchObject({ kind: "booking", occurrences: 2, skipped: [] });
  });

  it("creates weekly occurrences that keep 10:00–11:00 Oslo time across the DST change", async () => {
    const resource = await make.resource();
    const id = await recur(
      { resource_id: resource.id, booked_from: "2030-03-18 10:00", booked_to: "2030-03-18 11:00", title: "Weekly" },
      { rrule: "FREQ=WEEKLY;COUNT=4" },
    );
    const bookings = await occurrences(id);
    expect(times(bookings)).toEqual([
      ["2030-03-18T10:00:00+01:00", "2030-03-18T11:00:00+01:00"],
      ["2030-03-25T10:00:00+01:00", "2030-03-25T11:00:00+01:00"],
      ["2030-04-01T10:00:00+02:00", "2030-04-01T11:00:00+02:00"],
      ["2030-04-08T10:00:00+02:00", "2030-04-08T11:00:00+02:00"],
    ]);
    for (const b of bookings) expect(b).toMatchObject({ collection_id: id, title: "Weekly", resource_id: resource.id, state: "confirmed", active: true });
    expect(await status(id)).toMatchObject({ status: "completed", occurrences: 4, processed: 4, created: 4, skipped: [] });
  });

  it("adds rdate dates at the first booking's time and leaves out exdate dates", async () => {
    const resource = await make.resource();
    const id = await recur(
      { resource_id: resource.id, booked_from: "2030-01-07 09:00", booked_to: "2030-01-07 09:30" },
      { rrule: "FREQ=WEEKLY;COUNT=3", rdate: "VALUE=DATE:20300110", exdate: "VALUE=DATE:20300114" },
    );
    expect(times(await occurrences(id))).toEqual([
      ["2030-01-07T09:00:00+01:00", "2030-01-07T09:30:00+01:00"],
      ["2030-01-10T09:00:00+01:00", "2030-01-10T09:30:00+01:00"],
      ["2030-01-21T09:00:00+01:00", "2030-01-21T09:30:00+01:00"],
    ]);
  });

  it("takes form data with bracket names", async () => {
    const resource = await make.resource();
    const res = await api.form(
      "POST",
      "/bookings/recurring",
      `booking[resource_id]=${resource.id}&booking[booked_from]=2030-02-04 10:00&booking[booked_to]=2030-02-04 11:00` +
        `&recurring[rrule]=${encodeURIComponent("FREQ=DAILY;COUNT=2")}&confirm=true`,
    );
    expect(res.status).toBe(200);
    await deliver(res.body.collection_id);
    expect(times(await occurrences(res.body.collection_id))).toEqual([
      ["2030-02-04T10:00:00+01:00", "2030-02-04T11:00:00+01:00"],
      ["2030-02-05T10:00:00+01:00", "2030-02-05T11:00:00+01:00"],
    ]);
  });

  it("answers 400 on collection_id for more than 731 occurrences, storing and creating nothing", async () => {
    const resource = await make.resource();
    const collectionsBefore = await countRows("SELECT COUNT(*) AS n FROM recurring_collections WHERE account_id = ?", accountId);
    const res = await api.post("/bookings/recurring", {
      booking: { resource_id: resource.id, booked_from: "2030-01-07 10:00", booked_to: "2030-01-07 11:00" },
      recurring: { rrule: "FREQ=DAILY;COUNT=732" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(TOO_MANY);
    expect(await countRows("SELECT COUNT(*) AS n FROM recurring_collections WHERE account_id = ?", accountId)).toBe(collectionsBefore);
    expect(await countRows("SELECT COUNT(*) AS n FROM bookings WHERE resource_id = ?", resource.id)).toBe(0);
  });

  it("answers 400 on rrule, rdate and exdate for unreadable recurrences", async () => {
    const resource = await make.resource();
    const booking = { resource_id: resource.id, booked_from: "2030-01-07 10:00", booked_to: "2030-01-07 11:00" };
    const endless = await api.post("/bookings/recurring", { booking, recurring: { rrule: "FREQ=WEEKLY" } });
    expect(endless.status).toBe(400);
    expect(endless.body).toEqual({ rrule: ["needs COUNT or UNTIL: a rule without an end has no last occurrence"] });
    const dates = await api.post("/bookings/recurring", { booking, recurring: { rrule: "FREQ=DAILY;COUNT=2", rdate: "soon", exdate: "VALUE=DATE:2030" } });
    expect(dates.status).toBe(400);
    expect(dates.body).toEqual({ rdate: [expect.stringContaining("is invalid (soon)")], exdate: [expect.stringContaining("is invalid (2030)")] });
    const empty = await api.post("/bookings/recurring", { booking, recurring: {} });
    expect(empty.body).toEqual({ rrule: ["can't be blank: give rrule or rdate"] });
    const typed = await api.post("/bookings/recurring", { booking, recurring: { rrule: ["FREQ=DAILY"] } });
    expect(typed.status).toBe(400);
    expect(Object.keys(typed.body)).toEqual(["rrule"]);
  });

  it("answers 400 on recurring when the recurrence is missing", async () => {
    const res = await api.post("/bookings/recurring", { booking: { resource_id: 1, booked_from: "2030-01-07 10:00", booked_to: "2030-01-07 11:00" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ recurring: ["can't be blank"] });
  });

  it("validates the first booking exactly as a single create, before the recurrence", async () => {
    const res = await api.post("/bookings/recurring", { booking: { booked_from: "2030-01-07 10:00" }, recurring: { rrule: "FREQ=WEEKLY" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ booked_to: ["can't be blank"], resource_id: ["can't be blank"] });
    const person = await api.post("/bookings/recurring", {
      booking: { resource_id: (await make.resource()).id, booked_from: "2030-01-07 10:00", booked_to: "2030-01-07 11:00", person_attributes: { email: "nope" } },
      recurring: { rrule: "FREQ=WEEKLY;COUNT=2" },
    });
    expect(person.status).toBe(400);
    expect(person.body).toEqual({ person: ["is invalid"], person_attributes: { email: [expect.any(String)] } });
  });

  it("answers 400 on event_id: an event booking cannot recur", async () => {
    const resource = await make.resource();
    const service = await make.service({ booking_type: "attendance" });
    const eventId = await make.event({ resourceId: resource.id, serviceId: service.id, capacity: 5, starts: "2030-01-07 10:00", ends: "2030-01-07 11:00" });
    const res = await api.post("/bookings/recurring", { booking: { event_id: eventId }, recurring: { rrule: "FREQ=WEEKLY;COUNT=2" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ event_id: ["can't recur: create the event as recurring (POST /events/recurring)"] });
  });

  it("skips occurrences that do not fit and records why, never forcing them", async () => {
    const resource = await make.resource({ capacity: 1 });
    await make.booking({ resource_id: resource.id, booked_from: "2030-05-07 10:30", booked_to: "2030-05-07 11:30" });
    const id = await recur({ resource_id: resource.id, booked_from: "2030-05-06 10:00", booked_to: "2030-05-06 11:00" }, { rrule: "FREQ=DAILY;COUNT=3" });
    expect(times(await occurrences(id))).toEqual([
      ["2030-05-06T10:00:00+02:00", "2030-05-06T11:00:00+02:00"],
      ["2030-05-08T10:00:00+02:00", "2030-05-08T11:00:00+02:00"],
    ]);
    expect(await status(id)).toMatchObject({
      status: "completed",
      occurrences: 3,
      processed: 3,
      created: 2,
      skipped: [{ booked_from: "2030-05-07T10:00:00+02:00", booked_to: "2030-05-07T11:00:00+02:00", errors: FULL }],
    });
    expect(await countRows("SELECT COUNT(*) AS n FROM bookings WHERE resource_id = ? AND active = 1", resource.id)).toBe(3);
  });

  it("force-saves occurrences that do not fit with ignore_capacity", async () => {
    const resource = await make.resource({ capacity: 1 });
    await make.booking({ resource_id: resource.id, booked_from: "2030-06-04 10:00", booked_to: "2030-06-04 11:00" });
    const id = await recur(
      { resource_id: resource.id, booked_from: "2030-06-03 10:00", booked_to: "2030-06-03 11:00" },
      { rrule: "FREQ=DAILY;COUNT=2" },
      { ignore_capacity: true },
    );
    expect(await occurrences(id)).toHaveLength(2);
    expect((await status(id)).skipped).toEqual([]);
  });

  it("links every occurrence to the one person its person_attributes create", async () => {
    const resource = await make.resource();
    const id = await recur(
      { resource_id: resource.id, booked_from: "2030-07-01 10:00", booked_to: "2030-07-01 11:00", person_attributes: { name: "Ola Recurring" } },
      { rrule: "FREQ=DAILY;COUNT=3" },
    );
    const personIds = (await occurrences(id)).map((b: any) => b.person_id);
    expect(personIds).toHaveLength(3);
    expect(new Set(personIds).size).toBe(1);
    expect(await countRows("SELECT COUNT(*) AS n FROM people WHERE account_id = ? AND name = 'Ola Recurring'", accountId)).toBe(1);
  });
});

describe("recurrence queue consumer", () => {
  it("creates no duplicates when the same message is delivered several times", async () => {
    const resource = await make.resource();
    const { collection_id: id } = await must(
      api.post("/bookings/recurring", {
        booking: { resource_id: resource.id, booked_from: "2030-08-05 10:00", booked_to: "2030-08-05 11:00" },
        recurring: { rrule: "FREQ=DAILY;COUNT=3" },
      }),
    );
    const first = await deliver(id, { copies: 2 });
    expect(first.explicitAcks).toHaveLength(2);
    await deliver(id);
    expect(await occurrences(id)).toHaveLength(3);
    expect(await countRows("SELECT COUNT(*) AS n FROM bookings WHERE collection_id = ?", id)).toBe(3);
    expect(await status(id)).toMatchObject({ status: "completed", created: 3 });
  });

  it("fills the gaps without duplicates when a chunk is redelivered after a crash mid-chunk", async () => {
    // Room for the original too: the real queue books it on the same slots whenever it runs.
    const resource = await make.resource({ capacity: 2 });
    const { collection_id: queued } = await must(
      api.post("/bookings/recurring", {
        booking: { resource_id: resource.id, booked_from: "2030-09-02 10:00", booked_to: "2030-09-02 11:00" },
        recurring: { rrule: "FREQ=DAILY;COUNT=4" },
      }),
    );
    // A copy of the collection that no real queue message names, so only this test delivers it.
    const id = await quietCopy(queued);
    await deliver(id);
    // As if the consumer died after two inserts: the last two missing, no progress recorded.
    await env.DB.batch([
      env.DB.prepare("DELETE FROM bookings WHERE collection_id = ? AND booked_from >= ?").bind(id, Date.parse("2030-09-04T08:00:00Z")),
      env.DB.prepare("UPDATE recurring_collections SET status = 'pending', next_index = 0, created_count = 0 WHERE id = ?").bind(id),
    ]);
    expect(await occurrences(id)).toHaveLength(2);
    await deliver(id);
    expect(times(await occurrences(id)).map(([from]) => from)).toEqual([
      "2030-09-02T10:00:00+02:00",
      "2030-09-03T10:00:00+02:00",
      "2030-09-04T10:00:00+02:00",
      "2030-09-05T10:00:00+02:00",
    ]);
    expect(await status(id)).toMatchObject({ status: "completed", processed: 4, created: 4 });
  });

  it("works through a collection larger than one chunk on the real queue", { timeout: 90_000 }, async () => {
    const resource = await make.resource();
    const { collection_id: id } = await must(
      api.post("/bookings/recurring", {
        booking: { resource_id: resource.id, booked_from: "2031-01-06 10:00", booked_to: "2031-01-06 11:00" },
        recurring: { rrule: "FREQ=DAILY;COUNT=30" },
      }),
    );
    const current = await eventually(
      () => status(id),
      (c) => c.status !== "pending",
      80_000,
      1000,
    );
    expect(current).toMatchObject({ status: "completed", occurrences: 30, processed: 30, created: 30 });
    const bookings = await occurrences(id);
    expect(bookings).toHaveLength(30);
    expect(bookings[29].booked_from).toBe("2031-02-04T10:00:00+01:00");
  });

  it("retries an unreadable message rather than acking it", async () => {
    const result = await runQueue("booking-recurrence", [{ nonsense: true }], {}, 1, ["bad-1"]);
    expect(result.explicitAcks).toEqual([]);
    expect(result.retryMessages.map((m: { msgId: string }) => m.msgId)).toEqual(["bad-1"]);
  });

  it("marks a collection failed when its message is dead-lettered", async () => {
    const resource = await make.resource();
    const { collection_id: id } = await must(
      api.post("/bookings/recurring", {
        booking: { resource_id: resource.id, booked_from: "2030-10-01 10:00", booked_to: "2030-10-01 11:00" },
        recurring: { rrule: "FREQ=DAILY;COUNT=2" },
      }),
    );
    const result = await deliver(id, { queue: "booking-recurrence-dlq" });
    expect(result.explicitAcks).toHaveLength(1);
    expect((await status(id)).status).toBe("failed");
  });
});

describe("GET /api/v1/bookings/recurring/{collection_id}", () => {
  it("lists every occurrence in every state, wrapped as booking, with page headers", async () => {
    const resource = await make.resource();
    const id = await recur({ resource_id: resource.id, booked_from: "2030-11-04 10:00", booked_to: "2030-11-04 11:00" }, { rrule: "FREQ=DAILY;COUNT=3" });
    const [first] = await occurrences(id);
    await must(api.delete(`/bookings/${first.id}`));
    const res = await api.get(`/bookings/recurring/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.map((e: any) => Object.keys(e))).toEqual([["booking"], ["booking"], ["booking"]]);
    expect(res.body.map((e: any) => e.booking.state)).toEqual(["deleted", "confirmed", "confirmed"]);
    expect(res.headers.get("Total-Count")).toBe("3");
    expect(res.headers.get("Current-Page")).toBe("1");
  });

  it("answers 404 for an unknown collection and for another tenant's", async () => {
    const resource = await make.resource();
    const id = await recur({ resource_id: resource.id, booked_from: "2030-11-11 10:00", booked_to: "2030-11-11 11:00" }, { rrule: "FREQ=DAILY;COUNT=1" });
    const unknown = await api.get(`/bookings/recurring/${crypto.randomUUID()}`);
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ error: expect.any(String) });
    expect((await other.get(`/bookings/recurring/${id}`)).status).toBe(404);
    expect((await other.get(`/bookings/recurring/${id}/status`)).status).toBe(404);
  });
});

describe("GET /api/v1/bookings/recurring/{collection_id}/status", () => {
  it("shows the rule and progress of the collection", async () => {
    const resource = await make.resource();
    const id = await recur(
      { resource_id: resource.id, booked_from: "2030-12-02 10:00", booked_to: "2030-12-02 11:00" },
      { rrule: "FREQ=WEEKLY;COUNT=2", exdate: "VALUE=DATE:20301209", rdate: "VALUE=DATE:20301210" },
    );
    const res = await api.get(`/bookings/recurring/${id}/status`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      recurring_collection: {
        id,
        kind: "booking",
        status: "completed",
        rrule: "FREQ=WEEKLY;COUNT=2",
        rdate: "VALUE=DATE:20301210",
        exdate: "VALUE=DATE:20301209",
        occurrences: 2,
        processed: 2,
        created: 2,
        skipped: [],
        created_at: expect.any(String),
        updated_at: expect.any(String),
      },
    });
  });
});

describe("DELETE /api/v1/bookings/recurring/{collection_id}", () => {
  it("deletes every occurrence and answers them", async () => {
    const resource = await make.resource();
    const id = await recur({ resource_id: resource.id, booked_from: "2031-03-03 10:00", booked_to: "2031-03-03 11:00" }, { rrule: "FREQ=DAILY;COUNT=3" });
    const res = await api.delete(`/bookings/recurring/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.map((e: any) => [e.booking.state, e.booking.active])).toEqual([
      ["deleted", false],
      ["deleted", false],
      ["deleted", false],
    ]);
    expect((await status(id)).status).toBe("deleted");
    const again = await api.delete(`/bookings/recurring/${id}`);
    expect(again.body.map((e: any) => e.booking.updated_at)).toEqual(res.body.map((e: any) => e.booking.updated_at));
  });

  it("stops a collection whose occurrences are not created yet", async () => {
    const resource = await make.resource();
    const { collection_id: queued } = await must(
      api.post("/bookings/recurring", {
        booking: { resource_id: resource.id, booked_from: "2031-04-07 10:00", booked_to: "2031-04-07 11:00" },
        recurring: { rrule: "FREQ=DAILY;COUNT=3" },
      }),
    );
    const id = await quietCopy(queued);
    expect((await api.delete(`/bookings/recurring/${id}`)).body).toEqual([]);
    await deliver(id);
    expect(await countRows("SELECT COUNT(*) AS n FROM bookings WHERE collection_id = ?", id)).toBe(0);
  });

  it("answers 404 for another tenant's collection and deletes nothing", async () => {
    const resource = await make.resource();
    const id = await recur({ resource_id: resource.id, booked_from: "2031-05-05 10:00", booked_to: "2031-05-05 11:00" }, { rrule: "FREQ=DAILY;COUNT=2" });
    const res = await other.delete(`/bookings/recurring/${id}`);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: expect.any(String) });
    expect((await occurrences(id)).map((b: any) => b.state)).toEqual(["confirmed", "confirmed"]);
    expect((await status(id)).status).toBe("completed");
  });
});

describe("POST /api/v1/events/recurring", () => {
  it("creates weekly events that keep their wall-clock time across the DST change", async () => {
    const resource = await make.resource();
    const service = await make.service({ booking_type: "attendance" });
    const { collection_id: id } = await must(
      api.post("/events/recurring", {
        event: { resource_id: resource.id, service_id: service.id, capacity: 8, starts_at: "2030-10-21 18:00", ends_at: "2030-10-21 19:30", title: "Yoga" },
        recurrence: { rrule: "FREQ=WEEKLY;COUNT=2" },
      }),
    );
    expect(id).toMatch(UUID);
    await deliver(id);
    const res = await api.get(`/events/recurring/${id}`);
    expect(res.status).toBe(200);
    expect(res.body.map((e: any) => [e.event.starts_at, e.event.ends_at, e.event.title, e.event.collection_id, e.event.availability])).toEqual([
      ["2030-10-21T18:00:00+02:00", "2030-10-21T19:30:00+02:00", "Yoga", id, 8],
      ["2030-10-28T18:00:00+01:00", "2030-10-28T19:30:00+01:00", "Yoga", id, 8],
    ]);
    await deliver(id);
    expect(await countRows("SELECT COUNT(*) AS n FROM events WHERE collection_id = ?", id)).toBe(2);
    expect((await must(api.get(`/events/recurring/${id}/status`))).recurring_collection).toMatchObject({ kind: "event", status: "completed", created: 2 });
  });

  it("takes form data with bracket names", async () => {
    const resource = await make.resource();
    const service = await make.service({ booking_type: "attendance" });
    const res = await api.form(
      "POST",
      "/events/recurring",
      `event[resource_id]=${resource.id}&event[service_id]=${service.id}&event[capacity]=3&event[starts_at]=2030-01-07 10:00` +
        `&event[ends_at]=2030-01-07 11:00&recurrence[rdate]=${encodeURIComponent("VALUE=DATE:20300109")}`,
    );
    expect(res.status).toBe(200);
    await deliver(res.body.collection_id);
    expect((await must(api.get(`/events/recurring/${res.body.collection_id}`))).map((e: any) => e.event.starts_at)).toEqual([
      "2030-01-07T10:00:00+01:00",
      "2030-01-09T10:00:00+01:00",
    ]);
  });

  it("validates the first event as a single create, then the recurrence", async () => {
    const resource = await make.resource();
    const service = await make.service({ booking_type: "attendance" });
    const invalid = await api.post("/events/recurring", { event: { resource_id: resource.id, service_id: service.id }, recurrence: { rrule: "FREQ=DAILY;COUNT=2" } });
    expect(invalid.status).toBe(400);
    expect(invalid.body).toEqual({ capacity: ["can't be blank"], starts_at: ["can't be blank"], ends_at: ["can't be blank"] });
    const event = { resource_id: resource.id, service_id: service.id, capacity: 2, starts_at: "2030-01-07 10:00", ends_at: "2030-01-07 11:00" };
    const missing = await api.post("/events/recurring", { event });
    expect(missing.body).toEqual({ recurrence: ["can't be blank"] });
    const tooMany = await api.post("/events/recurring", { event, recurrence: { rrule: "FREQ=DAILY;UNTIL=20330101" } });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body).toEqual(TOO_MANY);
  });
});

describe("GET /api/v1/events/recurring/{collection_id}", () => {
  it("answers 404 for an unknown collection, another tenant's, and a booking collection", async () => {
    const resource = await make.resource();
    const service = await make.service({ booking_type: "attendance" });
    const { collection_id: id } = await must(
      api.post("/events/recurring", {
        event: { resource_id: resource.id, service_id: service.id, capacity: 2, starts_at: "2030-02-04 10:00", ends_at: "2030-02-04 11:00" },
        recurrence: { rrule: "FREQ=DAILY;COUNT=2" },
      }),
    );
    await deliver(id);
    expect((await api.get(`/events/recurring/${crypto.randomUUID()}`)).status).toBe(404);
    const foreign = await other.get(`/events/recurring/${id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: expect.any(String) });
    const bookingCollection = await recur({ resource_id: resource.id, booked_from: "2030-02-04 12:00", booked_to: "2030-02-04 13:00" }, { rrule: "FREQ=DAILY;COUNT=1" });
    expect((await api.get(`/events/recurring/${bookingCollection}`)).status).toBe(404);
  });
});
