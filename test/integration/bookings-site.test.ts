// The visitor's own booking on the booking site: the token POST /bookings answers, and what it
// opens (GET, verify_code with five tries, cancel within the account's rules) on its account only.
import { beforeAll, describe, expect, it } from "vitest";
import { newAccount, publicSite, type Client } from "../support/api";
import { catalogue, rawBooking } from "../support/bookings";
import { messagesOf } from "../support/messages";

/** The Monday `weeks` weeks from now, so bookings are never in the past nor beyond the horizon. */
function nextMonday(weeks: number): string {
  const d = new Date(Date.now() + weeks * 7 * 86_400_000);
  d.setUTCDate(d.getUTCDate() + ((8 - d.getUTCDay()) % 7 || 7));
  return d.toISOString().slice(0, 10);
}
const MONDAY = nextMonday(1);

interface Site {
  api: Client;
  site: ReturnType<typeof publicSite>;
  subdomain: string;
  serviceId: number;
}

async function siteOf(attributes: Record<string, unknown>): Promise<Site> {
  const { api, account } = await newAccount({ verification_method: 2, ...attributes });
  const make = catalogue(api);
  const resource = await make.resource({ title: "Chair", capacity: 20 });
  const service = await make.service({ title: "Cut", interval: 30 });
  await make.provider(resource.id, service.id);
  return { api, site: publicSite(account.subdomain), subdomain: account.subdomain, serviceId: service.id };
}

let serial = 0;
/** The next half-hour within opening hours; the chair seats 20, so bookings never fill a slot. */
async function book(s: Site, day = MONDAY) {
  const hour = 8 + (serial++ % 18) / 2;
  const at = (h: number) => `${String(Math.floor(h)).padStart(2, "0")}:${h % 1 ? "30" : "00"}`;
  const res = await s.site.post("/bookings", {
    booking: {
      service_id: s.serviceId,
      booked_from: `${day} ${at(hour)}`,
      booked_to: `${day} ${at(hour + 0.5)}`,
      person_attributes: { name: "Vis", email: `v${Math.random()}@example.com` },
    },
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return { id: res.body.booking.id as number, token: res.body.booking_token as string, body: res.body };
}

const withToken = (token: string) => ({ "x-booking-token": token });

let verifying: Site;
beforeAll(async () => {
  verifying = await siteOf({});
});

describe("POST /bookings on the site: the booking token", () => {
  it("answers a token of at least 128 random bits that is stored only as its SHA-256", async () => {
    const a = await book(verifying);
    const b = await book(verifying);
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.token).not.toBe(b.token);
    const stored = await rawBooking(a.id);
    const digest = [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(a.token)))].map((x) => x.toString(16).padStart(2, "0")).join("");
    expect(stored!.public_token_hash).toBe(digest);
    expect(JSON.stringify(stored)).not.toContain(a.token);
  });

  it("puts the booking page's link with the token into the verification message", async () => {
    const { id, token } = await book(verifying);
    const [message] = await messagesOf(verifying.api, `?booking_id=${id}&kind=verification`);
    expect(message.body).toContain(`http://${verifying.subdomain}.localhost/?booking=${id}&token=${token}`);
  });
});

describe("GET /bookings/{id} on the site", () => {
  it("shows the visitor's booking to the token's holder, without the code", async () => {
    const { id, token } = await book(verifying);
    const res = await verifying.site.get(`/bookings/${id}`, withToken(token));
    expect(res.status).toBe(200);
    expect(res.body.booking).toMatchObject({ id, state: "awaiting_verification", service: { id: verifying.serviceId, title: "Cut" } });
    expect(JSON.stringify(res.body)).not.toContain((await rawBooking(id))!.verification_code);
  });

  it("answers 404 without a token, with a wrong one, and with another booking's token", async () => {
    const mine = await book(verifying);
    const other = await book(verifying);
    for (const headers of [{}, withToken("x".repeat(43)), withToken(other.token)]) {
      const res = await verifying.site.get(`/bookings/${mine.id}`, headers);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: "The booking was not found." });
    }
  });
});

describe("PUT /bookings/{id}/verify_code on the site", () => {
  it("confirms with the right code and sends the confirmation with the page link", async () => {
    const { id, token } = await book(verifying);
    const code = (await rawBooking(id))!.verification_code;
    const res = await verifying.site.put(`/bookings/${id}/verify_code`, { verification_code: code }, withToken(token));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.booking.state).toBe("confirmed");
    const [confirmation] = await messagesOf(verifying.api, `?booking_id=${id}&kind=confirmation`);
    expect(confirmation.body).toContain(`/?booking=${id}&token=${token}`);
  });

  it("answers 400 on verification_code for a wrong code and 404 for the right code without the token", async () => {
    const { id, token } = await book(verifying);
    const code = (await rawBooking(id))!.verification_code;
    const wrong = await verifying.site.put(`/bookings/${id}/verify_code`, { verification_code: code === "00000" ? "11111" : "00000" }, withToken(token));
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({ verification_code: ["is invalid"] });
    const noToken = await verifying.site.put(`/bookings/${id}/verify_code`, { verification_code: code }, {});
    expect(noToken.status).toBe(404);
    expect((await rawBooking(id))!.state).toBe("awaiting_verification");
  });

  it("refuses every try after five wrong codes with 429, the right code too, and leaves the booking unverified", async () => {
    const { id, token } = await book(verifying);
    const code = (await rawBooking(id))!.verification_code;
    const wrongCode = code === "00000" ? "11111" : "00000";
    for (let i = 0; i < 5; i++) {
      const res = await verifying.site.put(`/bookings/${id}/verify_code`, { verification_code: wrongCode }, withToken(token));
      expect({ try: i + 1, status: res.status }).toEqual({ try: i + 1, status: 400 });
    }
    const sixth = await verifying.site.put(`/bookings/${id}/verify_code`, { verification_code: code }, withToken(token));
    expect(sixth.status).toBe(429);
    expect(sixth.body).toEqual({ error: expect.any(String) });
    expect(Number(sixth.headers.get("retry-after"))).toBeGreaterThan(0);
    expect((await rawBooking(id))!.state).toBe("awaiting_verification");
  });

  it("lets no more than five of many racing guesses be compared", async () => {
    const { id, token } = await book(verifying);
    const code = (await rawBooking(id))!.verification_code;
    const guesses = Array.from({ length: 12 }, (_, i) => String((Number(code) + 1 + i) % 100_000).padStart(5, "0"));
    const results = await Promise.all(guesses.map((g) => verifying.site.put(`/bookings/${id}/verify_code`, { verification_code: g }, withToken(token))));
    expect(results.filter((r) => r.status === 400)).toHaveLength(5);
    expect(results.filter((r) => r.status === 429)).toHaveLength(7);
    expect((await rawBooking(id))!.verify_attempts).toBe(5);
  });
});

describe("PUT /bookings/{id}/cancel on the site", () => {
  it("cancels the token's booking while the account allows it", async () => {
    const { id, token } = await book(verifying);
    const res = await verifying.site.put(`/bookings/${id}/cancel`, {}, withToken(token));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.booking).toMatchObject({ id, state: "cancelled", active: false });
  });

  it("answers 404 with another booking's token and cancels nothing", async () => {
    const mine = await book(verifying);
    const other = await book(verifying);
    const res = await verifying.site.put(`/bookings/${mine.id}/cancel`, {}, withToken(other.token));
    expect(res.status).toBe(404);
    expect((await rawBooking(mine.id))!.state).toBe("awaiting_verification");
  });

  it("refuses inside the cancellation period with a sentence that says until when", async () => {
    // A period longer than the time left before next Monday's booking: the deadline has passed.
    const strict = await siteOf({ cancellation_period: "30 days", future_bookable_period: "1 year" });
    const { id, token } = await book(strict);
    const res = await strict.site.put(`/bookings/${id}/cancel`, {}, withToken(token));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ state: [expect.stringMatching(/^could be cancelled online until \w+day, \d+ \w+ \d{4}, \d\d:\d\d \(Europe\/Oslo\)$/)] });
    expect((await rawBooking(id))!.state).toBe("awaiting_verification");
  });

  it("allows cancelling before the cancellation period starts", async () => {
    const lenient = await siteOf({ cancellation_period: "2 days", future_bookable_period: "1 year" });
    const { id, token } = await book(lenient, nextMonday(3));
    const res = await lenient.site.put(`/bookings/${id}/cancel`, {}, withToken(token));
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body.booking.state).toBe("cancelled");
  });

  it("refuses when the account does not allow cancellation", async () => {
    const closed = await siteOf({ allow_cancellation: false });
    const { id, token } = await book(closed);
    const res = await closed.site.put(`/bookings/${id}/cancel`, {}, withToken(token));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ state: [expect.stringContaining("can't be cancelled online")] });
  });
});

describe("a booking token across accounts", () => {
  it("opens nothing on another account's site, even for a booking id that exists there", async () => {
    const other = await siteOf({});
    const theirs = await book(other);
    const mine = await book(verifying);
    const code = (await rawBooking(theirs.id))!.verification_code;
    // My token, their site: both their booking's id and mine are 404.
    for (const id of [theirs.id, mine.id]) {
      expect((await other.site.get(`/bookings/${id}`, withToken(mine.token))).status).toBe(404);
      expect((await other.site.put(`/bookings/${id}/cancel`, {}, withToken(mine.token))).status).toBe(404);
      expect((await other.site.put(`/bookings/${id}/verify_code`, { verification_code: code }, withToken(mine.token))).status).toBe(404);
    }
    // Their token on my site opens their booking id nowhere.
    expect((await verifying.site.get(`/bookings/${theirs.id}`, withToken(theirs.token))).status).toBe(404);
    expect((await rawBooking(theirs.id))!.state).toBe("awaiting_verification");
    expect((await rawBooking(mine.id))!.state).toBe("awaiting_verification");
  });
});
