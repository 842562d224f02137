// Fault tests for the recurrence queue: a chunk that crashes part-way (a D1 write failing for one
// occurrence), a chunk delivered twice at once, and the real queue retrying a crashed message.
import { beforeAll, describe, expect, it } from "vitest";
import { env, newAccount, type Client } from "../support/api";
import { catalogue, must } from "../support/bookings";
import { injectInsertFault } from "../support/faults";
import { eventually, recordingQueue, runQueue } from "../support/queues";

let api: Client;
let accountId: number;
let make: ReturnType<typeof catalogue>;
/** Takes the bookings of the collections whose queue message the tests do not want running. */
let spare: { id: number };

beforeAll(async () => {
  const mine = await newAccount();
  api = mine.api;
  accountId = mine.account.id;
  make = catalogue(api);
  spare = await make.resource({ title: "Spare", capacity: 1000 });
});

const message = (collectionId: string) => ({ collection_id: collectionId, account_id: accountId, from: 0 });
const instant = (iso: string) => Date.parse(iso);

/**
 * A pending collection for `resourceId` that no real queue message names, so only the test
 * delivers it: the API stores one on the spare resource (its own message runs there, harmlessly)
 * and the stored row is copied under a new id, aimed at `resourceId`.
 */
async function quietCollection(resourceId: number, first: [string, string], rrule: string) {
  const { collection_id: queued } = await must(
    api.post("/bookings/recurring", {
      booking: { resource_id: spare.id, booked_from: first[0], booked_to: first[1], title: "Series" },
      recurring: { rrule },
    }),
  );
  const id = crypto.randomUUID();
  await env.DB.prepare(
    `INSERT INTO recurring_collections (id, account_id, kind, template, rrule, rdate, exdate, occurrences, status, next_index, created_count, skipped, created_at, updated_at)
     SELECT ?, account_id, kind, json_set(template, '$.booking.resource_id', ?), rrule, rdate, exdate, occurrences, 'pending', 0, 0, '[]', created_at, updated_at
     FROM recurring_collections WHERE id = ?`,
  )
    .bind(id, resourceId, queued)
    .run();
  return id;
}

const occurrences = async (id: string) => (await must(api.get(`/bookings/recurring/${id}`))).map((e: any) => e.booking);
const starts = async (id: string) => (await occurrences(id)).map((b: any) => b.booked_from);
const status = async (id: string) => (await must(api.get(`/bookings/recurring/${id}/status`))).recurring_collection;
const rowsOf = async (id: string) => (await env.DB.prepare("SELECT COUNT(*) AS n FROM bookings WHERE collection_id = ?").bind(id).first<{ n: number }>())!.n;
/** Ids of the bookings a recorded webhook queue saw announced as created for the collection, in order sent. */
const announced = (sent: { body: any }[], id: string) =>
  sent.filter((m) => m.body.event === "booking.created" && m.body.data.booking.collection_id === id).map((m) => m.body.data.id);

const DAILY_SIX = [
  "2032-03-01T10:00:00+01:00",
  "2032-03-02T10:00:00+01:00",
  "2032-03-03T10:00:00+01:00",
  "2032-03-04T10:00:00+01:00",
  "2032-03-05T10:00:00+01:00",
  "2032-03-06T10:00:00+01:00",
];

describe("booking-recurrence consumer under faults", () => {
  it("leaves a chunk that crashes part-way unacknowledged, and its redelivery fills the gap once, while the batch's other message completes", async () => {
    const resource = await make.resource({ capacity: 1 });
    const crashing = await quietCollection(resource.id, ["2032-03-01 10:00", "2032-03-01 11:00"], "FREQ=DAILY;COUNT=6");
    const sibling = await quietCollection((await make.resource()).id, ["2032-03-01 12:00", "2032-03-01 13:00"], "FREQ=DAILY;COUNT=2");
    const fault = await injectInsertFault("recurrence_crash", "bookings", `NEW.collection_id = '${crashing}' AND NEW.booked_from = ${instant(DAILY_SIX[3])}`);
    const webhooks = recordingQueue(env.WEBHOOK_QUEUE);

    const crashed = await runQueue("booking-recurrence", [message(crashing), message(sibling)], { WEBHOOK_QUEUE: webhooks.recorder });
    expect(crashed.explicitAcks).toHaveLength(1);
    expect(crashed.retryMessages).toHaveLength(1);
    expect(crashed.explicitAcks).not.toContain(crashed.retryMessages[0].msgId);
    expect(await starts(crashing)).toEqual(DAILY_SIX.slice(0, 3));
    expect(await status(crashing)).toMatchObject({ status: "pending", processed: 0, skipped: [] });
    expect(await status(sibling)).toMatchObject({ status: "completed", created: 2, skipped: [] });

    await fault.repair();
    const redelivered = await runQueue("booking-recurrence", [message(crashing)], { WEBHOOK_QUEUE: webhooks.recorder }, 2);
    expect(redelivered.explicitAcks).toHaveLength(1);
    const bookings = await occurrences(crashing);
    expect(bookings.map((b: any) => b.booked_from)).toEqual(DAILY_SIX);
    expect(await rowsOf(crashing)).toBe(6);
    expect(await status(crashing)).toMatchObject({ status: "completed", occurrences: 6, processed: 6, created: 6, skipped: [] });
    // Each occurrence is announced once: by the run that created it, never again by the redelivery.
    expect(announced(webhooks.sent, crashing)).toEqual(bookings.map((b: any) => b.id));
  });

  it("creates each occurrence once and reports none skipped when the same chunk is delivered twice at once", async () => {
    const resource = await make.resource({ capacity: 1 });
    const id = await quietCollection(resource.id, ["2032-04-05 09:00", "2032-04-05 10:00"], "FREQ=DAILY;COUNT=8");
    const webhooks = recordingQueue(env.WEBHOOK_QUEUE);

    const results = await Promise.all([1, 2].map(() => runQueue("booking-recurrence", [message(id)], { WEBHOOK_QUEUE: webhooks.recorder })));
    for (const result of results) expect(result.explicitAcks).toHaveLength(1);

    const bookings = await occurrences(id);
    expect(bookings).toHaveLength(8);
    expect(new Set(bookings.map((b: any) => b.booked_from)).size).toBe(8);
    expect(bookings.every((b: any) => b.state === "confirmed" && b.resource_id === resource.id)).toBe(true);
    expect(await status(id)).toMatchObject({ status: "completed", occurrences: 8, processed: 8, created: 8, skipped: [] });
    expect(announced(webhooks.sent, id).sort()).toEqual(bookings.map((b: any) => b.id).sort());
  });

  it("recovers on the real queue: a D1 outage crashes the first delivery, the runtime's retry completes the collection", { timeout: 60_000 }, async () => {
    const resource = await make.resource({ capacity: 1 });
    const posted = Date.now();
    // Inserts of the fourth occurrence fail for 6 s; the consumer's retry comes 10 s after the crash.
    const outage = await injectInsertFault(
      "recurrence_outage",
      "bookings",
      `NEW.resource_id = ${resource.id} AND NEW.booked_from = ${instant("2032-05-04T10:00:00+02:00")} AND unixepoch('subsec') * 1000 < ${posted + 6_000}`,
    );
    const { collection_id: id } = await must(
      api.post("/bookings/recurring", {
        booking: { resource_id: resource.id, booked_from: "2032-05-01 10:00", booked_to: "2032-05-01 11:00" },
        recurring: { rrule: "FREQ=DAILY;COUNT=6" },
      }),
    );

    const current = await eventually(
      () => status(id),
      (c) => c.status !== "pending",
      50_000,
      1000,
    );
    expect(current).toMatchObject({ status: "completed", occurrences: 6, processed: 6, created: 6, skipped: [] });
    const bookings = await occurrences(id);
    expect(bookings.map((b: any) => b.booked_from.slice(0, 10))).toEqual(["2032-05-01", "2032-05-02", "2032-05-03", "2032-05-04", "2032-05-05", "2032-05-06"]);
    // The first three came from the first delivery, the rest from the retry after the crash.
    const created = bookings.map((b: any) => Date.parse(b.created_at));
    expect(created[2] - posted).toBeLessThan(6_000);
    expect(created[3] - created[2]).toBeGreaterThanOrEqual(9_000);
    // The database outlives this file (docs/decisions/test-suite.md).
    await outage.repair();
  });
});
