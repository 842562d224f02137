// Conditional GETs on the booking site's read answers a widget polls: services, one service, slots.
import { beforeAll, describe, expect, it } from "vitest";
import { newAccount, send, type Client } from "../support/api";
import { catalogue, must } from "../support/bookings";

let api: Client;
let origin: string;
let serviceId: number;

beforeAll(async () => {
  const mine = await newAccount({ future_bookable_period: "2 years" });
  api = mine.api;
  origin = `http://${mine.account.subdomain}.localhost`;
  const make = catalogue(api);
  const [resource, service] = await Promise.all([make.resource(), make.service({ interval: 30 })]);
  await make.provider(resource.id, service.id);
  serviceId = service.id;
});

const get = (path: string, headers: Record<string, string> = {}) => send("GET", `${origin}${path}`, { headers });

describe("ETag and If-None-Match on the booking site", () => {
  const paths = () => ["/services", `/services/${serviceId}`, `/services/${serviceId}/slots?from=2030-01-07&to=2030-01-07`];

  it("answers 304 with no body when the widget's copy is current, keeping the ETag and request id", async () => {
    for (const path of paths()) {
      const first = await get(path);
      expect(first.status).toBe(200);
      const tag = first.headers.get("etag");
      expect(tag).toMatch(/^"[0-9a-f]+"$/);
      const again = await get(path, { "if-none-match": tag! });
      expect({ path, status: again.status, body: again.body }).toEqual({ path, status: 304, body: null });
      expect(again.headers.get("etag")).toBe(tag);
      expect(again.headers.get("x-request-id")).toBeTruthy();
      expect(again.headers.get("ratelimit-limit")).toBeTruthy();
    }
  });

  it("answers 200 with the new body and a new ETag once the answer has changed", async () => {
    const before = await get(`/services/${serviceId}`);
    await must(api.put(`/services/${serviceId}`, { service: { title: "Renamed for widgets" } }));
    const after = await get(`/services/${serviceId}`, { "if-none-match": before.headers.get("etag")! });
    expect(after.status).toBe(200);
    expect(after.body.service.title).toBe("Renamed for widgets");
    expect(after.headers.get("etag")).not.toBe(before.headers.get("etag"));
  });

  it("lets widgets on other origins read the ETag", async () => {
    const res = await get("/services", { origin: "https://shop.example" });
    expect(res.headers.get("access-control-expose-headers")).toContain("ETag");
  });
});
