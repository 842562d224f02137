// Concurrent duplicates of POST /bookings with one Idempotency-Key, on the private API and on the
// booking site: exactly one booking is stored, and every other answer is its replay or a 409.
import { beforeAll, describe, expect, it } from "vitest";
import { env, newAccount, send, type Client } from "../support/api";
import { catalogue } from "../support/bookings";
import { uniquePhone } from "../support/messages";

let api: Client;
let subdomain: string;
let ids: { resource: number; service: number };

beforeAll(async () => {
  const created = await newAccount();
  api = created.api;
  subdomain = created.account.subdomain;
  const make = catalogue(api);
  const resource = await make.resource({ capacity: 20 });
  const service = await make.service();
  await make.provider(resource.id, service.id);
  ids = { resource: resource.id, service: service.id };
});

const bookingsTitled = async (title: string) =>
  (await env.DB.prepare("SELECT id FROM bookings WHERE title = ?").bind(title).all<{ id: number }>()).results.map((r) => r.id);

function expectOneBooking(results: { status: number; body: any }[], stored: number[]) {
  expect(stored).toHaveLength(1);
  expect(
    results.map((r) => r.status).every((s) => s === 200 || s === 409),
    JSON.stringify(results.map((r) => r.status)),
  ).toBe(true);
  for (const r of results) {
    if (r.status === 200) expect(r.body.booking.id).toBe(stored[0]);
    else expect(r.body).toEqual({ error: expect.any(String) });
  }
}

describe("POST /api/v1/bookings with one Idempotency-Key", () => {
  it("creates exactly one booking from ten concurrent duplicates", async () => {
    const body = { booking: { resource_id: ids.resource, booked_from: "2030-01-07 10:00", booked_to: "2030-01-07 11:00", title: "Burst" } };
    const results = await Promise.all(Array.from({ length: 10 }, () => api.post("/bookings", body, { "idempotency-key": "burst-private" })));
    expectOneBooking(results, await bookingsTitled("Burst"));
  });

  it("creates one booking when concurrent requests share a key but differ in body, refusing the others", async () => {
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        api.post(
          "/bookings",
          { booking: { resource_id: ids.resource, booked_from: "2030-01-08 10:00", booked_to: "2030-01-08 11:00", title: `Mixed ${i}` } },
          { "idempotency-key": "burst-mixed" },
        ),
      ),
    );
    const stored = (await Promise.all(results.map((_, i) => bookingsTitled(`Mixed ${i}`)))).flat();
    expect(stored).toHaveLength(1);
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    for (const r of results.filter((r) => r.status !== 200)) {
      expect([409, 422]).toContain(r.status);
      expect(r.body).toEqual({ error: expect.any(String) });
    }
  });
});

describe("POST /bookings on the booking site with one Idempotency-Key", () => {
  it("creates exactly one booking from ten concurrent duplicates", async () => {
    const body = JSON.stringify({
      booking: {
        service_id: ids.service,
        booked_from: "2030-01-09 10:00",
        booked_to: "2030-01-09 11:00",
        title: "Site burst",
        person_attributes: { name: "Visitor", phone_number: uniquePhone() },
      },
    });
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        send("POST", `http://${subdomain}.localhost/bookings`, { headers: { "content-type": "application/json", "idempotency-key": "burst-site" }, body }),
      ),
    );
    expectOneBooking(results, await bookingsTitled("Site burst"));
  });
});
