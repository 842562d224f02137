import { beforeAll, describe, expect, it } from "vitest";
import { newAccount, type Client } from "../support/api";

let api: Client;
let other: Client;

beforeAll(async () => {
  api = (await newAccount()).api;
  other = (await newAccount()).api;
});

const createResource = async (attributes: Record<string, unknown> = {}) => {
  const res = await api.post("/resources", { resource: { title: "Room 1", ...attributes } });
  expect(res.status).toBe(200);
  return res.body.resource;
};

const closedLegacy = Object.fromEntries(
  [0, 1, 2, 3, 4, 5, 6].flatMap((n) => [
    [`open_${n}`, null],
    [`close_${n}`, null],
  ]),
);
const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0[12]:00$/;

describe("POST /api/v1/resources", () => {
  it("creates a resource with capacity 1, closed days and legacy pairs derived from the hours", async () => {
    const resource = await createResource({
      description: "Corner room",
      opening_hours_mon: ["09:00", "12:00", "13:00", "17:00"],
      custom_data: { wheelchair: "true", renovated_at: "2029-06-01 08:00" },
    });
    expect(resource).toEqual({
      id: expect.any(Number),
      title: "Room 1",
      description: "Corner room",
      active: true,
      capacity: 1,
      opening_hours_mon: ["09:00", "12:00", "13:00", "17:00"],
      opening_hours_tue: null,
      opening_hours_wed: null,
      opening_hours_thu: null,
      opening_hours_fri: null,
      opening_hours_sat: null,
      opening_hours_sun: null,
      ...closedLegacy,
      open_0: "09:00",
      close_0: "17:00",
      custom_data: { wheelchair: true, renovated_at: "2029-06-01T08:00:00+02:00" },
      created_at: expect.stringMatching(ISO_WITH_OFFSET),
      updated_at: expect.stringMatching(ISO_WITH_OFFSET),
    });
  });

  it("takes form data with bracket names, opening hours as repeated [] values", async () => {
    const res = await api.form(
      "POST",
      "/resources",
      "resource[title]=Studio&resource[capacity]=4&resource[opening_hours_mon][]=09:00&resource[opening_hours_mon][]=17:00&resource[opening_hours_tue]=",
    );
    expect(res.status).toBe(200);
    expect(res.body.resource).toMatchObject({
      title: "Studio",
      capacity: 4,
      opening_hours_mon: ["09:00", "17:00"],
      opening_hours_tue: null,
      open_0: "09:00",
      close_0: "17:00",
    });
  });

  it("sets a weekday from the deprecated open_N/close_N pair (Monday = 0, Sunday = 6)", async () => {
    const resource = await createResource({ open_0: "08:00", close_0: "16:00", open_6: "10:00", close_6: "14:00" });
    expect(resource).toMatchObject({
      opening_hours_mon: ["08:00", "16:00"],
      opening_hours_sun: ["10:00", "14:00"],
      open_6: "10:00",
      close_6: "14:00",
    });
    expect(resource).not.toHaveProperty("open_7");
  });

  it("prefers opening_hours_<day> over a pair for the same day", async () => {
    const resource = await createResource({ opening_hours_mon: ["09:00", "11:00"], open_0: "08:00", close_0: "16:00" });
    expect(resource.opening_hours_mon).toEqual(["09:00", "11:00"]);
  });

  it("answers 400 on the missing half of a legacy pair and on a close before its open", async () => {
    const res = await api.post("/resources", { resource: { title: "Room", open_0: "08:00", close_1: "10:00", open_2: "12:00", close_2: "11:00" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      close_0: ["can't be blank: send open_0 and close_0 together"],
      open_1: ["can't be blank: send open_1 and close_1 together"],
      close_2: ["must be after open_2"],
    });
  });

  it("answers 400 keyed by attribute for each invalid field, legacy pairs included", async () => {
    const res = await api.post("/resources", {
      resource: {
        capacity: 0,
        opening_hours_mon: ["09:00"],
        opening_hours_tue: ["17:00", "09:00"],
        opening_hours_wed: ["9am", "5pm"],
        open_3: "25:00",
        close_3: "10:00",
        open_4: "09:00",
        custom_data: ["not", "an", "object"],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      title: ["can't be blank"],
      capacity: ["must be greater than or equal to 1"],
      opening_hours_mon: ["must be pairs of opening and closing times"],
      opening_hours_tue: ["must close after it opens"],
      opening_hours_wed: ["must be times written hh:mm"],
      open_3: ["must be a time written hh:mm"],
      close_4: ["can't be blank: send open_4 and close_4 together"],
      custom_data: [expect.any(String)],
    });
  });

  it("answers 400 on the wrapper when attributes are not wrapped", async () => {
    const res = await api.post("/resources", { title: "Bare" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ resource: ['is required: wrap the attributes as {"resource": {...}}'] });
  });

  it("ignores read-only and unknown attributes", async () => {
    const resource = await createResource({ id: 999999, active: false, account_id: 1, color: "red" });
    expect(resource.id).not.toBe(999999);
    expect(resource.active).toBe(true);
    expect(resource).not.toHaveProperty("color");
  });
});

describe("GET /api/v1/resources", () => {
  it("lists the account's active resources only, wrapped as resource, in id order", async () => {
    const first = await createResource({ title: "Listed A" });
    const second = await createResource({ title: "Listed B" });
    const deleted = await createResource({ title: "Deleted" });
    await api.delete(`/resources/${deleted.id}`);
    const foreign = (await other.post("/resources", { resource: { title: "Foreign" } })).body.resource;

    const res = await api.get("/resources");
    expect(res.status).toBe(200);
    const ids = res.body.map((e: any) => e.resource.id);
    expect(ids.indexOf(first.id)).toBeLessThan(ids.indexOf(second.id));
    expect(ids).not.toContain(deleted.id);
    expect(ids).not.toContain(foreign.id);
    expect(res.body.find((e: any) => e.resource.id === first.id)).toEqual({ resource: first });
  });
});

describe("GET /api/v1/resources/{id}", () => {
  it("returns the resource, and a deleted one with active=false", async () => {
    const resource = await createResource();
    expect((await api.get(`/resources/${resource.id}`)).body).toEqual({ resource });
    await api.delete(`/resources/${resource.id}`);
    const res = await api.get(`/resources/${resource.id}`);
    expect(res.status).toBe(200);
    expect(res.body.resource.active).toBe(false);
  });

  it("answers 404 for an unknown id, a non-numeric id and another tenant's id", async () => {
    const resource = await createResource();
    expect((await api.get("/resources/999999")).body).toEqual({ error: "The resource was not found." });
    expect((await api.get("/resources/abc")).status).toBe(404);
    const foreign = await other.get(`/resources/${resource.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: expect.any(String) });
  });
});

describe("PUT /api/v1/resources/{id}", () => {
  it("updates only the attributes sent; null closes a day; custom_data is replaced whole", async () => {
    const resource = await createResource({
      description: "Keep me",
      opening_hours_mon: ["09:00", "17:00"],
      opening_hours_tue: ["09:00", "17:00"],
      custom_data: { a: "1" },
    });
    const res = await api.put(`/resources/${resource.id}`, {
      resource: { capacity: 3, opening_hours_tue: null, custom_data: { b: "2" } },
    });
    expect(res.status).toBe(200);
    expect(res.body.resource).toMatchObject({
      title: "Room 1",
      description: "Keep me",
      capacity: 3,
      opening_hours_mon: ["09:00", "17:00"],
      opening_hours_tue: null,
      open_1: null,
      close_1: null,
      custom_data: { b: "2" },
    });
  });

  it("replaces a day's hours from a legacy pair, and closes it when both are sent empty", async () => {
    const resource = await createResource({ opening_hours_mon: ["09:00", "12:00", "13:00", "17:00"], opening_hours_tue: ["09:00", "17:00"] });
    const res = await api.form("PUT", `/resources/${resource.id}`, "resource[open_0]=07:30&resource[close_0]=15:00&resource[open_1]=&resource[close_1]=");
    expect(res.status).toBe(200);
    expect(res.body.resource).toMatchObject({ opening_hours_mon: ["07:30", "15:00"], opening_hours_tue: null });
  });

  it("answers 400 for invalid values and changes nothing", async () => {
    const resource = await createResource({ capacity: 2 });
    const res = await api.put(`/resources/${resource.id}`, { resource: { title: " ", capacity: "many", close_5: "18:00" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      title: ["can't be blank"],
      capacity: ["is not an integer"],
      open_5: ["can't be blank: send open_5 and close_5 together"],
    });
    expect((await api.get(`/resources/${resource.id}`)).body).toEqual({ resource });
  });

  it("answers 404 for an unknown id and for another tenant's resource, which stays unchanged", async () => {
    const resource = await createResource();
    expect((await api.put("/resources/999999", { resource: { title: "X" } })).status).toBe(404);
    const res = await other.put(`/resources/${resource.id}`, { resource: { title: "Hijacked" } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: expect.any(String) });
    expect((await api.get(`/resources/${resource.id}`)).body).toEqual({ resource });
  });
});

describe("DELETE /api/v1/resources/{id}", () => {
  it("soft-deletes and answers the resource as it now is", async () => {
    const resource = await createResource();
    const res = await api.delete(`/resources/${resource.id}`);
    expect(res.status).toBe(200);
    expect(res.body.resource).toMatchObject({ id: resource.id, title: "Room 1", active: false });
  });

  it("answers 404 for an unknown id and for another tenant's resource, which stays active", async () => {
    const resource = await createResource();
    expect((await api.delete("/resources/999999")).status).toBe(404);
    expect((await other.delete(`/resources/${resource.id}`)).status).toBe(404);
    expect((await api.get(`/resources/${resource.id}`)).body.resource.active).toBe(true);
  });
});

describe("GET /api/v1/resources/{id}/opening_hours", () => {
  const weekHours = {
    opening_hours_mon: ["09:00", "12:00", "13:00", "17:00"],
    opening_hours_tue: ["09:00", "17:00"],
    opening_hours_sun: null,
  };

  it("lists each date's hours, an exception date replacing or closing the weekday", async () => {
    const resource = await createResource(weekHours);
    await api.put(`/resources/${resource.id}/exception_dates/2030-01-08`, { resource_exception_date: { opening_hours: ["10:00", "12:00"] } });
    await api.put(`/resources/${resource.id}/exception_dates/2030-01-14`, { resource_exception_date: { opening_hours: null } });
    await api.put(`/resources/${resource.id}/exception_dates/2030-01-20`, { resource_exception_date: { opening_hours: ["11:00", "15:00"] } });

    const res = await api.get(`/resources/${resource.id}/opening_hours?from=2030-01-06&to=2030-01-09`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { resource_opening_hours: { date: "2030-01-06", opening_hours: null } },
      { resource_opening_hours: { date: "2030-01-07", opening_hours: ["09:00", "12:00", "13:00", "17:00"] } },
      { resource_opening_hours: { date: "2030-01-08", opening_hours: ["10:00", "12:00"] } },
      { resource_opening_hours: { date: "2030-01-09", opening_hours: null } },
    ]);
    const later = await api.get(`/resources/${resource.id}/opening_hours?from=2030-01-14&to=2030-01-20`);
    expect(later.body.map((e: any) => e.resource_opening_hours.opening_hours)).toEqual([null, ["09:00", "17:00"], null, null, null, null, ["11:00", "15:00"]]);
  });

  it("defaults from and to to today in the account zone, and to to from", async () => {
    const resource = await createResource(weekHours);
    const today = new Date().toLocaleDateString("sv-SE", { timeZone: "Europe/Oslo" });
    const res = await api.get(`/resources/${resource.id}/opening_hours`);
    expect(res.status).toBe(200);
    expect(res.body.map((e: any) => e.resource_opening_hours.date)).toEqual([today]);
    const one = await api.get(`/resources/${resource.id}/opening_hours?from=2030-01-07`);
    expect(one.body).toEqual([{ resource_opening_hours: { date: "2030-01-07", opening_hours: weekHours.opening_hours_mon } }]);
  });

  it("accepts a range of 366 dates", async () => {
    const resource = await createResource(weekHours);
    const res = await api.get(`/resources/${resource.id}/opening_hours?from=2028-01-01&to=2028-12-31`);
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(366);
  });

  it("answers 400 on to when it is before from or more than 366 dates away, and on bad dates", async () => {
    const resource = await createResource(weekHours);
    const backwards = await api.get(`/resources/${resource.id}/opening_hours?from=2030-01-07&to=2030-01-06`);
    expect(backwards.status).toBe(400);
    expect(backwards.body).toEqual({ to: ["must be on or after from"] });
    const tooLong = await api.get(`/resources/${resource.id}/opening_hours?from=2030-01-01&to=2031-01-02`);
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({ to: [expect.stringContaining("366")] });
    const bad = await api.get(`/resources/${resource.id}/opening_hours?from=2030-02-30&to=tomorrow`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ from: ["is not a valid date: use YYYY-MM-DD"], to: ["is not a valid date: use YYYY-MM-DD"] });
  });

  it("answers 404 for an unknown resource and another tenant's resource", async () => {
    const resource = await createResource(weekHours);
    expect((await api.get("/resources/999999/opening_hours")).status).toBe(404);
    const foreign = await other.get(`/resources/${resource.id}/opening_hours?from=2030-01-07`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: expect.any(String) });
  });
});
