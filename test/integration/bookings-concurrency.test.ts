// Races on capacity and state: the guard and compare-and-swap writes must let exactly one win.
import { beforeAll, describe, expect, it } from "vitest";
import { newAccount, type Client } from "../support/api";
import { catalogue, env, must } from "../support/bookings";

let api: Client;
let manual: Client;
let make: ReturnType<typeof catalogue>;

beforeAll(async () => {
  api = (await newAccount()).api;
  manual = (await newAccount({ confirm_manually: true, verification_method: 2 })).api;
  make = catalogue(api);
});

const slot = (resourceId: number, from = "2030-01-07 10:00", to = "2030-01-07 11:00") => ({ resource_id: resourceId, booked_from: from, booked_to: to });
/** The 10:00 slot of 2030-01-07 as a widget sees it, for a service the resource alone provides. */
async function slotAtTen(resourceId: number) {
  const service = await make.service({ title: `Only ${resourceId}` });
  await make.provider(resourceId, service.id);
  const slots = (await api.get(`/services/${service.id}/slots?from=2030-01-07&to=2030-01-07`)).body;
  return slots.find((e: any) => e.slot.timestamp === "2030-01-07T10:00:00+01:00")?.slot;
}

const statuses = (results: { status: number }[]) => results.map((r) => r.status).sort();

describe("POST /api/v1/bookings under concurrency", () => {
  it("lets exactly one of 50 parallel bookings into a capacity-1 slot", async () => {
    const resource = await make.resource();
    const results = await Promise.all(Array.from({ length: 50 }, () => api.post("/bookings", { booking: slot(resource.id) })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 400)).toHaveLength(49);
    expect(results.find((r) => r.status === 400)!.body).toEqual({ booked_from: ["is not available: the resource is fully booked at this time"] });
    expect((await api.get(`/bookings?resource_id=${resource.id}`)).body).toHaveLength(1);
    expect(await slotAtTen(resource.id)).toMatchObject({ free: 0, available_resources: [], maximum_capacity: 1 });
  });

  it("lets exactly three of 50 parallel bookings into a capacity-3 slot", async () => {
    const resource = await make.resource({ capacity: 3 });
    const results = await Promise.all(Array.from({ length: 50 }, () => api.post("/bookings", { booking: slot(resource.id) })));
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    expect(results.filter((r) => r.status === 400)).toHaveLength(47);
    expect(await slotAtTen(resource.id)).toMatchObject({ free: 0, available_resources: [], maximum_capacity: 3 });
  });

  it("never lets a reschedule and a create both take the last place", async () => {
    for (let round = 0; round < 5; round += 1) {
      const resource = await make.resource();
      const moving = await make.booking(slot(resource.id, "2030-01-07 08:00", "2030-01-07 09:00"));
      const [moved, created] = await Promise.all([
        api.put(`/bookings/${moving.id}`, { booking: { booked_from: "2030-01-07 12:00", booked_to: "2030-01-07 13:00" } }),
        api.post("/bookings", { booking: slot(resource.id, "2030-01-07 12:30", "2030-01-07 13:30") }),
      ]);
      expect(statuses([moved, created])).toEqual([200, 400]);
    }
  });

  it("lets exactly one of 20 bookings moved at once into a capacity-1 slot, and three into a capacity-3 one", async () => {
    for (const capacity of [1, 3]) {
      const resource = await make.resource({ capacity });
      const moving = await Promise.all(
        Array.from({ length: 20 }, (_, i) =>
          make.booking(
            slot(
              resource.id,
              `2030-01-${String(10 + Math.floor(i / capacity)).padStart(2, "0")} 08:00`,
              `2030-01-${String(10 + Math.floor(i / capacity)).padStart(2, "0")} 09:00`,
            ),
          ),
        ),
      );
      const results = await Promise.all(moving.map((b) => api.put(`/bookings/${b.id}`, { booking: { booked_from: "2030-01-07 12:00", booked_to: "2030-01-07 13:00" } })));
      expect(results.filter((r) => r.status === 200)).toHaveLength(capacity);
      expect(results.find((r) => r.status === 400)!.body).toEqual({ booked_from: ["is not available: the resource is fully booked at this time"] });
      const atNoon = await env.DB.prepare("SELECT COUNT(*) AS n FROM bookings WHERE resource_id = ? AND booked_from = ?")
        .bind(resource.id, Date.parse("2030-01-07T11:00:00Z"))
        .first<{ n: number }>("n");
      expect(atNoon).toBe(capacity);
    }
  });

  it("lets exactly one of 10 bookings on other resources moved at once onto a capacity-1 resource's slot", async () => {
    const target = await make.resource();
    const moving = await Promise.all(Array.from({ length: 10 }, async () => make.booking(slot((await make.resource()).id))));
    const results = await Promise.all(moving.map((b) => api.put(`/bookings/${b.id}`, { booking: { resource_id: target.id } })));
    expect(statuses(results)).toEqual([200, ...Array(9).fill(400)]);
    expect((await api.get(`/bookings?resource_id=${target.id}`)).body).toHaveLength(1);
    expect(await slotAtTen(target.id)).toMatchObject({ free: 0, available_resources: [], maximum_capacity: 1 });
  });

  it("frees the slot of an unverified booking the moment it expires, before any sweep", async () => {
    const resource = (await must(manual.post("/resources", { resource: { title: "R" } }))).resource;
    const pending = (await must(manual.post("/bookings", { booking: { ...slot(resource.id), person_attributes: { email: "a@example.com" } }, confirm: false }))).booking;
    expect(pending.state).toBe("awaiting_verification");
    expect((await manual.post("/bookings", { booking: slot(resource.id) })).status).toBe(400);
    await env.DB.prepare("UPDATE bookings SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1000, pending.id)
      .run();
    expect((await manual.post("/bookings", { booking: slot(resource.id) })).status).toBe(200);
    expect((await manual.get(`/bookings/${pending.id}`)).body.booking).toMatchObject({ state: "verification_expired", active: false });
    const active = (await manual.get(`/bookings?state=awaiting_verification`)).body.map((e: any) => e.booking.id);
    expect(active).not.toContain(pending.id);
  });
});

describe("booking actions under concurrency", () => {
  it("lets one of two concurrent confirms win; the loser gets 400 on state", async () => {
    const resource = (await must(manual.post("/resources", { resource: { title: "R" } }))).resource;
    const booking = (await must(manual.post("/bookings", { booking: { ...slot(resource.id), person_attributes: { email: "b@example.com" } }, confirm: false }))).booking;
    await must(manual.put(`/bookings/${booking.id}/verify`));
    const results = await Promise.all([manual.put(`/bookings/${booking.id}/confirm`), manual.put(`/bookings/${booking.id}/confirm`)]);
    expect(statuses(results)).toEqual([200, 400]);
    expect(results.find((r) => r.status === 400)!.body).toEqual({ state: ["is confirmed: the booking can't be confirmed"] });
  });

  it("lets exactly one of a racing confirm and cancel win, and the final state is the winner's", async () => {
    for (let round = 0; round < 5; round += 1) {
      const resource = (await must(manual.post("/resources", { resource: { title: "R" } }))).resource;
      const booking = (await must(manual.post("/bookings", { booking: { ...slot(resource.id), person_attributes: { email: `c${round}@example.com` } }, confirm: false })))
        .booking;
      await must(manual.put(`/bookings/${booking.id}/verify`));
      const [confirm, cancel] = await Promise.all([manual.put(`/bookings/${booking.id}/confirm`), manual.put(`/bookings/${booking.id}/cancel`)]);
      const final = (await manual.get(`/bookings/${booking.id}`)).body.booking.state;
      if (confirm.status === 200 && cancel.status === 200) {
        // Cancel may follow a confirm that finished first: confirmed bookings can be cancelled.
        expect(final).toBe("cancelled");
      } else {
        expect(statuses([confirm, cancel])).toEqual([200, 400]);
        expect(final).toBe(confirm.status === 200 ? "confirmed" : "cancelled");
      }
    }
  });
});
