// The booking site's POST /bookings and the public_booking rules on the private API.
import { beforeAll, describe, expect, it } from "vitest";
import { newAccount, publicSite, send, type Client } from "../support/api";
import { catalogue, must } from "../support/bookings";

let api: Client;
let site: ReturnType<typeof publicSite>;
let make: ReturnType<typeof catalogue>;
let resource: any;
let service: any;
let subdomain: string;

beforeAll(async () => {
  const mine = await newAccount({ first_bookable_period: "2 hours", future_bookable_period: "2 years" });
  api = mine.api;
  subdomain = mine.account.subdomain;
  site = publicSite(subdomain);
  make = catalogue(api);
  resource = await make.resource({ title: "Chair", capacity: 50, opening_hours_mon: ["09:00", "12:00", "13:00", "17:00"], opening_hours_sun: null });
  service = await make.service({ interval: 30, max_slots: 2 });
  await make.provider(resource.id, service.id);
  await must(api.put(`/resources/${resource.id}/exception_dates/${nextMonday(2)}`, { resource_exception_date: { opening_hours: null } }));
});

/** The Monday `weeks` weeks from now (Oslo), so the booking is never in the past nor beyond the horizon. */
function nextMonday(weeks: number): string {
  const d = new Date(Date.now() + weeks * 7 * 86_400_000);
  d.setUTCDate(d.getUTCDate() + ((8 - d.getUTCDay()) % 7 || 7));
  return d.toISOString().slice(0, 10);
}

const MONDAY = nextMonday(1);
const visit = (from: string, to: string, extra: Record<string, unknown> = {}) => ({
  booking: {
    service_id: service.id,
    booked_from: `${MONDAY} ${from}`,
    booked_to: `${MONDAY} ${to}`,
    person_attributes: { name: "Visitor", email: `v${Math.random()}@example.com` },
    ...extra,
  },
});

describe("public POST /bookings", () => {
  it("books inside opening hours and answers without the code, the person's data or back-office fields", async () => {
    const res = await site.post("/bookings", visit("09:30", "10:30", { notes: "internal?", status: "vip", resource_id: resource.id }));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      booking: {
        id: expect.any(Number),
        service_id: service.id,
        event_id: null,
        resource_id: resource.id,
        person_id: expect.any(Number),
        booked_from: expect.stringMatching(new RegExp(`^${MONDAY}T09:30:00\\+0[12]:00$`)),
        booked_to: expect.stringMatching(new RegExp(`^${MONDAY}T10:30:00\\+0[12]:00$`)),
        expires_at: null,
        title: null,
        state: "confirmed",
        active: true,
        count: 1,
        created_at: expect.any(String),
        updated_at: expect.any(String),
        resource: { id: resource.id, title: "Chair" },
        service: { id: service.id, title: "Haircut" },
      },
      booking_token: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    const stored = (await api.get(`/bookings/${res.body.booking.id}`)).body.booking;
    expect(stored).toMatchObject({ notes: "internal?", status: "vip", person: { name: "Visitor" } });
  });

  it("never shows the verification code, though the booking awaits verification", async () => {
    const { api: verifying, account } = await newAccount({ verification_method: 2 });
    const room = (await must(verifying.post("/resources", { resource: { title: "R", opening_hours_mon: ["09:00", "17:00"] } }))).resource;
    const res = await publicSite(account.subdomain).post("/bookings", {
      booking: { resource_id: room.id, booked_from: `${MONDAY} 10:00`, booked_to: `${MONDAY} 11:00`, person_attributes: { email: "me@example.com" } },
      confirm: true,
    });
    expect(res.status).toBe(200);
    expect(res.body.booking.state).toBe("awaiting_verification");
    expect(res.body.booking).not.toHaveProperty("verification_code");
    expect(JSON.stringify(res.body)).not.toContain((await verifying.get(`/bookings/${res.body.booking.id}`)).body.booking.verification_code);
  });

  it("answers 400 outside opening hours, on a closed exception date and across the lunch break", async () => {
    for (const [from, to] of [
      ["08:00", "09:00"],
      ["11:30", "12:30"],
      ["16:30", "17:30"],
    ]) {
      const res = await site.post("/bookings", visit(from, to));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ booked_from: ["is outside the resource's opening hours"] });
    }
    const closed = await site.post("/bookings", {
      ...visit("10:00", "11:00"),
      booking: { ...visit("10:00", "11:00").booking, booked_from: `${nextMonday(2)} 10:00`, booked_to: `${nextMonday(2)} 11:00` },
    });
    expect(closed.body).toEqual({ booked_from: ["is outside the resource's opening hours"] });
  });

  it("reads each provider's own exception hours of the date: a closed one is passed over, one opened on a closed weekday takes the booking", async () => {
    const twoChairs = await make.service({ title: "Two chairs", interval: 60 });
    const closedThatDay = await make.resource({ title: "Closed that day", opening_hours_mon: ["09:00", "17:00"] });
    const openThatDay = await make.resource({ title: "Open that day", opening_hours_mon: null });
    for (const r of [closedThatDay, openThatDay]) await make.provider(r.id, twoChairs.id);
    const day = nextMonday(3);
    await must(api.put(`/resources/${closedThatDay.id}/exception_dates/${day}`, { resource_exception_date: { opening_hours: null } }));
    await must(api.put(`/resources/${openThatDay.id}/exception_dates/${day}`, { resource_exception_date: { opening_hours: ["10:00", "12:00"] } }));
    const at = (date: string, from: string, to: string) => ({
      booking: {
        service_id: twoChairs.id,
        booked_from: `${date} ${from}`,
        booked_to: `${date} ${to}`,
        person_attributes: { name: "V", email: `c${Math.random()}@example.com` },
      },
    });
    const taken = await site.post("/bookings", at(day, "10:00", "11:00"));
    expect(taken.status, JSON.stringify(taken.body)).toBe(200);
    expect(taken.body.booking.resource_id).toBe(openThatDay.id);
    // Outside the exception's hours, though inside the closed provider's weekday hours.
    expect((await site.post("/bookings", at(day, "14:00", "15:00"))).body).toEqual({ booked_from: ["is outside the resource's opening hours"] });
    // Another Monday: weekday hours again, so only the first provider is open.
    const usual = await site.post("/bookings", at(nextMonday(4), "14:00", "15:00"));
    expect(usual.status, JSON.stringify(usual.body)).toBe(200);
    expect(usual.body.booking.resource_id).toBe(closedThatDay.id);
  });

  it("answers 400 in the past, within the minimum notice, beyond the horizon and longer than max_slots", async () => {
    const at = (from: string, to: string) => ({ ...visit("10:00", "11:00"), booking: { ...visit("10:00", "11:00").booking, booked_from: from, booked_to: to } });
    expect((await site.post("/bookings", at("2020-01-06 10:00", "2020-01-06 11:00"))).body).toEqual({ booked_from: ["can't be in the past"] });
    const soon = new Date(Date.now() + 30 * 60_000).toISOString();
    expect((await site.post("/bookings", at(soon, new Date(Date.now() + 60 * 60_000).toISOString()))).body).toEqual({
      booked_from: ["is too soon: book at least 2 hours ahead"],
    });
    const far = nextMonday(110);
    expect((await site.post("/bookings", at(`${far} 10:00`, `${far} 11:00`))).body).toEqual({ booked_from: ["is too far ahead: book at most 2 years ahead"] });
    expect((await site.post("/bookings", visit("09:00", "10:30"))).body).toEqual({ booked_to: ["is too late: a booking may last at most 60 minutes"] });
  });

  it("requires a person, and ignores person_id so a visitor cannot book as someone stored", async () => {
    const res = await site.post("/bookings", visit("10:00", "11:00", { person_attributes: undefined }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ person: ["can't be blank"], person_attributes: {} });
    const stored = await make.person({ name: "Stored" });
    const byId = await site.post("/bookings", visit("10:00", "11:00", { person_attributes: undefined, person_id: stored.id }));
    expect(byId.body).toEqual({ person: ["can't be blank"], person_attributes: {} });
  });

  it("never double-books: ignore_capacity is not honoured on the site", async () => {
    const { api: small, account } = await newAccount();
    const room = (await must(small.post("/resources", { resource: { title: "R", opening_hours_mon: ["09:00", "17:00"] } }))).resource;
    const booking = { resource_id: room.id, booked_from: `${MONDAY} 10:00`, booked_to: `${MONDAY} 11:00`, person_attributes: { name: "A" } };
    const smallSite = publicSite(account.subdomain);
    expect((await smallSite.post("/bookings", { booking })).status).toBe(200);
    const again = await smallSite.post("/bookings", { booking, ignore_capacity: true });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ booked_from: ["is not available: the resource is fully booked at this time"] });
  });

  it("books a published event, and refuses an unpublished one", async () => {
    const classes = await make.service({ title: "Class", booking_type: "attendance" });
    const published = await make.event({ resourceId: resource.id, serviceId: classes.id, capacity: 2, starts: `${MONDAY} 18:00`, ends: `${MONDAY} 19:00` });
    const hidden = await make.event({
      resourceId: resource.id,
      serviceId: classes.id,
      capacity: 2,
      starts: `${MONDAY} 18:00`,
      ends: `${MONDAY} 19:00`,
      published: false,
    });
    const ok = await site.post("/bookings", { booking: { event_id: published, person_attributes: { name: "E" } } });
    expect(ok.status).toBe(200);
    expect(ok.body.booking.event).toEqual({ id: published, title: "Yoga class" });
    expect((await site.post("/bookings", { booking: { event_id: hidden, person_attributes: { name: "E" } } })).body).toEqual({ event_id: ["is not open for booking"] });
  });

  it("exposes no booking reads on the site", async () => {
    const created = await site.post("/bookings", visit("14:00", "15:00"));
    expect(created.status).toBe(200);
    for (const path of [`/bookings/${created.body.booking.id}`, "/bookings/all"]) {
      expect((await site.get(path)).status).toBe(404);
    }
    // The list's path exists for POST only: 405 with Allow, and still no bookings in the answer.
    const list = await site.get("/bookings");
    expect(list.status).toBe(405);
    expect(list.headers.get("allow")).toBe("POST");
    expect(JSON.stringify(list.body)).not.toContain(String(created.body.booking.id));
    const cancel = await send("PUT", `http://${subdomain}.localhost/bookings/${created.body.booking.id}/cancel`);
    expect(cancel.status).toBe(404);
  });
});

describe("POST /api/v1/bookings with booking[public_booking]=true", () => {
  it("applies the public rules on the private API and ignores ignore_capacity", async () => {
    const outside = await api.post("/bookings", { ...visit("07:00", "08:00", { public_booking: true }), ignore_capacity: true });
    expect(outside.status).toBe(400);
    expect(outside.body).toEqual({ booked_from: ["is outside the resource's opening hours"] });
    // The spec's public rules are about time; a calendar hold without a person is still allowed.
    const noPerson = await api.post("/bookings", visit("10:00", "11:00", { public_booking: true, person_attributes: undefined }));
    expect(noPerson.status, JSON.stringify(noPerson.body)).toBe(200);
    expect(noPerson.body.booking.person_id).toBeNull();
    const inside = await api.post("/bookings", visit("10:00", "11:00", { public_booking: true }));
    expect(inside.status).toBe(200);
    expect(inside.body.booking).toHaveProperty("verification_code", null);
  });
});

describe("public bookings on public holidays", () => {
  // Whit Monday and Constitution Day in Norway, a Monday within the two-year horizon.
  const HOLIDAY = "2027-05-17";
  const onHoliday = (person: string) => ({
    booking: { booked_from: `${HOLIDAY} 10:00`, booked_to: `${HOLIDAY} 10:30`, person_attributes: { name: person, email: `${person}@example.com` } },
  });

  async function openMondays(closedForHolidays: boolean) {
    const mine = await newAccount({ closed_for_holidays: closedForHolidays, future_bookable_period: "2 years" });
    const make = catalogue(mine.api);
    const chair = await make.resource({ title: "Chair", opening_hours_mon: ["09:00", "17:00"] });
    const cut = await make.service({ interval: 30 });
    await make.provider(chair.id, cut.id);
    return { site: publicSite(mine.account.subdomain), serviceId: cut.id };
  }

  it("refuses a holiday when the account is closed for holidays", async () => {
    const { site, serviceId } = await openMondays(true);
    const res = await site.post("/bookings", { booking: { ...onHoliday("closed").booking, service_id: serviceId } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ booked_from: ["is outside the resource's opening hours"] });
  });

  it("books a holiday when the account stays open on holidays", async () => {
    const { site, serviceId } = await openMondays(false);
    const res = await site.post("/bookings", { booking: { ...onHoliday("open").booking, service_id: serviceId } });
    expect(res.status).toBe(200);
  });
});
