import { beforeAll, describe, expect, it } from "vitest";
import { newAccount, publicSite, type Client } from "../support/api";

let api: Client;
let other: Client;
let subdomain: string;

beforeAll(async () => {
  const mine = await newAccount();
  api = mine.api;
  subdomain = mine.account.subdomain;
  other = (await newAccount()).api;
});

const createService = async (attributes: Record<string, unknown> = {}) => {
  const res = await api.post("/services", { service: { title: "Haircut", ...attributes } });
  expect(res.status).toBe(200);
  return res.body.service;
};

describe("POST /api/v1/services", () => {
  it("creates a service with defaults and the price as a decimal string", async () => {
    const service = await createService({ price: 450, custom_data: { vip: true, starts_at: "2030-01-07 10:00" } });
    expect(service).toMatchObject({
      title: "Haircut",
      active: true,
      interval: 60,
      max_slots: 1,
      booking_type: "appointment",
      booking_type_id: 1,
      price: "450.0",
      has_day_booking: false,
      same_day: false,
      custom_data: { vip: true, starts_at: "2030-01-07T10:00:00+01:00" },
    });
    expect(service).not.toHaveProperty("account_id");
  });

  it("takes form data with bracket names", async () => {
    const res = await api.form("POST", "/services", "service[title]=Yoga&service[booking_type]=attendance&service[interval]=30&service[price]=99.50");
    expect(res.status).toBe(200);
    expect(res.body.service).toMatchObject({ title: "Yoga", booking_type: "attendance", booking_type_id: 2, interval: 30, price: "99.50" });
  });

  it("maps the deprecated booking_type_id", async () => {
    expect((await createService({ booking_type_id: 2 })).booking_type).toBe("attendance");
  });

  it("answers 400 keyed by attribute for each invalid field", async () => {
    const res = await api.post("/services", { service: { interval: "often", price: "cheap", booking_type: "party", max_slots: 0 } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      title: ["can't be blank"],
      interval: [expect.any(String)],
      price: ["is not a number"],
      booking_type: [expect.stringContaining("appointment")],
      max_slots: ["must be greater than or equal to 1"],
    });
  });

  it("answers 400 on the wrapper when attributes are not wrapped", async () => {
    const res = await api.post("/services", { title: "Bare" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ service: [expect.stringContaining('{"service"')] });
  });

  it("ignores read-only attributes", async () => {
    const service = await createService({ id: 999999, active: false, account_id: 1, created_at: "2001-01-01 00:00" });
    expect(service.id).not.toBe(999999);
    expect(service.active).toBe(true);
    expect(service.created_at.startsWith("2001")).toBe(false);
  });
});

describe("GET /api/v1/services", () => {
  it("lists active services only, wrapped as service, and the typed subsets", async () => {
    const appointment = await createService({ title: "Massage" });
    const attendance = await createService({ title: "Class", booking_type: "attendance" });
    const deleted = await createService({ title: "Gone" });
    await api.delete(`/services/${deleted.id}`);

    const all = await api.get("/services");
    const ids = all.body.map((e: any) => e.service.id);
    expect(ids).toEqual(expect.arrayContaining([appointment.id, attendance.id]));
    expect(ids).not.toContain(deleted.id);

    const appointments = (await api.get("/services/appointments")).body.map((e: any) => e.service.id);
    expect(appointments).toContain(appointment.id);
    expect(appointments).not.toContain(attendance.id);
    const attendances = (await api.get("/services/attendances")).body.map((e: any) => e.service.id);
    expect(attendances).toEqual([...attendances].filter((id: number) => id !== appointment.id));
    expect(attendances).toContain(attendance.id);
  });

  it("accepts a .json suffix", async () => {
    const service = await createService();
    const res = await api.get(`/services/${service.id}.json`);
    expect(res.status).toBe(200);
    expect(res.body.service.id).toBe(service.id);
  });
});

describe("GET /api/v1/services/{id}", () => {
  it("returns a deleted service with active=false", async () => {
    const service = await createService();
    await api.delete(`/services/${service.id}`);
    const res = await api.get(`/services/${service.id}`);
    expect(res.status).toBe(200);
    expect(res.body.service.active).toBe(false);
  });

  it("answers 404 for an unknown id, a non-numeric id and another tenant's id", async () => {
    const service = await createService();
    expect((await api.get("/services/999999")).status).toBe(404);
    expect((await api.get("/services/abc")).status).toBe(404);
    const foreign = await other.get(`/services/${service.id}`);
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: expect.any(String) });
  });
});

describe("PUT /api/v1/services/{id}", () => {
  it("updates only the attributes sent; custom_data is replaced whole", async () => {
    const service = await createService({ description: "Short", custom_data: { a: "1", b: "2" } });
    const res = await api.put(`/services/${service.id}`, { service: { interval: 45, custom_data: { c: "3" } } });
    expect(res.status).toBe(200);
    expect(res.body.service).toMatchObject({ title: "Haircut", description: "Short", interval: 45, custom_data: { c: "3" } });
  });

  it("answers 400 for an invalid value and changes nothing", async () => {
    const service = await createService();
    const res = await api.put(`/services/${service.id}`, { service: { title: "", interval: -5 } });
    expect(res.status).toBe(400);
    expect(Object.keys(res.body).sort()).toEqual(["interval", "title"]);
    expect((await api.get(`/services/${service.id}`)).body.service).toMatchObject({ title: "Haircut", interval: 60 });
  });

  it("cannot touch another tenant's service", async () => {
    const service = await createService();
    expect((await other.put(`/services/${service.id}`, { service: { title: "Hijacked" } })).status).toBe(404);
    expect((await other.delete(`/services/${service.id}`)).status).toBe(404);
    expect((await api.get(`/services/${service.id}`)).body.service).toMatchObject({ title: "Haircut", active: true });
  });
});

describe("DELETE /api/v1/services/{id}", () => {
  it("soft-deletes and answers the service as it now is", async () => {
    const service = await createService();
    const res = await api.delete(`/services/${service.id}`);
    expect(res.status).toBe(200);
    expect(res.body.service).toMatchObject({ id: service.id, active: false });
  });
});

describe("public GET /services", () => {
  it("lists the account's active services on its booking site, without message templates", async () => {
    const service = await createService({ title: "Public", sms_confirmation: "secret template" });
    const hidden = await createService({ title: "Hidden" });
    await api.delete(`/services/${hidden.id}`);
    const site = publicSite(subdomain);
    const res = await site.get("/services");
    expect(res.status).toBe(200);
    const found = res.body.find((e: any) => e.service.id === service.id).service;
    expect(found).not.toHaveProperty("sms_confirmation");
    expect(res.body.map((e: any) => e.service.id)).not.toContain(hidden.id);
    expect((await site.get(`/services/${hidden.id}`)).status).toBe(404);
    expect((await site.get(`/services/${service.id}`)).body.service.title).toBe("Public");
  });

  it("answers 404 on a host that names no account", async () => {
    expect((await publicSite("nobody-here").get("/services")).status).toBe(404);
  });
});
