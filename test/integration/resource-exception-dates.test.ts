import { beforeAll, describe, expect, it } from "vitest";
import { newAccount, type Client } from "../support/api";

let api: Client;
let other: Client;

beforeAll(async () => {
  api = (await newAccount()).api;
  other = (await newAccount()).api;
});

const ISO_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\+0[12]:00$/;

const createResource = async () => {
  const res = await api.post("/resources", { resource: { title: "Room", opening_hours_mon: ["09:00", "17:00"] } });
  expect(res.status).toBe(200);
  return res.body.resource.id as number;
};

const putDate = (id: number, date: string, opening_hours: string[] | null, client = api) =>
  client.put(`/resources/${id}/exception_dates/${date}`, { resource_exception_date: { opening_hours } });

const datesOf = async (id: number, query = "") =>
  (await api.get(`/resources/${id}/exception_dates${query}`)).body.map((e: any) => [e.resource_exception_date.exception_date, e.resource_exception_date.opening_hours]);

describe("POST or PUT /api/v1/resources/{id}/exception_dates/{date}", () => {
  it("creates an exception date and answers it wrapped as resource_exception_date", async () => {
    const id = await createResource();
    const res = await api.post(`/resources/${id}/exception_dates/2030-01-07`, { resource_exception_date: { opening_hours: ["10:00", "12:00"] } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      resource_exception_date: {
        resource_id: id,
        exception_date: "2030-01-07",
        opening_hours: ["10:00", "12:00"],
        created_at: expect.stringMatching(ISO_WITH_OFFSET),
        updated_at: expect.stringMatching(ISO_WITH_OFFSET),
      },
    });
  });

  it("updates the existing date with either method, keeping one entry per date", async () => {
    const id = await createResource();
    await api.post(`/resources/${id}/exception_dates/2030-01-07`, { resource_exception_date: { opening_hours: ["10:00", "12:00"] } });
    const res = await putDate(id, "2030-01-07", null);
    expect(res.status).toBe(200);
    expect(res.body.resource_exception_date).toMatchObject({ exception_date: "2030-01-07", opening_hours: null });
    const again = await api.post(`/resources/${id}/exception_dates/2030-01-07`, { resource_exception_date: { opening_hours: ["08:00", "09:00"] } });
    expect(again.body.resource_exception_date.opening_hours).toEqual(["08:00", "09:00"]);
    expect(await datesOf(id)).toEqual([["2030-01-07", ["08:00", "09:00"]]]);
  });

  it("takes form data; an empty opening_hours or none at all means closed", async () => {
    const id = await createResource();
    const open = await api.form(
      "POST",
      `/resources/${id}/exception_dates/2030-01-08`,
      "resource_exception_date[opening_hours][]=09:00&resource_exception_date[opening_hours][]=11:00&resource_exception_date[opening_hours][]=12:00&resource_exception_date[opening_hours][]=15:00",
    );
    expect(open.status).toBe(200);
    expect(open.body.resource_exception_date.opening_hours).toEqual(["09:00", "11:00", "12:00", "15:00"]);
    const closed = await api.form("PUT", `/resources/${id}/exception_dates/2030-01-08`, "resource_exception_date[opening_hours]=");
    expect(closed.body.resource_exception_date.opening_hours).toBeNull();
    const bare = await api.put(`/resources/${id}/exception_dates/2030-01-09`, { resource_exception_date: {} });
    expect(bare.body.resource_exception_date.opening_hours).toBeNull();
  });

  it("answers 400 on opening_hours, on the wrapper and on an impossible date, and saves nothing", async () => {
    const id = await createResource();
    const odd = await putDate(id, "2030-01-07", ["09:00"]);
    expect(odd.status).toBe(400);
    expect(odd.body).toEqual({ opening_hours: ["must be pairs of opening and closing times"] });
    const unwrapped = await api.put(`/resources/${id}/exception_dates/2030-01-07`, { opening_hours: null });
    expect(unwrapped.status).toBe(400);
    expect(unwrapped.body).toEqual({ resource_exception_date: ['is required: wrap the attributes as {"resource_exception_date": {...}}'] });
    const badDate = await putDate(id, "2030-02-30", null);
    expect(badDate.status).toBe(400);
    expect(badDate.body).toEqual({ exception_date: ["is not a valid date: use YYYY-MM-DD"] });
    expect(await datesOf(id)).toEqual([]);
  });

  it("answers 404 for an unknown resource and for another tenant's resource, saving nothing", async () => {
    const id = await createResource();
    expect((await putDate(999999, "2030-01-07", null)).status).toBe(404);
    const foreign = await putDate(id, "2030-01-07", null, other);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: expect.any(String) });
    expect((await other.post(`/resources/${id}/exception_dates/2030-01-07`, { resource_exception_date: { opening_hours: null } })).status).toBe(404);
    expect(await datesOf(id)).toEqual([]);
  });
});

describe("GET /api/v1/resources/{id}/exception_dates/{date}", () => {
  it("returns the exception date", async () => {
    const id = await createResource();
    const saved = (await putDate(id, "2030-03-01", ["10:00", "11:00"])).body;
    const res = await api.get(`/resources/${id}/exception_dates/2030-03-01`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(saved);
  });

  it("answers 404 with an error when the date has no exception, or is no date at all", async () => {
    const id = await createResource();
    const none = await api.get(`/resources/${id}/exception_dates/2030-03-02`);
    expect(none.status).toBe(404);
    expect(none.body).toEqual({ error: "No exception date exists for 2030-03-02: the resource's weekday hours apply." });
    const invalid = await api.get(`/resources/${id}/exception_dates/2030-13-01`);
    expect(invalid.status).toBe(404);
    expect(invalid.body).toEqual({ error: expect.any(String) });
  });

  it("answers 404 for an unknown resource and another tenant's resource", async () => {
    const id = await createResource();
    await putDate(id, "2030-03-03", null);
    expect((await api.get("/resources/999999/exception_dates/2030-03-03")).status).toBe(404);
    expect((await api.get("/resources/abc/exception_dates/2030-03-03")).status).toBe(404);
    const foreign = await other.get(`/resources/${id}/exception_dates/2030-03-03`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: "The resource was not found." });
  });
});

describe("DELETE /api/v1/resources/{id}/exception_dates/{date}", () => {
  it("removes the exception date and answers the removed object", async () => {
    const id = await createResource();
    const saved = (await putDate(id, "2030-04-01", ["10:00", "11:00"])).body;
    const res = await api.delete(`/resources/${id}/exception_dates/2030-04-01`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(saved);
    expect((await api.get(`/resources/${id}/exception_dates/2030-04-01`)).status).toBe(404);
  });

  it("answers 404 when there is no exception on that date, or the date is invalid", async () => {
    const id = await createResource();
    expect((await api.delete(`/resources/${id}/exception_dates/2030-04-02`)).status).toBe(404);
    expect((await api.delete(`/resources/${id}/exception_dates/someday`)).status).toBe(404);
  });

  it("answers 404 for another tenant's resource and keeps the date", async () => {
    const id = await createResource();
    await putDate(id, "2030-04-03", null);
    const foreign = await other.delete(`/resources/${id}/exception_dates/2030-04-03`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: expect.any(String) });
    expect(await datesOf(id)).toEqual([["2030-04-03", null]]);
  });
});

describe("GET /api/v1/resources/{id}/exception_dates", () => {
  it("lists the resource's exception dates in date order, filtered by from and to", async () => {
    const id = await createResource();
    const otherResource = await createResource();
    await putDate(otherResource, "2030-05-02", null);
    for (const date of ["2030-05-03", "2030-05-01", "2030-05-05"]) await putDate(id, date, date === "2030-05-05" ? null : ["09:00", "10:00"]);

    const res = await api.get(`/resources/${id}/exception_dates`);
    expect(res.status).toBe(200);
    expect(res.body[0]).toEqual({
      resource_exception_date: {
        resource_id: id,
        exception_date: "2030-05-01",
        opening_hours: ["09:00", "10:00"],
        created_at: expect.stringMatching(ISO_WITH_OFFSET),
        updated_at: expect.stringMatching(ISO_WITH_OFFSET),
      },
    });
    expect(await datesOf(id)).toEqual([
      ["2030-05-01", ["09:00", "10:00"]],
      ["2030-05-03", ["09:00", "10:00"]],
      ["2030-05-05", null],
    ]);
    expect((await datesOf(id, "?from=2030-05-02&to=2030-05-05")).map((d: any) => d[0])).toEqual(["2030-05-03", "2030-05-05"]);
    expect((await datesOf(id, "?to=2030-05-03")).map((d: any) => d[0])).toEqual(["2030-05-01", "2030-05-03"]);
  });

  it("pages by 50 with Link and count headers", async () => {
    const id = await createResource();
    const entries = Array.from({ length: 55 }, (_, i) => ({
      exception_date: `2031-${String(Math.floor(i / 28) + 1).padStart(2, "0")}-${String((i % 28) + 1).padStart(2, "0")}`,
      opening_hours: null,
    }));
    expect((await api.post(`/resources/${id}/exception_dates`, { resource_exception_dates: entries })).status).toBe(200);

    const first = await api.get(`/resources/${id}/exception_dates`);
    expect(first.body).toHaveLength(50);
    expect(first.headers.get("Total-Count")).toBe("55");
    expect(first.headers.get("Total-Pages")).toBe("2");
    expect(first.headers.get("Current-Page")).toBe("1");
    expect(first.headers.get("Link")).toContain('rel="next"');
    const second = await api.get(`/resources/${id}/exception_dates?page=2`);
    expect(second.body.map((e: any) => e.resource_exception_date.exception_date)).toEqual(entries.slice(50).map((e) => e.exception_date));
    expect(second.headers.get("Page-Items")).toBe("5");
  });

  it("answers 400 on to before from, on bad dates and on a bad page", async () => {
    const id = await createResource();
    const backwards = await api.get(`/resources/${id}/exception_dates?from=2030-05-02&to=2030-05-01`);
    expect(backwards.status).toBe(400);
    expect(backwards.body).toEqual({ to: ["must be on or after from"] });
    const bad = await api.get(`/resources/${id}/exception_dates?from=May&page=0`);
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ from: ["is not a valid date: use YYYY-MM-DD"], page: ["must be greater than or equal to 1"] });
  });

  it("answers 404 for an unknown resource and another tenant's resource", async () => {
    const id = await createResource();
    expect((await api.get("/resources/999999/exception_dates")).status).toBe(404);
    const foreign = await other.get(`/resources/${id}/exception_dates`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: expect.any(String) });
  });
});

describe("POST or PUT /api/v1/resources/{id}/exception_dates", () => {
  it("creates, updates and destroys several dates at once and answers the touched dates that remain", async () => {
    const id = await createResource();
    await putDate(id, "2030-06-01", ["09:00", "10:00"]);
    await putDate(id, "2030-06-02", ["09:00", "10:00"]);
    await putDate(id, "2030-06-03", null);

    const res = await api.post(`/resources/${id}/exception_dates`, {
      resource_exception_dates: [
        { exception_date: "2030-06-04", opening_hours: ["12:00", "13:00"] },
        { exception_date: "2030-06-01", opening_hours: null },
        { exception_date: "2030-06-02", _destroy: true },
        { exception_date: "2030-06-09", _destroy: true },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([
      { resource_exception_date: { resource_id: id, exception_date: "2030-06-01", opening_hours: null, created_at: expect.any(String), updated_at: expect.any(String) } },
      {
        resource_exception_date: {
          resource_id: id,
          exception_date: "2030-06-04",
          opening_hours: ["12:00", "13:00"],
          created_at: expect.any(String),
          updated_at: expect.any(String),
        },
      },
    ]);
    expect(await datesOf(id)).toEqual([
      ["2030-06-01", null],
      ["2030-06-03", null],
      ["2030-06-04", ["12:00", "13:00"]],
    ]);
  });

  it("behaves the same with PUT and with indexed form names", async () => {
    const id = await createResource();
    const put = await api.put(`/resources/${id}/exception_dates`, { resource_exception_dates: [{ exception_date: "2030-06-10", opening_hours: ["08:00", "09:00"] }] });
    expect(put.status).toBe(200);
    expect(put.body.map((e: any) => e.resource_exception_date.exception_date)).toEqual(["2030-06-10"]);
    const form = await api.form(
      "PUT",
      `/resources/${id}/exception_dates`,
      "resource_exception_dates[0][exception_date]=2030-06-10&resource_exception_dates[0][_destroy]=1" +
        "&resource_exception_dates[1][exception_date]=2030-06-11&resource_exception_dates[1][opening_hours][]=10:00&resource_exception_dates[1][opening_hours][]=11:00",
    );
    expect(form.status).toBe(200);
    expect(await datesOf(id)).toEqual([["2030-06-11", ["10:00", "11:00"]]]);
  });

  it("answers an empty list for an empty list of entries", async () => {
    const id = await createResource();
    const res = await api.post(`/resources/${id}/exception_dates`, { resource_exception_dates: [] });
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
  });

  it("validates every entry first and, when any is invalid, answers 400 naming each and changes nothing", async () => {
    const id = await createResource();
    await putDate(id, "2030-06-20", ["09:00", "10:00"]);
    const res = await api.post(`/resources/${id}/exception_dates`, {
      resource_exception_dates: [
        { exception_date: "2030-06-20", _destroy: true },
        { exception_date: "2030-06-31", opening_hours: null },
        { opening_hours: ["10:00", "09:00"] },
        { exception_date: "2030-06-22", _destroy: "maybe" },
        { exception_date: "2030-06-20", opening_hours: null },
      ],
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      "resource_exception_dates[1].exception_date": ["is not a valid date: use YYYY-MM-DD"],
      "resource_exception_dates[2].exception_date": ["can't be blank"],
      "resource_exception_dates[2].opening_hours": ["must close after it opens"],
      "resource_exception_dates[3]._destroy": ["must be true or false"],
      "resource_exception_dates[4].exception_date": ["is given more than once"],
    });
    expect(await datesOf(id)).toEqual([["2030-06-20", ["09:00", "10:00"]]]);
  });

  it("answers 400 when the list is missing, not a list or too long", async () => {
    const id = await createResource();
    const missing = await api.post(`/resources/${id}/exception_dates`, { resource_exception_date: { exception_date: "2030-06-01" } });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ resource_exception_dates: ['is required: send {"resource_exception_dates": [...]}'] });
    const notList = await api.post(`/resources/${id}/exception_dates`, { resource_exception_dates: { exception_date: "2030-06-01" } });
    expect(notList.status).toBe(400);
    expect(notList.body).toEqual({ resource_exception_dates: [expect.any(String)] });
    const many = Array.from({ length: 367 }, (_, i) => ({
      exception_date: new Date(Date.UTC(2032, 0, 1 + i)).toISOString().slice(0, 10),
      opening_hours: null,
    }));
    const tooLong = await api.post(`/resources/${id}/exception_dates`, { resource_exception_dates: many });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({ resource_exception_dates: ["has more than 366 entries: send them in several requests"] });
    expect(await datesOf(id)).toEqual([]);
  });

  it("answers 404 for an unknown resource and another tenant's resource, changing nothing", async () => {
    const id = await createResource();
    await putDate(id, "2030-06-25", null);
    const body = {
      resource_exception_dates: [
        { exception_date: "2030-06-25", _destroy: true },
        { exception_date: "2030-06-26", opening_hours: null },
      ],
    };
    expect((await api.post("/resources/999999/exception_dates", body)).status).toBe(404);
    const foreign = await other.put(`/resources/${id}/exception_dates`, body);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: expect.any(String) });
    expect(await datesOf(id)).toEqual([["2030-06-25", null]]);
  });
});
