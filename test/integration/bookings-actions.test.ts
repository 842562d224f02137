// The booking actions: verify, verify_code, confirm, decline, cancel, status and DELETE.
import { beforeAll, describe, expect, it } from "vitest";
import { newAccount, type Client } from "../support/api";
import { env, must, rawBooking } from "../support/bookings";

let api: Client;
let other: Client;
let manual: Client;
let sms: Client;
let hour = 0;

beforeAll(async () => {
  api = (await newAccount()).api;
  other = (await newAccount()).api;
  manual = (await newAccount({ confirm_manually: true })).api;
  sms = (await newAccount({ verification_method: 1, confirm_manually: true })).api;
});

/** A booking in a fresh hour on a fresh resource of the client's account. */
async function bookingOf(client: Client, extra: Record<string, unknown> = {}, person: Record<string, unknown> = {}) {
  hour += 1;
  const resource = (await must(client.post("/resources", { resource: { title: "R" } }))).resource;
  const from = `2030-02-${String(1 + (hour % 27)).padStart(2, "0")} 10:00`;
  const to = from.replace("10:00", "11:00");
  return (await must(client.post("/bookings", { booking: { resource_id: resource.id, booked_from: from, booked_to: to, ...person }, ...extra }))).booking;
}
const unverified = () => bookingOf(sms, { confirm: false }, { person_attributes: { name: "Ola", phone_number: `+47912345${String(10 + hour).slice(-2)}` } });
const unconfirmed = () => bookingOf(manual, { confirm: false });
const stateOf = async (client: Client, id: number) => (await client.get(`/bookings/${id}`)).body.booking.state;

describe("PUT /api/v1/bookings/{id}/verify", () => {
  it("moves an unverified booking on: awaiting_confirmation when the account confirms manually, and clears the code", async () => {
    const booking = await unverified();
    const res = await sms.put(`/bookings/${booking.id}/verify`);
    expect(res.status).toBe(200);
    expect(res.body.booking).toMatchObject({ state: "awaiting_confirmation", active: true, verification_code: null, expires_at: null });
  });

  it("answers 400 on state for a booking that is not awaiting verification, and for an expired one", async () => {
    const confirmed = await bookingOf(api);
    const res = await api.put(`/bookings/${confirmed.id}/verify`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ state: ["is confirmed: the booking can't be verified"] });
    const expired = await unverified();
    await env.DB.prepare("UPDATE bookings SET expires_at = ? WHERE id = ?")
      .bind(Date.now() - 1000, expired.id)
      .run();
    expect((await sms.put(`/bookings/${expired.id}/verify`)).body).toEqual({ state: ["is verification_expired: the booking can't be verified"] });
  });

  it("answers 404 for another tenant's booking and leaves it unverified", async () => {
    const booking = await unverified();
    expect((await other.put(`/bookings/${booking.id}/verify`)).status).toBe(404);
    expect(await stateOf(sms, booking.id)).toBe("awaiting_verification");
  });
});

describe("PUT /api/v1/bookings/{id}/verify_code", () => {
  it("verifies with the matching code", async () => {
    const booking = await unverified();
    const res = await sms.put(`/bookings/${booking.id}/verify_code`, { verification_code: booking.verification_code });
    expect(res.status).toBe(200);
    expect(res.body.booking.state).toBe("awaiting_confirmation");
  });

  it("answers 400 on verification_code for a wrong or missing code and stays unverified", async () => {
    const booking = await unverified();
    const wrong = booking.verification_code === "00000" ? "11111" : "00000";
    const res = await sms.put(`/bookings/${booking.id}/verify_code`, { verification_code: wrong });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ verification_code: ["is invalid"] });
    expect((await sms.put(`/bookings/${booking.id}/verify_code`, {})).body).toEqual({ verification_code: ["can't be blank"] });
    expect(await stateOf(sms, booking.id)).toBe("awaiting_verification");
  });

  it("answers 400 on state once verified, and 404 for another tenant", async () => {
    const booking = await unverified();
    await must(sms.put(`/bookings/${booking.id}/verify`));
    expect((await sms.put(`/bookings/${booking.id}/verify_code`, { verification_code: booking.verification_code })).body).toEqual({
      state: ["is awaiting_confirmation: the booking can't be verified"],
    });
    expect((await other.put(`/bookings/${booking.id}/verify_code`, { verification_code: booking.verification_code })).status).toBe(404);
  });
});

describe("PUT /api/v1/bookings/{id}/confirm", () => {
  it("confirms an awaiting_confirmation booking and records the message parameters", async () => {
    const booking = await unconfirmed();
    const res = await manual.put(`/bookings/${booking.id}/confirm`, { confirmation_send_email: false });
    expect(res.status).toBe(200);
    expect(res.body.booking).toMatchObject({ state: "confirmed", active: true });
    expect(JSON.parse((await rawBooking(booking.id))!.message_flags)).toEqual({ confirmation_send_email: false });
  });

  it("answers 400 on state for a confirmed or cancelled booking, and 404 for another tenant", async () => {
    const booking = await unconfirmed();
    await must(manual.put(`/bookings/${booking.id}/cancel`));
    expect((await manual.put(`/bookings/${booking.id}/confirm`)).body).toEqual({ state: ["is cancelled: the booking can't be confirmed"] });
    const confirmed = await bookingOf(api);
    expect((await api.put(`/bookings/${confirmed.id}/confirm`)).status).toBe(400);
    const pending = await unconfirmed();
    expect((await other.put(`/bookings/${pending.id}/confirm`)).status).toBe(404);
    expect(await stateOf(manual, pending.id)).toBe("awaiting_confirmation");
  });
});

describe("PUT /api/v1/bookings/{id}/decline", () => {
  it("declines an awaiting_confirmation booking, which then holds no capacity", async () => {
    const booking = await unconfirmed();
    const res = await manual.put(`/bookings/${booking.id}/decline`);
    expect(res.body.booking).toMatchObject({ state: "declined", active: false });
    const again = await manual.post("/bookings", { booking: { resource_id: booking.resource_id, booked_from: booking.booked_from, booked_to: booking.booked_to } });
    expect(again.status).toBe(200);
  });

  it("answers 400 on state for a confirmed booking, and 404 for another tenant", async () => {
    const confirmed = await bookingOf(api);
    expect((await api.put(`/bookings/${confirmed.id}/decline`)).body).toEqual({ state: ["is confirmed: the booking can't be declined"] });
    const pending = await unconfirmed();
    expect((await other.put(`/bookings/${pending.id}/decline`)).status).toBe(404);
  });
});

describe("PUT /api/v1/bookings/{id}/cancel", () => {
  it("cancels an active booking and frees its slot", async () => {
    const booking = await bookingOf(api);
    const res = await api.put(`/bookings/${booking.id}/cancel`, { cancellation_send_sms: true });
    expect(res.body.booking).toMatchObject({ state: "cancelled", active: false });
    const again = await api.post("/bookings", { booking: { resource_id: booking.resource_id, booked_from: booking.booked_from, booked_to: booking.booked_to } });
    expect(again.status).toBe(200);
  });

  it("answers 400 on state for a cancelled booking, and 404 for another tenant", async () => {
    const booking = await bookingOf(api);
    await must(api.put(`/bookings/${booking.id}/cancel`));
    expect((await api.put(`/bookings/${booking.id}/cancel`)).body).toEqual({ state: ["is cancelled: the booking can't be cancelled"] });
    const mine = await bookingOf(api);
    expect((await other.put(`/bookings/${mine.id}/cancel`)).status).toBe(404);
    expect(await stateOf(api, mine.id)).toBe("confirmed");
  });
});

describe("PUT /api/v1/bookings/{id}/status", () => {
  it("sets the status from {status} or {booking: {status}}, in any state, and clears it with null", async () => {
    const booking = await bookingOf(api);
    expect((await api.put(`/bookings/${booking.id}/status`, { status: "arrived" })).body.booking.status).toBe("arrived");
    await must(api.put(`/bookings/${booking.id}/cancel`));
    expect((await api.put(`/bookings/${booking.id}/status`, { booking: { status: "no_show" } })).body.booking).toMatchObject({ status: "no_show", state: "cancelled" });
    expect((await api.form("PUT", `/bookings/${booking.id}/status`, "status=paid")).body.booking.status).toBe("paid");
    expect((await api.put(`/bookings/${booking.id}/status`, { status: null })).body.booking.status).toBe(null);
  });

  it("answers 400 on status when none is sent, and 404 for another tenant", async () => {
    const booking = await bookingOf(api);
    expect((await api.put(`/bookings/${booking.id}/status`, {})).body).toEqual({ status: ["can't be blank"] });
    expect((await other.put(`/bookings/${booking.id}/status`, { status: "x" })).status).toBe(404);
    expect((await api.get(`/bookings/${booking.id}`)).body.booking.status).toBe(null);
  });
});

describe("DELETE /api/v1/bookings/{id}", () => {
  it("sets state deleted and active false, answers the booking, and repeating it changes nothing", async () => {
    const booking = await bookingOf(api);
    const res = await api.delete(`/bookings/${booking.id}`);
    expect(res.status).toBe(200);
    expect(res.body.booking).toMatchObject({ id: booking.id, state: "deleted", active: false });
    const again = await api.delete(`/bookings/${booking.id}`);
    expect(again.body.booking.updated_at).toBe(res.body.booking.updated_at);
  });

  it("answers 404 for an unknown id and another tenant's booking", async () => {
    const booking = await bookingOf(api);
    expect((await api.delete("/bookings/999999")).status).toBe(404);
    expect((await other.delete(`/bookings/${booking.id}`)).status).toBe(404);
    expect(await stateOf(api, booking.id)).toBe("confirmed");
  });
});
