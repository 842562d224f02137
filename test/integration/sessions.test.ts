// D1 Sessions API (docs/decisions/latency.md): every answer carries the bookmark of what it read
// or wrote, and a request that sends it back reads at least that state (its own writes).
import { beforeAll, describe, expect, it } from "vitest";
import { newAccount, publicSite, type Client } from "../support/api";
import { catalogue } from "../support/bookings";

let api: Client;
let site: ReturnType<typeof publicSite>;
let room: any;
let service: any;

beforeAll(async () => {
  const mine = await newAccount({ time_zone: "Europe/Oslo", locale: "en" });
  api = mine.api;
  site = publicSite(mine.account.subdomain);
  const make = catalogue(api);
  room = await make.resource({ title: "Room" });
  service = await make.service({ title: "Cut", interval: 60 });
  await make.provider(room.id, service.id);
});

const bookmarkOf = (headers: Headers) => headers.get("x-d1-bookmark");

describe("x-d1-bookmark", () => {
  it("answers a bookmark on reads and writes, and accepts it back", async () => {
    const read = await api.get("/services");
    expect(read.status).toBe(200);
    const first = bookmarkOf(read.headers);
    expect(first).toEqual(expect.any(String));
    const again = await api.get("/services", { "x-d1-bookmark": first! });
    expect(again.status).toBe(200);
    expect(bookmarkOf(again.headers)).toEqual(expect.any(String));
  });

  it("reads a booking written through the capacity guard back with the write's bookmark", async () => {
    const before = bookmarkOf((await api.get("/services")).headers)!;
    const created = await api.post("/bookings", {
      booking: { resource_id: room.id, service_id: service.id, booked_from: "2030-01-07 10:00", booked_to: "2030-01-07 11:00" },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const bookmark = bookmarkOf(created.headers);
    expect(bookmark).toEqual(expect.any(String));
    // Bookmarks are fixed-width hex, ordered as strings: the write (made in the guard's own
    // session) moved it on, and the request's answer carries the guard's bookmark.
    expect(bookmark! > before).toBe(true);
    const read = await api.get(`/bookings/${created.body.booking.id}`, { "x-d1-bookmark": bookmark! });
    expect(read.status).toBe(200);
    expect(bookmarkOf(read.headers)! >= bookmark!).toBe(true);
    expect(read.body.booking.id).toBe(created.body.booking.id);
    const slot = await site.get(`/services/${service.id}/slots?from=2030-01-07&to=2030-01-07`);
    expect(slot.body.find((e: any) => e.slot.timestamp === "2030-01-07T10:00:00+01:00").slot.free).toBe(0);
  });

  it("ignores a bookmark that is not one instead of failing the read", async () => {
    const res = await api.get("/services", { "x-d1-bookmark": "'; drop table bookings; --" });
    expect(res.status).toBe(200);
  });

  it("lets widgets on other origins send and read it", async () => {
    const preflight = await fetchPreflight();
    expect(preflight.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("x-d1-bookmark");
    const res = await site.get("/services");
    expect(res.headers.get("access-control-expose-headers")?.toLowerCase()).toContain("x-d1-bookmark");
  });
});

async function fetchPreflight() {
  const { exports } = await import("cloudflare:workers");
  return exports.default.fetch(
    new Request("http://any.localhost/services", {
      method: "OPTIONS",
      headers: { origin: "https://shop.example", "access-control-request-method": "GET", "access-control-request-headers": "x-d1-bookmark", "user-agent": "t" },
    }),
  );
}
