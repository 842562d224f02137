// The benchmark's floor routes live only in bench/floor-worker.ts: the production Worker never
// serves them, and the bench Worker's data floor reads exactly the rows its route's miss reads.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import benchWorker from "../../bench/floor-worker";
import { parseDateTimeInput, startOfDay } from "../../src/domain/time";
import { env, newAccount, type Client } from "../support/api";
import { catalogue, must } from "../support/bookings";
import { costOf } from "../support/server-timing";

let api: Client;

beforeAll(async () => {
  api = (await newAccount()).api;
});

/** A request to the bench Worker (the production app plus the floors), as the bench sends it. */
async function benchGet(client: Client, path: string) {
  const ctx = createExecutionContext();
  const res = await benchWorker.fetch(
    new Request(`http://api.test/api/v1/__bench${path}`, { headers: { authorization: `Bearer ${client.apiKey}`, "user-agent": "booking-tests/1.0" } }),
    env,
    ctx,
  );
  const body = new Uint8Array(await res.arrayBuffer());
  await waitOnExecutionContext(ctx);
  return { status: res.status, headers: res.headers, body, text: new TextDecoder().decode(body) };
}

const oslo = (wall: string) => parseDateTimeInput(wall, "Europe/Oslo")!;

describe("GET|POST /api/v1/__bench/floor", () => {
  it("answers 404 on the production Worker, for an authenticated GET", async () => {
    const res = await api.get("/__bench/floor?bytes=1000");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "There is nothing at this path." });
  });

  it("answers 404 on the production Worker, for an authenticated POST", async () => {
    const res = await api.post("/__bench/floor?bytes=1000", { booking: {} });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "There is nothing at this path." });
  });

  it("answers exactly the asked bytes on the bench Worker", async () => {
    const res = await benchGet(api, "/floor?bytes=1000");
    expect(res.status).toBe(200);
    expect(res.body.length).toBe(1000);
  });
});

describe("GET /api/v1/__bench/data-floor/{read}", () => {
  it("answers 404 on the production Worker", async () => {
    const res = await api.get("/__bench/data-floor/slots?service=1&from=0&to=1&date_from=2030-01-01&date_to=2030-01-01");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "There is nothing at this path." });
  });

  it("answers a slot miss's rows in one D1 round trip: the service, its providers, their exception dates and what occupies them over the span", async () => {
    const { api: shop } = await newAccount({ time_zone: "Europe/Oslo" });
    const make = catalogue(shop);
    const [a, b, other] = [await make.resource({ title: "A" }), await make.resource({ title: "B" }), await make.resource({ title: "Not a provider" })];
    const service = await make.service({ interval: 60 });
    await make.provider(a.id, service.id);
    await make.provider(b.id, service.id);
    await must(shop.put(`/resources/${a.id}/exception_dates/2030-01-09`, { resource_exception_date: { opening_hours: ["10:00", "12:00"] } }));
    await must(shop.put(`/resources/${a.id}/exception_dates/2030-02-01`, { resource_exception_date: { opening_hours: null } }));
    const book = (resourceId: number, from: string, to: string) => make.booking({ resource_id: resourceId, service_id: service.id, booked_from: from, booked_to: to });
    const inRange = [await book(a.id, "2030-01-08 09:00", "2030-01-08 10:00"), await book(b.id, "2030-01-10 11:00", "2030-01-10 12:00")];
    await book(a.id, "2030-01-20 09:00", "2030-01-20 10:00"); // after the span
    await book(other.id, "2030-01-08 09:00", "2030-01-08 10:00"); // not a provider
    const cancelled = await book(a.id, "2030-01-09 10:00", "2030-01-09 11:00");
    await must(shop.put(`/bookings/${cancelled.id}/cancel`));

    const from = startOfDay("2030-01-07", "Europe/Oslo");
    const to = startOfDay("2030-01-14", "Europe/Oslo");
    const res = await benchGet(shop, `/data-floor/slots?service=${service.id}&from=${from}&to=${to}&date_from=2030-01-07&date_to=2030-01-13`);
    expect(res.status).toBe(200);
    const [serviceRow, resourceRows, exceptionRows, occupants] = JSON.parse(res.text);
    expect(serviceRow[0]).toBe(service.id);
    expect(resourceRows.map((r: number[]) => r[0]).sort()).toEqual([a.id, b.id].sort());
    expect(exceptionRows).toEqual([[a.id, "2030-01-09", '["10:00","12:00"]']]);
    expect(occupants.sort((x: number[], y: number[]) => x[1] - y[1])).toEqual(
      inRange.map((booking) => [booking.resource_id, oslo(booking.booked_from), oslo(booking.booked_to), 1]),
    );
    expect(costOf(res.headers).roundTrips).toBe(1);
  });

  it("answers a booking page's rows: the total, the page in order with its listed columns, and the people, resources and services it names", async () => {
    const { api: shop } = await newAccount({ time_zone: "Europe/Oslo" });
    const make = catalogue(shop);
    const room = await make.resource();
    const service = await make.service({ interval: 60 });
    const kari = await make.person({ name: "Kari" });
    const ola = await make.person({ name: "Ola" });
    for (const [day, person] of [
      ["07", kari],
      ["08", ola],
      ["09", kari],
      ["10", null],
    ] as const) {
      await make.booking({
        resource_id: room.id,
        service_id: service.id,
        booked_from: `2030-01-${day} 09:00`,
        booked_to: `2030-01-${day} 10:00`,
        ...(person ? { person_id: person.id } : {}),
      });
    }
    const route = await shop.get("/bookings?start=2030-01-08");
    expect(route.status).toBe(200);

    const res = await benchGet(shop, `/data-floor/bookings?start=${oslo("2030-01-08 00:00")}&limit=750`);
    expect(res.status).toBe(200);
    expect(route.body).toHaveLength(3);
    const [total, page, personRows, resourceRows, serviceRows, eventRows] = JSON.parse(res.text);
    expect(total).toBe(Number(route.headers.get("total-count")));
    expect(page.map((row: unknown[]) => row[0])).toEqual(route.body.map((e: any) => e.booking.id));
    expect(personRows.map((row: unknown[]) => row[0]).sort()).toEqual([ola.id, kari.id].sort());
    expect(resourceRows.map((row: unknown[]) => row[0])).toEqual([room.id]);
    expect(serviceRows.map((row: unknown[]) => row[0])).toEqual([service.id]);
    expect(eventRows).toEqual([]);
    expect(costOf(res.headers).roundTrips).toBe(1);
  });

  it("answers exactly the asked bytes: the text padded with spaces, or cut short", async () => {
    const whole = await benchGet(api, `/data-floor/bookings?start=0&limit=10`);
    expect(JSON.parse(whole.text)).toEqual([0, [], [], [], [], []]);
    const padded = await benchGet(api, `/data-floor/bookings?start=0&limit=10&bytes=100`);
    expect(padded.body.length).toBe(100);
    expect(padded.text).toBe(whole.text.padEnd(100, " "));
    const cut = await benchGet(api, `/data-floor/bookings?start=0&limit=10&bytes=5`);
    expect(cut.text).toBe(whole.text.slice(0, 5));
  });
});
