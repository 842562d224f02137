// Retention per account: the settings on PUT /client (absent from answers until one is set), and
// the hourly cron pass at its edges: nothing one millisecond before a row is due, done one after.
import { afterEach, describe, expect, it, vi } from "vitest";
import { applyRetention } from "../../src/cron/jobs/apply-retention";
import { env, newAccount } from "../support/api";
import { must } from "../support/bookings";

const DAY = 86_400_000;
/** An hour's start long ago: the pass runs in the first minute of an hour. */
const T = Date.UTC(2020, 0, 1, 10);

const q = (query: string, ...bind: unknown[]) => env.DB.prepare(query).bind(...bind);

afterEach(() => {
  vi.restoreAllMocks();
});

async function limitedAccount(settings: Record<string, number | null>) {
  const { api, account } = await newAccount();
  await must(api.put("/client", { client: settings }));
  return { api, accountId: account.id as number };
}

async function personWithBookingEnding(accountId: number, api: Awaited<ReturnType<typeof newAccount>>["api"], endsAt: number, email: string) {
  const person = (await must(api.post("/people", { person: { name: `Kept ${email}`, email } }))).person;
  await q(
    `INSERT INTO bookings (account_id, resource_id, person_id, booked_from, booked_to, state, title, notes, created_at, updated_at)
     VALUES (?, 1, ?, ?, ?, 'confirmed', 'Haircut for Kari', 'likes it short', ?, ?)`,
    accountId,
    person.id,
    endsAt - 3_600_000,
    endsAt,
    endsAt - DAY,
    endsAt - DAY,
  ).run();
  return person.id as number;
}

const personRow = (id: number) => q("SELECT name, email, erased_at FROM people WHERE id = ?", id).first<any>();

describe("PUT /api/v1/client retention settings", () => {
  it("answers the settings once one is set, and an account that sets none exactly as before", async () => {
    const { api } = await newAccount();
    const before = (await api.get("/client")).body.client;
    expect(before).not.toHaveProperty("retention_days_after_last_booking");
    const set = await api.put("/client", { client: { message_body_retention_days: 90 } });
    expect(set.status).toBe(200);
    expect(set.body.client).toMatchObject({ retention_days_after_last_booking: null, message_body_retention_days: 90, delivery_payload_retention_days: null });
    const cleared = await api.put("/client", { client: { message_body_retention_days: null } });
    expect(Object.keys(cleared.body.client).sort()).toEqual(Object.keys(before).sort());
  });

  it("answers 400 on the attribute for a number of days that is not a whole number from 1 to 3650", async () => {
    const { api } = await newAccount();
    for (const bad of [0, -1, 3651, 1.5, "soon"]) {
      const res = await api.put("/client", { client: { retention_days_after_last_booking: bad } });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ retention_days_after_last_booking: [expect.any(String)] });
    }
  });
});

describe("the retention pass (cron)", () => {
  it("erases a person one millisecond after their last booking is older than the setting, not at it, and logs what it did", async () => {
    const { api, accountId } = await limitedAccount({ retention_days_after_last_booking: 30 });
    const id = await personWithBookingEnding(accountId, api, T, `ret-${accountId}@example.com`);
    const later = await personWithBookingEnding(accountId, api, T + DAY, `later-${accountId}@example.com`);
    const log = vi.spyOn(console, "log");

    await applyRetention(env, T + 30 * DAY, "DB");
    expect((await personRow(id)).erased_at).toBeNull();

    await applyRetention(env, T + 30 * DAY + 1, "DB");
    expect(await personRow(id)).toEqual({ name: null, email: null, erased_at: T + 30 * DAY + 1 });
    expect((await personRow(later)).email).toBe(`later-${accountId}@example.com`);
    const booking = await q("SELECT title, notes, booked_to, state FROM bookings WHERE person_id = ?", id).first();
    expect(booking).toEqual({ title: null, notes: null, booked_to: T, state: "confirmed" });
    const lines = log.mock.calls.map(([line]) => String(line)).filter((line) => line.includes('"cron":"retention"'));
    expect(lines.map((line) => JSON.parse(line))).toContainEqual({
      cron: "retention",
      shard: "DB",
      account_id: accountId,
      people_erased: 1,
      message_bodies: 0,
      delivery_payloads: 0,
    });
  });

  it("keeps a person whose booking ends in the future, and runs only in the first minute of an hour", async () => {
    const { api, accountId } = await limitedAccount({ retention_days_after_last_booking: 1 });
    const id = await personWithBookingEnding(accountId, api, T + 100 * DAY, `future-${accountId}@example.com`);
    await applyRetention(env, T + 50 * DAY, "DB");
    expect((await personRow(id)).erased_at).toBeNull();
    await applyRetention(env, T + 200 * DAY + 60_000, "DB");
    expect((await personRow(id)).erased_at).toBeNull();
    await applyRetention(env, T + 200 * DAY + 59_999, "DB");
    expect((await personRow(id)).erased_at).not.toBeNull();
  });

  it("clears settled messages and web hook payloads one millisecond after they are due, and never a message still to be sent", async () => {
    const { accountId } = await limitedAccount({ message_body_retention_days: 7, delivery_payload_retention_days: 7 });
    const message = (status: string) =>
      q(
        `INSERT INTO messages (account_id, kind, channel, recipient, subject, body, status, created_at, updated_at) VALUES (?, 'confirmation', 'email', 'kari@example.com', 'Your booking', 'Dear Kari', ?, ?, ?) RETURNING id`,
        accountId,
        status,
        T,
        T,
      ).first<{ id: number }>();
    const sent = (await message("sent"))!.id;
    const queued = (await message("queued"))!.id;
    const hook = await q(
      `INSERT INTO web_hooks (account_id, target_url, event, active, created_at, updated_at) VALUES (?, 'http://127.0.0.1:9/x', '*', 0, 0, 0) RETURNING id`,
      accountId,
    ).first<{ id: number }>();
    const delivery = (state: string) =>
      q(
        `INSERT INTO webhook_deliveries (account_id, web_hook_id, idempotency_id, event, payload, state, attempts, created_at, updated_at) VALUES (?, ?, ?, 'person.created', ?, ?, 1, ?, ?) RETURNING id`,
        accountId,
        hook!.id,
        crypto.randomUUID(),
        JSON.stringify({
          event: "person.created",
          idempotency_id: "i",
          generated_at: "g",
          performed_by: { via: "system" },
          data: { object: "person", id: 7, person: { name: "Kari" } },
        }),
        state,
        T,
        T,
      ).first<{ id: number }>();
    const delivered = (await delivery("delivered"))!.id;
    const pending = (await delivery("pending"))!.id;
    const text = (id: number) => q("SELECT recipient, subject, body FROM messages WHERE id = ?", id).first();
    const payload = async (id: number) => JSON.parse((await q("SELECT payload FROM webhook_deliveries WHERE id = ?", id).first<{ payload: string }>())!.payload);

    await applyRetention(env, T + 7 * DAY, "DB");
    expect(await text(sent)).toEqual({ recipient: "kari@example.com", subject: "Your booking", body: "Dear Kari" });
    expect((await payload(delivered)).data.person).toEqual({ name: "Kari" });

    await applyRetention(env, T + 7 * DAY + 1, "DB");
    expect(await text(sent)).toEqual({ recipient: "", subject: null, body: "" });
    expect(await text(queued)).toEqual({ recipient: "kari@example.com", subject: "Your booking", body: "Dear Kari" });
    expect(await payload(delivered)).toEqual({
      event: "person.created",
      idempotency_id: "i",
      generated_at: "g",
      performed_by: { via: "system" },
      data: { object: "person", id: 7, erased: true },
    });
    expect((await payload(pending)).data.person).toEqual({ name: "Kari" });
  });
});
