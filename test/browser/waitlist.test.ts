// The waitlist on the booking page in a real browser: joining a full time's line from the day
// view, a cancel that offers the seat to the first in line by e-mail, and the e-mailed link opened
// in Chromium, where Accept books the held seat and Let it go passes it to the next in line; and
// the widget on another website joining a full time's line the same way.
import { mkdirSync } from "node:fs";
import type { Browser, ElementHandle, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookableAccount, DAY, launchBrowser, offerLink, privateApi, siteOrigin, useHostWebsite } from "./support";

const SCREENSHOTS = "test/browser/screenshots";
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
});

/** A request to the booking site from a page on it (Node cannot resolve *.localhost). */
async function siteFetch(page: Page, url: string, init: { method: string; body?: unknown }) {
  const options = JSON.stringify({ method: init.method, headers: { "content-type": "application/json" }, body: init.body ? JSON.stringify(init.body) : undefined });
  return page.evaluate(`fetch(${JSON.stringify(url)}, ${options}).then(async (r) => ({ status: r.status, body: await r.json() }))`) as Promise<{
    status: number;
    body: any;
  }>;
}

/**
 * An account with the waitlist on whose first slot of DAY is filled by a private booking, and a
 * page open on its site: the site's origin, the key, the slot and the booking that fills it.
 */
async function fullSlot() {
  const { subdomain, serviceId, key } = await bookableAccount();
  await privateApi(key, "PUT", "/client", { client: { waitlist_enabled: true } });
  const slots: { slot: { timestamp: string; timestamp_end: string } }[] = await privateApi(key, "GET", `/services/${serviceId}/slots?from=${DAY}&to=${DAY}`);
  const slot = slots[0].slot;
  const booking = (await privateApi(key, "POST", "/bookings", { booking: { service_id: serviceId, booked_from: slot.timestamp, booked_to: slot.timestamp_end } }))
    .booking;
  const origin = siteOrigin(subdomain);
  const page = await browser.newPage();
  await page.goto(`${origin}/`);
  const join = async (name: string) => {
    const joined = await siteFetch(page, `${origin}/waitlist`, {
      method: "POST",
      body: {
        waitlist_entry: {
          service_id: serviceId,
          booked_from: slot.timestamp,
          booked_to: slot.timestamp_end,
          person_attributes: { name, email: `${name.toLowerCase()}@example.com` },
        },
      },
    });
    expect(joined.status, JSON.stringify(joined.body)).toBe(200);
    expect(joined.body.waitlist_entry.state).toBe("waiting");
    return joined.body.waitlist_entry.id as number;
  };
  const entry = async (id: number) => (await privateApi(key, "GET", `/waitlist/${id}`)).waitlist_entry;
  /** The offer message's link (it names the site without the dev server's port) on the dev server. */
  const linkFor = async (email: string) => {
    const link = await offerLink(key, email);
    expect(link.origin).toBe(`http://${subdomain}.localhost`);
    return `${origin}/${link.search}`;
  };
  return { key, serviceId, slot, booking, origin, page, join, entry, linkFor };
}

describe("the waitlist offer on the booking page", () => {
  it("shows the offered time and until when it is held; Accept books the seat and shows the booking", async () => {
    const { key, slot, booking, page, join, entry, linkFor } = await fullSlot();
    const id = await join("Anna");
    await privateApi(key, "PUT", `/bookings/${booking.id}/cancel`, {});
    const link = await linkFor("anna@example.com");
    const offered = await entry(id);
    expect(offered.state).toBe("offered");

    await page.goto(link);
    expect(await page.$eval("#offer-service", (e: any) => e.textContent)).toBe("Cut");
    const time = await page.$eval("#offer-time", (e: any) => e.textContent ?? "");
    expect(time).toContain(`${slot.timestamp.slice(11, 16)}–${slot.timestamp_end.slice(11, 16)} (Europe/Oslo)`);
    expect(await page.$eval("#offer-expires", (e: any) => e.textContent)).toBe(`Held for you until ${offered.offer_expires_at.slice(11, 16)}`);
    await page.screenshot({ path: `${SCREENSHOTS}/waitlist-offer.png`, fullPage: true });

    await Promise.all([page.waitForNavigation(), page.click("#offer-accept")]);
    const url = new URL(page.url());
    const bookingId = Number(url.searchParams.get("booking"));
    expect(url.searchParams.get("token")).toBeTruthy();
    expect(await page.$eval("#booking", (e) => e.getAttribute("data-booking-id"))).toBe(String(bookingId));
    expect(await page.evaluate(`localStorage.getItem("booking-token:${bookingId}")`)).toBe(url.searchParams.get("token"));

    const booked = (await privateApi(key, "GET", `/bookings/${bookingId}`)).booking;
    expect(booked.booked_from).toBe(slot.timestamp);
    expect(await entry(id)).toMatchObject({ state: "accepted", booking_id: bookingId });

    // The offer's secret opened that offer only: once accepted, the link opens nothing.
    await page.goto(link);
    expect(await page.$eval("#offer-invalid", (e: any) => e.textContent)).toBe("This offer link is not valid.");
    await page.close();
  });

  it("Let it go leaves the line and offers the seat to the next in line; a wrong secret is not valid", async () => {
    const { key, booking, origin, page, join, entry, linkFor } = await fullSlot();
    const first = await join("Anna");
    const second = await join("Bo");
    await privateApi(key, "PUT", `/bookings/${booking.id}/cancel`, {});
    const link = await linkFor("anna@example.com");

    await page.goto(`${origin}/?waitlist=${first}&offer=wrong`);
    expect(await page.$eval("#offer-invalid", (e: any) => e.textContent)).toBe("This offer link is not valid.");
    expect(await page.$("#offer-accept")).toBeNull();

    await page.goto(link);
    await page.click("#offer-decline");
    await page.waitForFunction(`document.getElementById("offer-state")?.textContent === "The seat goes to the next in line."`);
    expect(await page.$("#offer-accept")).toBeNull();
    expect((await entry(first)).state).toBe("left");
    expect((await entry(second)).state).toBe("offered");
    await linkFor("bo@example.com");
    await page.close();
  });

  it("a full slot on the day view joins its line with name and e-mail, and the cancel's offer reaches that e-mail", async () => {
    const { key, serviceId, slot, booking, origin, page, linkFor } = await fullSlot();
    await page.goto(`${origin}/?service=${serviceId}&day=${DAY}`);
    await Promise.all([page.waitForNavigation(), page.click(`a.slot.full[data-wait="${slot.timestamp}"]`)]);
    expect(await page.$eval("#wait-title", (e: any) => e.textContent)).toBe("Join the waitlist");
    await page.screenshot({ path: `${SCREENSHOTS}/waitlist-join.png`, fullPage: true });
    await page.type("#w-name", "Cai");
    await page.type("#w-email", "cai@example.com");
    await page.click("#wait-form button[type=submit]");
    await page.waitForFunction(`document.getElementById("in-line")?.textContent === "You are in line. We will e-mail you if a seat frees."`);

    const line: { waitlist_entry: { state: string; booked_from: string; person_attributes: { email: string } } }[] = await privateApi(
      key,
      "GET",
      `/waitlist?service_id=${serviceId}`,
    );
    expect(line.map((e) => e.waitlist_entry)).toEqual([
      expect.objectContaining({
        state: "waiting",
        booked_from: slot.timestamp,
        person_attributes: expect.objectContaining({ name: "Cai", email: "cai@example.com" }),
      }),
    ]);
    await privateApi(key, "PUT", `/bookings/${booking.id}/cancel`, {});
    await linkFor("cai@example.com");
    await page.close();
  });

  it("a full slot offers no waitlist while the account has it off", async () => {
    const { subdomain, serviceId, key } = await bookableAccount();
    const slots: { slot: { timestamp: string; timestamp_end: string } }[] = await privateApi(key, "GET", `/services/${serviceId}/slots?from=${DAY}&to=${DAY}`);
    const { timestamp, timestamp_end } = slots[0].slot;
    await privateApi(key, "POST", "/bookings", { booking: { service_id: serviceId, booked_from: timestamp, booked_to: timestamp_end } });
    const page = await browser.newPage();
    await page.goto(`${siteOrigin(subdomain)}/?service=${serviceId}&day=${DAY}&wait=${encodeURIComponent(timestamp)}`);
    expect(await page.$("span.slot.full")).not.toBeNull();
    expect(await page.$("a.slot.full")).toBeNull();
    expect(await page.$("#wait-form")).toBeNull();
    await page.close();
  });
});

describe("the waitlist in the widget on another website", () => {
  const host = useHostWebsite();

  /** An account whose first slot of DAY a private booking fills, and the widget open on that day. */
  async function widgetOnFullDay(waitlist: boolean) {
    const { subdomain, serviceId, key } = await bookableAccount();
    if (waitlist) await privateApi(key, "PUT", "/client", { client: { waitlist_enabled: true } });
    const slots: { slot: { timestamp: string; timestamp_end: string } }[] = await privateApi(key, "GET", `/services/${serviceId}/slots?from=${DAY}&to=${DAY}`);
    const slot = slots[0].slot;
    const booking = (await privateApi(key, "POST", "/bookings", { booking: { service_id: serviceId, booked_from: slot.timestamp, booked_to: slot.timestamp_end } }))
      .booking;
    host.serve(`<!doctype html><title>My salon</title><h1>Book with us</h1>
<script src="${siteOrigin(subdomain)}/widget.js"></script>
<booking-widget service-id="${serviceId}"></booking-widget>`);
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(String(e)));
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(m.text());
    });
    const shadow = (selector: string) => `document.querySelector("booking-widget")?.shadowRoot?.querySelector(${JSON.stringify(selector)})`;
    // Puppeteer's selector waits do not see into shadow roots: poll the root itself.
    const inWidget = async (selector: string) => {
      await page.waitForFunction(`!!${shadow(selector)}`, { polling: 100, timeout: 20_000 }).catch((e) => {
        throw new Error(`${selector}: ${e} ${problems.join(" | ")}`);
      });
      return (await page.evaluateHandle(shadow(selector))).asElement() as ElementHandle<Element>;
    };
    const textOf = (selector: string) => page.evaluate(`${shadow(selector)}?.textContent ?? ""`) as Promise<string>;
    await page.goto(host.origin);
    await inWidget("nav");
    if (!(await page.evaluate(`!!${shadow(`button[data-date="${DAY}"]`)}`))) await (await inWidget("nav button:last-child")).click();
    await (await inWidget(`button[data-date="${DAY}"]`)).click();
    await inWidget(".slots button");
    return { key, serviceId, slot, booking, page, problems, inWidget, textOf, shadow };
  }

  it("a full slot joins its line with name and e-mail; the cancel offers the seat to that e-mail", async () => {
    const { key, serviceId, slot, booking, page, problems, inWidget, textOf, shadow } = await widgetOnFullDay(true);
    const full = await inWidget(`button.slot.full[data-wait="${slot.timestamp}"]`);
    expect(await textOf(".slot.full")).toBe(`${slot.timestamp.slice(11, 16)} taken · join the waitlist`);
    await full.click();
    expect(await textOf("h3")).toBe("Join the waitlist");
    await (await inWidget("#w-name")).type("Dag");
    await (await inWidget("#w-email")).type("dag@example.com");
    await (await inWidget("form.wait button[type=submit]")).click();
    await inWidget(".in-line[role=status]");
    expect(await textOf(".in-line")).toBe("You are in line. We will e-mail you if a seat frees.");
    await page.screenshot({ path: `${SCREENSHOTS}/waitlist-widget.png`, fullPage: true });

    const line: { waitlist_entry: { id: number; state: string; booked_from: string } }[] = await privateApi(key, "GET", `/waitlist?service_id=${serviceId}`);
    expect(line.map((e) => e.waitlist_entry)).toEqual([
      expect.objectContaining({
        state: "waiting",
        booked_from: slot.timestamp,
        person_attributes: expect.objectContaining({ name: "Dag", email: "dag@example.com" }),
      }),
    ]);
    await privateApi(key, "PUT", `/bookings/${booking.id}/cancel`, {});
    await offerLink(key, "dag@example.com");
    expect((await privateApi(key, "GET", `/waitlist/${line[0].waitlist_entry.id}`)).waitlist_entry.state).toBe("offered");
    expect(problems).toEqual([]);
    expect(await page.evaluate(`!!${shadow(".error:not([hidden])")}`)).toBe(false);
    await page.close();
  });

  it("shows the server's sentence when the join is refused", async () => {
    const { key, slot, booking, page, inWidget, textOf } = await widgetOnFullDay(true);
    await (await inWidget(`button.slot.full[data-wait="${slot.timestamp}"]`)).click();
    // The time frees while the form is open: the site refuses to line up for a free time.
    await privateApi(key, "PUT", `/bookings/${booking.id}/cancel`, {});
    await (await inWidget("#w-name")).type("Eva");
    await (await inWidget("#w-email")).type("eva@example.com");
    await (await inWidget("form.wait button[type=submit]")).click();
    await inWidget(".error[role=alert]:not([hidden])");
    expect(await textOf(".error[role=alert]")).toBe("has a free seat: book it instead of waiting");
    expect(await page.evaluate(`!!document.querySelector("booking-widget").shadowRoot.querySelector(".in-line")`)).toBe(false);
    await page.close();
  });

  it('a full slot stays a plain, disabled "taken" while the account has the waitlist off', async () => {
    const { slot, page, problems, inWidget, textOf, shadow } = await widgetOnFullDay(false);
    const full = await inWidget(".slot.full");
    expect(await textOf(".slot.full")).toBe(`${slot.timestamp.slice(11, 16)} taken`);
    expect(await full.evaluate((b) => b.hasAttribute("disabled"))).toBe(true);
    expect(await page.evaluate(`!!${shadow("[data-wait]")}`)).toBe(false);
    expect(problems).toEqual([]);
    await page.close();
  });
});
