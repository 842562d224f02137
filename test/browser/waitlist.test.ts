// The waitlist on the booking page in a real browser: joining a full time's line from the day
// view, a cancel that offers the seat to the first in line by e-mail, and the e-mailed link opened
// in Chromium, where Accept books the held seat and Let it go passes it to the next in line.
import { mkdirSync } from "node:fs";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookableAccount, DAY, launchBrowser, offerLink, privateApi, siteOrigin } from "./support";

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
  return page.evaluate(`fetch(${JSON.stringify(url)}, ${options}).then(async (r) => ({ status: r.status, body: await r.json() }))`) as
    Promise<{ status: number; body: any }>;
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
  const booking = (await privateApi(key, "POST", "/bookings", { booking: { service_id: serviceId, booked_from: slot.timestamp, booked_to: slot.timestamp_end } })).booking;
  const origin = siteOrigin(subdomain);
  const page = await browser.newPage();
  await page.goto(`${origin}/`);
  const join = async (name: string) => {
    const joined = await siteFetch(page, `${origin}/waitlist`, { method: "POST", body: { waitlist_entry: {
      service_id: serviceId, booked_from: slot.timestamp, booked_to: slot.timestamp_end, person_attributes: { name, email: `${name.toLowerCase()}@example.com` },
    } } });
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

    const line: { waitlist_entry: { state: string; booked_from: string; person_attributes: { email: string } } }[] =
      await privateApi(key, "GET", `/waitlist?service_id=${serviceId}`);
    expect(line.map((e) => e.waitlist_entry)).toEqual([expect.objectContaining({
      state: "waiting", booked_from: slot.timestamp, person_attributes: expect.objectContaining({ name: "Cai", email: "cai@example.com" }),
    })]);
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
