// The booking page (GET /) rendered on the server from its query string, its strict headers,
// its script and stylesheet, and the widget's script.
import { beforeAll, describe, expect, it } from "vitest";
import { newAccount, publicSite, send, type Client } from "../support/api";
import { catalogue, must, rawBooking } from "../support/bookings";
import { paidShop, payAndDeliver, sessionOf } from "../support/payments";

const DAY = "2030-01-07"; // a Monday
let api: Client;
let subdomain: string;
let ids: Record<string, number>;

const page = (query = "", headers: Record<string, string> = {}) =>
  send("GET", `http://${subdomain}.localhost/${query}`, { headers: { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", ...headers } });

beforeAll(async () => {
  const created = await newAccount({ name: "Salon <Nord>", verification_method: 2, locale: "en" });
  api = created.api;
  subdomain = created.account.subdomain;
  const make = catalogue(api);
  const resource = await make.resource({ title: "Chair", capacity: 1, opening_hours_mon: ["09:00", "11:00"], opening_hours_tue: null });
  const cut = await make.service({ title: "Cut", interval: 60 });
  const colour = await make.service({ title: "Colour", interval: 60 });
  const retired = await make.service({ title: "Retired" });
  await must(api.delete(`/services/${retired.id}`));
  await make.provider(resource.id, cut.id);
  await make.provider(resource.id, colour.id);
  await must(api.post("/categories", { category: { title: "Hair", service_id_list: [cut.id] } }));
  // 09:00 on DAY is taken, 10:00 is free.
  await make.booking({ resource_id: resource.id, service_id: cut.id, booked_from: `${DAY} 09:00`, booked_to: `${DAY} 10:00` });
  ids = { cut: cut.id, colour: colour.id, retired: retired.id };
});

describe("GET / on the booking site", () => {
  it("lists the account's active services by category, escaping the account's text", async () => {
    const res = await page();
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html: string = res.body;
    expect(html).toContain("Salon &lt;Nord&gt;");
    expect(html).toMatch(/<h2>Hair<\/h2><ul class="services"><li><a href="\/\?service=\d+">Cut<\/a>/);
    expect(html).toMatch(/<h2>Other services<\/h2><ul class="services"><li><a href="\/\?service=\d+">Colour<\/a>/);
    expect(html).not.toContain("Retired");
  });

  it("sends a strict CSP and the secure headers, and has no inline script or style", async () => {
    const res = await page();
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain("unsafe-inline");
    expect(res.headers.get("x-content-type-options")).toBe("nosniff");
    expect(res.headers.get("referrer-policy")).toBe("no-referrer");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const html: string = res.body;
    expect(html.match(/<script[^>]*>/g)).toEqual(['<script src="/booking-page.js" defer="">']);
    expect(html).not.toMatch(/<style|\sstyle=|\son[a-z]+=/);
  });

  it("shows the month's available dates as links and the other days as plain text", async () => {
    const html: string = (await page(`?service=${ids.cut}&month=2030-01`)).body;
    expect(html).toContain("Choose a day: January 2030");
    // Mondays of January 2030 are open; the 8th (Tuesday) is closed.
    for (const day of ["07", "14", "21", "28"]) expect(html).toContain(`href="/?service=${ids.cut}&amp;day=2030-01-${day}"`);
    expect(html).not.toContain("day=2030-01-08");
    expect(html).toMatch(/<span class="day off" aria-disabled="true">8<\/span>/);
  });

  it("shows the day's slots in the account's zone, a full one as taken, and the form once a slot is chosen", async () => {
    const html: string = (await page(`?service=${ids.cut}&day=${DAY}`)).body;
    expect(html).toContain("Times are in Europe/Oslo");
    expect(html).toMatch(/<span class="slot full" aria-disabled="true">09:00 <small>taken<\/small><\/span>/);
    expect(html).toContain(`slot=${encodeURIComponent(`${DAY}T10:00:00+01:00`)}`);
    expect(html).not.toContain('id="book-form"');
    const chosen: string = (await page(`?service=${ids.cut}&day=${DAY}&slot=${encodeURIComponent(`${DAY}T10:00:00+01:00`)}`)).body;
    expect(chosen).toContain(`data-from="${DAY}T10:00:00+01:00"`);
    expect(chosen).toMatch(/<label for="f-phone">Mobile number<\/label><input id="f-phone" name="phone_number" type="tel"[^>]*pattern="\\\+\[1-9\]\[0-9\]\{6,14\}"/);
  });

  it("ignores a mangled query and another account's service, offering the list again", async () => {
    const other = await newAccount();
    const theirs = await catalogue(other.api).service({ title: "Theirs" });
    for (const query of ["?service=abc&day=2030-13-45", `?service=${theirs.id}`, `?service=${ids.retired}`]) {
      const res = await page(query);
      expect({ query, status: res.status }).toEqual({ query, status: 200 });
      expect(res.body).toContain("Choose a service");
      expect(res.body).not.toContain("Theirs");
    }
  });

  it("speaks the account's locale", async () => {
    await must(api.put("/client", { client: { locale: "nb" } }));
    try {
      const html: string = (await page(`?service=${ids.cut}&day=${DAY}`)).body;
      expect(html).toContain('<html lang="nb">');
      expect(html).toContain("Velg en dag: januar 2030");
      expect(html).toContain("<small>opptatt</small>");
    } finally {
      await must(api.put("/client", { client: { locale: "en" } }));
    }
  });

  it("shows a visitor's booking with its token (code form, cancel), and only 'not found' with a wrong one", async () => {
    const created = await must(
      publicSite(subdomain).post("/bookings", {
        booking: { service_id: ids.colour, booked_from: "2030-01-14 10:00", booked_to: "2030-01-14 11:00", person_attributes: { name: "Vis", email: "vis@example.com" } },
      }),
    );
    const id = created.booking.id;
    const html: string = (await page(`?booking=${id}&token=${created.booking_token}`)).body;
    expect(html).toContain('data-state="awaiting_verification"');
    expect(html).toContain('id="verify-form"');
    expect(html).toContain('id="cancel-button"');
    expect(html).toContain("Monday, 14 January 2030, 10:00–11:00 (Europe/Oslo)");
    expect(html).not.toContain((await rawBooking(id))!.verification_code);
    const wrong = await page(`?booking=${id}&token=nope`);
    expect(wrong.status).toBe(200);
    expect(wrong.body).toContain("This booking was not found.");
    expect(wrong.body).not.toContain("Colour");
  });

  it("offers a confirmed booking as an .ics file", async () => {
    const created = await must(
      publicSite(subdomain).post("/bookings", {
        booking: {
          service_id: ids.colour,
          booked_from: "2030-01-21 10:00",
          booked_to: "2030-01-21 11:00",
          person_attributes: { name: "Vis", email: "vis2@example.com" },
        },
      }),
    );
    const id = created.booking.id;
    const code = (await rawBooking(id))!.verification_code;
    await must(publicSite(subdomain).put(`/bookings/${id}/verify_code`, { verification_code: code }, { "x-booking-token": created.booking_token }));
    const html: string = (await page(`?booking=${id}&token=${created.booking_token}`)).body;
    const href = /id="ics-link" href="([^"]+)"/.exec(html)![1].replace(/&amp;/g, "&");
    const ics = decodeURIComponent(href.slice("data:text/calendar;charset=utf-8,".length));
    expect(ics).toContain("DTSTART:20300121T090000Z\r\nDTEND:20300121T100000Z\r\nSUMMARY:Colour\r\n");
  });
});

describe("a booking that pays, on the page", () => {
  let visitors = 0;
  /** A paid booking made on the site, each by its own address (a visitor may have only a few unpaid at once). */
  async function bookPaid(site: string, serviceId: number, hour: number) {
    const created = await must(
      send("POST", `http://${site}.localhost/bookings`, {
        headers: { "content-type": "application/json", "cf-connecting-ip": `198.51.100.${(visitors += 1)}` },
        body: JSON.stringify({
          booking: {
            service_id: serviceId,
            booked_from: `${DAY} ${hour}:00`,
            booked_to: `${DAY} ${hour + 1}:00`,
            person_attributes: { name: "Vis", email: `paid${visitors}@example.com` },
          },
        }),
      }),
    );
    const { id } = created.booking;
    const token: string = created.booking_token;
    return {
      booking: created.booking,
      token,
      page: async (extra = "") => (await send("GET", `http://${site}.localhost/?booking=${id}&token=${token}${extra}`)).body as string,
    };
  }

  it("offers Pay with the amount, linked to the booking's checkout, and says until when the time is held", async () => {
    const { account, cut } = await paidShop();
    const { booking, page } = await bookPaid(account.subdomain, cut.id, 10);
    const html = await page();
    expect(html).toContain('data-state="awaiting_payment"');
    expect(html).toContain('<dt>Payment</dt><dd id="payment-line" data-status="pending">450.00 NOK · not paid yet</dd>');
    expect(html).toContain(`<a id="pay-link" class="button" href="${booking.payment.checkout_url}">Pay 450.00 NOK</a>`);
    expect(html).toMatch(/<p>Held for you until \d\d:\d\d<\/p>/);
    expect(html).not.toContain("payment-confirming");
  });

  it("back from paying, says it is confirming until the server has the payment, then shows the booking confirmed", async () => {
    const { account, cut } = await paidShop();
    const { booking, page } = await bookPaid(account.subdomain, cut.id, 10);
    const waiting = await page("&payment=return");
    expect(waiting).toContain('<p class="notice" role="status" id="payment-confirming">Confirming your payment…</p>');
    expect(waiting).toContain('data-state="awaiting_payment"');
    // Nothing to press meanwhile: no second payment, no cancel racing the first.
    expect(waiting).not.toContain('id="pay-link"');
    expect(waiting).not.toContain('id="cancel-button"');

    await payAndDeliver(sessionOf(booking.payment.checkout_url));
    const paid = await page("&payment=return");
    expect(paid).toContain('data-state="confirmed"');
    expect(paid).toContain('<dd id="payment-line" data-status="paid">450.00 NOK · paid</dd>');
    expect(paid).toContain('id="ics-link"');
    expect(paid).not.toContain("payment-confirming");
    expect(paid).not.toContain("payment-outcome");
  });

  it("back from a cancelled checkout, shows the booking still unpaid with Pay", async () => {
    const { account, cut } = await paidShop();
    const { page } = await bookPaid(account.subdomain, cut.id, 10);
    const html = await page("&payment=cancelled");
    expect(html).toContain('id="payment-cancelled">The payment was not completed. Pay to keep this time.</p>');
    expect(html).toContain('id="pay-link"');
    expect(html).toContain('id="cancel-button"');
  });

  it("says the payment did not confirm a booking that ended while it was paid for, and shows a cancelled payment as unpaid", async () => {
    const { account, cut } = await paidShop();
    const { booking, token, page } = await bookPaid(account.subdomain, cut.id, 10);
    await must(publicSite(account.subdomain).put(`/bookings/${booking.id}/cancel`, {}, { "x-booking-token": token }));
    const html = await page("&payment=return");
    expect(html).toContain('data-state="cancelled"');
    expect(html).toContain('<p class="notice" role="alert" id="payment-outcome">The booking could not be confirmed by your payment.</p>');
    expect(html).toContain('<dd id="payment-line" data-status="canceled">450.00 NOK · not paid</dd>');
    expect(html).not.toContain('id="pay-link"');
  });

  it("shows the refund of a paid booking its visitor cancelled", async () => {
    const { account, cut } = await paidShop();
    const { booking, token, page } = await bookPaid(account.subdomain, cut.id, 10);
    await payAndDeliver(sessionOf(booking.payment.checkout_url));
    await must(publicSite(account.subdomain).put(`/bookings/${booking.id}/cancel`, {}, { "x-booking-token": token }));
    const html = await page();
    expect(html).toContain('data-state="cancelled"');
    expect(html).toContain('<dd id="payment-line" data-status="refunded">Refunded 450.00 NOK</dd>');
  });

  it("speaks the account's locale about the payment", async () => {
    const { account, cut } = await paidShop({ account: { locale: "nb" } });
    const { page } = await bookPaid(account.subdomain, cut.id, 10);
    const html = await page("&payment=cancelled");
    expect(html).toContain("<dt>Betaling</dt>");
    expect(html).toContain("450.00 NOK · ikke betalt ennå");
    expect(html).toContain(">Betal 450.00 NOK</a>");
    expect(html).toContain("Betalingen ble ikke fullført. Betal for å beholde tiden.");
    expect(await page("&payment=return")).toContain("Vi bekrefter betalingen din…");
  });
});

describe("the page's script, stylesheet and the widget", () => {
  it("serves the script and stylesheet with their types", async () => {
    const js = await send("GET", `http://${subdomain}.localhost/booking-page.js`);
    expect(js.headers.get("content-type")).toContain("text/javascript");
    expect(js.body).toContain("X-Booking-Token");
    const css = await send("GET", `http://${subdomain}.localhost/booking-page.css`);
    expect(css.headers.get("content-type")).toContain("text/css");
  });

  it("serves widget.js as a cross-origin script that defines <booking-widget> with the account's words and zone", async () => {
    const res = await send("GET", `http://${subdomain}.localhost/widget.js`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/javascript");
    expect(res.headers.get("cross-origin-resource-policy")).toBe("cross-origin");
    expect(res.body).toContain('customElements.define("booking-widget"');
    expect(res.body).toContain('"Europe/Oslo"');
    expect(res.body).toContain('"chooseDay":"Choose a day"');
  });

  it("links an icon that its host serves, so a visit logs no 404 for /favicon.ico", async () => {
    expect((await page()).body).toContain('<link rel="icon" href="/favicon.ico"/>');
    for (const host of [`${subdomain}.localhost`, "localhost", "nosuchsite.localhost"]) {
      const icon = await send("GET", `http://${host}/favicon.ico`);
      expect(icon.status, host).toBe(200);
      expect(icon.headers.get("content-type")).toBe("image/vnd.microsoft.icon");
    }
  });

  it("answers 404 for the page and the widget where no booking site is served", async () => {
    for (const path of ["/", "/widget.js"]) {
      expect((await send("GET", `http://nosuchsite.localhost${path}`)).status).toBe(404);
    }
  });
});
