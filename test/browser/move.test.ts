// A visitor changes the time of their booking in a real browser (issue 34): on the booking page
// and with the widget on another website, through "Change time", the calendar and "Move to this
// time"; a time taken meanwhile is refused and the booking keeps its time; axe-core on each view.
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { axeViolations, bookableAccount, DAY, enableSlotHolds, expectFreeSeats, inWidget, launchBrowser, privateApi, siteOrigin, useHostWebsite } from "./support";

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/** A request to the booking site from a page on it (Node cannot resolve *.localhost). */
async function siteFetch(page: Page, url: string, method: string, body?: unknown) {
  const options = JSON.stringify({ method, headers: { "content-type": "application/json" }, body: body ? JSON.stringify(body) : undefined });
  return page.evaluate(`fetch(${JSON.stringify(url)}, ${options}).then(async (r) => ({ status: r.status, body: await r.json() }))`) as Promise<{
    status: number;
    body: any;
  }>;
}

/** The slot's timestamp at `hour` ("10:00") on DAY, with Oslo's offset that day. */
const OFFSET = /GMT([+-]\d\d:\d\d)/.exec(new Intl.DateTimeFormat("en", { timeZone: "Europe/Oslo", timeZoneName: "longOffset" }).format(new Date(`${DAY}T12:00:00Z`)))![1];
const at = (hour: string) => `${DAY}T${hour}:00${OFFSET}`;

/** A booking made on the site at `hour` (09, 10 or 11 on DAY): its id and token. */
async function bookOnSite(page: Page, site: string, serviceId: number, hour: string, who: string) {
  const made = await siteFetch(page, `${site}/bookings`, "POST", {
    booking: {
      service_id: serviceId,
      booked_from: `${DAY} ${hour}:00`,
      booked_to: `${DAY} ${Number(hour) + 1}:00`,
      person_attributes: { name: who, email: `${who.toLowerCase()}@example.com` },
    },
  });
  expect(made.status, JSON.stringify(made.body)).toBe(200);
  return { id: made.body.booking.id as number, token: made.body.booking_token as string };
}

async function expectNoViolations(page: Page, view: string) {
  expect(await axeViolations(page), view).toEqual([]);
}

describe("the booking page", () => {
  it("changes the booking's time through the calendar and shows the new time; axe finds nothing", async () => {
    const { subdomain, serviceId, key } = await bookableAccount();
    const site = siteOrigin(subdomain);
    const page = await browser.newPage();
    await page.goto(`${site}/`);
    const mine = await bookOnSite(page, site, serviceId, "09", "Nora");
    await page.goto(`${site}/?booking=${mine.id}&token=${encodeURIComponent(mine.token)}`);
    await expectNoViolations(page, "booking view with Change time");
    await Promise.all([page.waitForNavigation(), page.click("#move-link")]);
    expect(await page.$eval("#booked-now", (e: any) => e.textContent)).toContain("09:00–10:00");
    if (!(await page.$(`a[href*="day=${DAY}"]`))) await Promise.all([page.waitForNavigation(), page.click(".month-nav a:last-child")]);
    await Promise.all([page.waitForNavigation(), page.click(`a[href*="day=${DAY}"]`)]);
    await Promise.all([page.waitForNavigation(), page.click(`a.slot[href*="${encodeURIComponent(at("10:00"))}"]`)]);
    await expectNoViolations(page, "move form");
    await Promise.all([page.waitForNavigation(), page.click("#book-form button[type=submit]")]);

    expect(new URL(page.url()).searchParams.get("moved")).toBe("1");
    expect(await page.$eval("#moved-notice", (e: any) => e.textContent)).toBe("Your booking has been moved.");
    expect(await page.$eval("dl", (e: any) => e.textContent)).toContain("10:00–11:00");
    await expectNoViolations(page, "booking view after the move");
    expect((await privateApi(key, "GET", `/bookings/${mine.id}`)).booking.booked_from).toBe(at("10:00"));
    await page.close();
  });

  it("holds the picked time while the visitor decides, and the move takes the held seat", async () => {
    const { subdomain, serviceId, key } = await bookableAccount();
    await enableSlotHolds(key, 2);
    const site = siteOrigin(subdomain);
    const page = await browser.newPage();
    await page.goto(`${site}/`);
    const mine = await bookOnSite(page, site, serviceId, "09", "Eva");
    await page.goto(`${site}/?move=${mine.id}&token=${encodeURIComponent(mine.token)}&service=${serviceId}&day=${DAY}&slot=${encodeURIComponent(at("10:00"))}`);
    await page.waitForFunction(`/^We hold/.test(document.getElementById("slot-hold").textContent)`, { timeout: 20_000 });
    await expectFreeSeats(key, serviceId, at("10:00"), 0);
    await Promise.all([page.waitForNavigation(), page.click("#book-form button[type=submit]")]);
    expect(await page.$eval("#moved-notice", (e: any) => e.textContent)).toBe("Your booking has been moved.");
    expect((await privateApi(key, "GET", `/bookings/${mine.id}`)).booking.booked_from).toBe(at("10:00"));
    // The hold became the booking's seat; the old time is free again.
    await expectFreeSeats(key, serviceId, at("10:00"), 0);
    await expectFreeSeats(key, serviceId, at("09:00"), 1);
    await page.close();
  });

  it("goes back to the day when the time was taken meanwhile, and the booking keeps its time", async () => {
    const { subdomain, serviceId, key } = await bookableAccount();
    const site = siteOrigin(subdomain);
    const page = await browser.newPage();
    await page.goto(`${site}/`);
    const mine = await bookOnSite(page, site, serviceId, "09", "Ola");
    await page.goto(`${site}/?move=${mine.id}&token=${encodeURIComponent(mine.token)}&service=${serviceId}&day=${DAY}&slot=${encodeURIComponent(at("11:00"))}`);
    await bookOnSite(page, site, serviceId, "11", "Kari");
    await Promise.all([page.waitForNavigation(), page.click("#book-form button[type=submit]")]);
    expect(await page.$eval("#taken-notice", (e: any) => e.textContent)).toBe("That time was just taken. Your booking keeps its time: please choose another.");
    expect(new URL(page.url()).searchParams.get("move")).toBe(String(mine.id));
    await expectNoViolations(page, "day after a refused move");
    expect((await privateApi(key, "GET", `/bookings/${mine.id}`)).booking.booked_from).toBe(at("09:00"));
    await page.close();
  });
});

describe("the widget on another website", () => {
  const host = useHostWebsite();

  it("books, changes the time through its calendar and shows the new time; axe finds nothing", async () => {
    const { subdomain, serviceId, key } = await bookableAccount();
    host.serve(`<!doctype html><html lang="en"><title>My salon</title><main><h1>Book with us</h1>
<script src="${siteOrigin(subdomain)}/widget.js"></script>
<booking-widget service-id="${serviceId}"></booking-widget></main></html>`);
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(String(e)));
    const has = (selector: string) => page.evaluate(`!!document.querySelector("booking-widget").shadowRoot.querySelector(${JSON.stringify(selector)})`);
    const toDay = async () => {
      await inWidget(page, "nav", problems);
      if (!(await has(`button[data-date="${DAY}"]`))) await (await inWidget(page, "nav button:last-child", problems)).click();
      await (await inWidget(page, `button[data-date="${DAY}"]`, problems)).click();
    };

    await page.goto(host.origin);
    await toDay();
    await (await inWidget(page, `button[data-timestamp="${at("09:00")}"]`, problems)).click();
    await (await inWidget(page, "#w-name", problems)).type("Kari");
    await (await inWidget(page, "#w-email", problems)).type("kari@example.com");
    await (await inWidget(page, "button[type=submit]", problems)).click();
    await inWidget(page, '.state[data-state="awaiting_verification"]', problems);
    const link = await (await inWidget(page, "a[target=_blank]", problems)).evaluate((a) => a.getAttribute("href")!);
    const id = Number(new URL(link).searchParams.get("booking"));
    await expectNoViolations(page, "widget booking with Change time");

    await (await inWidget(page, "button.change", problems)).click();
    await inWidget(page, "button.keep", problems);
    await expectNoViolations(page, "widget month while moving");
    await toDay();
    await (await inWidget(page, `button[data-timestamp="${at("11:00")}"]`, problems)).click();
    await inWidget(page, "button.move", problems);
    await expectNoViolations(page, "widget move form");
    await (await inWidget(page, "button.move", problems)).click();

    const notice = await inWidget(page, ".moved", problems);
    expect(await notice.evaluate((e: any) => e.textContent)).toBe("Your booking has been moved.");
    const shown = (await page.evaluate(`document.querySelector("booking-widget").shadowRoot.textContent`)) as string;
    expect(shown).toContain(`${DAY} 11:00–12:00`);
    await expectNoViolations(page, "widget booking after the move");
    expect((await privateApi(key, "GET", `/bookings/${id}`)).booking.booked_from).toBe(at("11:00"));
    expect(problems).toEqual([]);
    await page.close();
  });
});
