// Freed seats under concurrency (issue 30, docs/decisions/waitlist.md): however many writes free
// seats of one time at once, and whatever the cron does meanwhile, every freed seat ends offered to
// exactly one waiting entry (in line order), free for anyone, or booked: never held for nobody.
import { createScheduledController } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import worker from "../../src/index";
import { env, newAccount, send, type Client } from "../support/api";
import { catalogue, must } from "../support/bookings";
import { orphanHolds } from "../support/waitlist";

const DAY = "2030-01-07";
const TIME = { booked_from: `${DAY} 10:00`, booked_to: `${DAY} 11:00` };

let api: Client;
let subdomain: string;
let accountId: number;

beforeAll(async () => {
  const mine = await newAccount();
  api = mine.api;
  subdomain = mine.account.subdomain;
  accountId = mine.account.id;
  await must(api.put("/client", { client: { waitlist_enabled: true } }));
});

let visitors = 0;
function site() {
  const origin = `http://${subdomain}.localhost`;
  const headers = (extra: Record<string, string> = {}) => ({ "content-type": "application/json", "cf-connecting-ip": `198.51.100.${(visitors += 1) % 250}`, ...extra });
  return {
    post: (path: string, payload: unknown) => send("POST", `${origin}${path}`, { headers: headers(), body: JSON.stringify(payload) }),
    delete: (path: string, extra: Record<string, string>) => send("DELETE", `${origin}${path}`, { headers: headers(extra) }),
  };
}

const cron = () => worker.scheduled!(createScheduledController({ scheduledTime: new Date(), cron: "* * * * *" }), env);

/** A resource of `seats` seats, all booked at TIME, and a line of `waiting` people for that time. */
async function fullLine(seats: number, waiting: number) {
  const make = catalogue(api);
  const room = await make.resource({ capacity: seats });
  const cut = await make.service({ title: "Class", interval: 60 });
  await make.provider(room.id, cut.id);
  const bookings: number[] = [];
  for (let i = 0; i < seats; i++) bookings.push((await make.booking({ service_id: cut.id, resource_id: room.id, ...TIME })).id);
  const line: { id: number; token: string }[] = [];
  for (let i = 0; i < waiting; i++) {
    const joined = await must(
      site().post("/waitlist", { waitlist_entry: { service_id: cut.id, ...TIME, person_attributes: { name: `P${i}`, email: `p${i}@example.com` } } }),
    );
    line.push({ id: joined.waitlist_entry.id, token: joined.waitlist_token });
  }
  return { room, cut, bookings, line };
}

const statesOf = async (line: { id: number }[]) => Promise.all(line.map(async ({ id }) => (await must(api.get(`/waitlist/${id}`))).waitlist_entry.state as string));

async function freeAtTen(serviceId: number): Promise<number> {
  const slots = await must(api.get(`/services/${serviceId}/slots?from=${DAY}&to=${DAY}`));
  return slots.find((e: any) => e.slot.timestamp.slice(11, 16) === "10:00")?.slot.free ?? 0;
}

/** `n` of the line offered (the first n), the rest still waiting. */
const firstOffered = (n: number, of: number) => Array.from({ length: of }, (_, i) => (i < n ? "offered" : "waiting"));

/** After the freeing writes: the first min(freed, waiting) offered, the other seats free, no hold without its entry. */
async function expectSeatsPassedOn(setup: Awaited<ReturnType<typeof fullLine>>, freed: number) {
  const offered = Math.min(freed, setup.line.length);
  expect(await statesOf(setup.line)).toEqual(firstOffered(offered, setup.line.length));
  expect(await orphanHolds(accountId)).toEqual([]);
  expect(await freeAtTen(setup.cut.id)).toBe(freed - offered);
}

const REPEATS = 3;

describe("concurrent cancels", () => {
  for (let seats = 2; seats <= 6; seats++) {
    it(`${seats} cancels at once offer min(${seats}, 4) entries in line order and leave the rest free (x${REPEATS})`, async () => {
      for (let repeat = 0; repeat < REPEATS; repeat++) {
        const setup = await fullLine(seats, 4);
        const cancels = await Promise.all(setup.bookings.map((id) => api.put(`/bookings/${id}/cancel`, {})));
        expect(cancels.map((r) => r.status)).toEqual(setup.bookings.map(() => 200));
        await expectSeatsPassedOn(setup, seats);
      }
    });
  }

  it("four cancels of a capacity-4 time with five waiting offer the first four; the fifth waits; a walk-in is refused", async () => {
    const setup = await fullLine(4, 5);
    await Promise.all(setup.bookings.map((id) => api.put(`/bookings/${id}/cancel`, {})));
    await expectSeatsPassedOn(setup, 4);
    const walkIn = await api.post("/bookings", { booking: { service_id: setup.cut.id, resource_id: setup.room.id, ...TIME } });
    expect(walkIn.status).toBe(400);
  });
});

describe("every path that frees a seat at once", () => {
  it("concurrent deletes", async () => {
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      const setup = await fullLine(4, 3);
      await Promise.all(setup.bookings.map((id) => api.delete(`/bookings/${id}`)));
      await expectSeatsPassedOn(setup, 4);
    }
  });

  it("concurrent moves to another time", async () => {
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      const setup = await fullLine(4, 3);
      const moved = await Promise.all(setup.bookings.map((id) => api.put(`/bookings/${id}`, { booking: { booked_from: `${DAY} 14:00`, booked_to: `${DAY} 15:00` } })));
      expect(moved.map((r) => r.status)).toEqual([200, 200, 200, 200]);
      await expectSeatsPassedOn(setup, 4);
    }
  });

  it("a cancel, a delete and a move at once, with the cron racing them", async () => {
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      const setup = await fullLine(5, 4);
      const [a, b, c, d, e] = setup.bookings;
      await Promise.all([
        api.put(`/bookings/${a}/cancel`, {}),
        api.delete(`/bookings/${b}`),
        cron(),
        api.put(`/bookings/${c}`, { booking: { booked_from: `${DAY} 15:00`, booked_to: `${DAY} 16:00` } }),
        api.put(`/bookings/${d}/cancel`, {}),
        cron(),
        api.delete(`/bookings/${e}`),
      ]);
      await expectSeatsPassedOn(setup, 5);
    }
  });

  it("the cron racing concurrent cancels", async () => {
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      const setup = await fullLine(3, 4);
      await Promise.all([cron(), ...setup.bookings.map((id) => api.put(`/bookings/${id}/cancel`, {})), cron()]);
      await expectSeatsPassedOn(setup, 3);
    }
  });

  it("a declined offer racing a cancel: both seats reach the next two in line", async () => {
    for (let repeat = 0; repeat < REPEATS; repeat++) {
      const setup = await fullLine(2, 3);
      const [first, second, third] = setup.line;
      await must(api.put(`/bookings/${setup.bookings[0]}/cancel`, {}));
      expect(await statesOf(setup.line)).toEqual(["offered", "waiting", "waiting"]);
      const [declined, cancelled] = await Promise.all([
        site().delete(`/waitlist/${first.id}`, { "x-waitlist-token": first.token }),
        api.put(`/bookings/${setup.bookings[1]}/cancel`, {}),
      ]);
      expect([declined.status, cancelled.status]).toEqual([200, 200]);
      expect(await statesOf([first, second, third])).toEqual(["left", "offered", "offered"]);
      expect(await orphanHolds(accountId)).toEqual([]);
      expect(await freeAtTen(setup.cut.id)).toBe(0);
    }
  });

  it("a capacity raise, passed on by the cron racing a cancel", async () => {
    const setup = await fullLine(2, 4);
    await must(api.put(`/resources/${setup.room.id}`, { resource: { capacity: 4 } }));
    await Promise.all([cron(), api.put(`/bookings/${setup.bookings[0]}/cancel`, {}), cron()]);
    await expectSeatsPassedOn(setup, 3);
  });

  it("lapsed offers racing cancels: the lapsed seats and the freed ones all reach the next in line", async () => {
    const setup = await fullLine(4, 6);
    await must(api.put(`/bookings/${setup.bookings[0]}/cancel`, {}));
    await must(api.put(`/bookings/${setup.bookings[1]}/cancel`, {}));
    expect(await statesOf(setup.line.slice(0, 2))).toEqual(["offered", "offered"]);
    await env.DB.prepare("UPDATE slot_holds SET expires_at = ? WHERE account_id = ? AND ended_at IS NULL")
      .bind(Date.now() + 200, accountId)
      .run();
    await new Promise((r) => setTimeout(r, 300));
    await Promise.all([cron(), api.put(`/bookings/${setup.bookings[2]}/cancel`, {}), api.put(`/bookings/${setup.bookings[3]}/cancel`, {}), cron()]);
    expect(await statesOf(setup.line)).toEqual(["expired", "expired", "offered", "offered", "offered", "offered"]);
    expect(await orphanHolds(accountId)).toEqual([]);
    expect(await freeAtTen(setup.cut.id)).toBe(0);
  });
});

describe("an offer's hold released by the key", () => {
  it("ends the offer at the next pass and passes the seat on", async () => {
    const setup = await fullLine(1, 2);
    await must(api.put(`/bookings/${setup.bookings[0]}/cancel`, {}));
    const { hold_id } = (await env.DB.prepare("SELECT hold_id FROM waitlist_entries WHERE id = ?").bind(setup.line[0].id).first<{ hold_id: number }>())!;
    await must(api.delete(`/slots/holds/${hold_id}`));
    expect(await orphanHolds(accountId)).toEqual([`entry ${setup.line[0].id}`]);
    await cron();
    expect(await statesOf(setup.line)).toEqual(["expired", "offered"]);
    expect(await orphanHolds(accountId)).toEqual([]);
  });
});

describe("a hold ends at the instant it answers", () => {
  it("an offer's offer_expires_at and its hold's expires_at are whole seconds, and the stored instant is the one answered", async () => {
    const setup = await fullLine(1, 1);
    await must(api.put(`/bookings/${setup.bookings[0]}/cancel`, {}));
    const entry = (await must(api.get(`/waitlist/${setup.line[0].id}`))).waitlist_entry;
    const stored = (await env.DB.prepare(
      "SELECT h.expires_at AS hold, e.offer_expires_at AS entry FROM waitlist_entries e JOIN slot_holds h ON h.id = e.hold_id WHERE e.id = ?",
    )
      .bind(setup.line[0].id)
      .first<{ hold: number; entry: number }>())!;
    expect(stored.hold % 1000).toBe(0);
    expect(stored.entry).toBe(stored.hold);
    expect(Date.parse(entry.offer_expires_at)).toBe(stored.hold);
  });
});
