// Slot holds in a real browser, on the booking page and in the widget: picking a time holds it
// with a countdown (the slot's free seats drop), going back releases it, the countdown shows the
// lapse, a booking takes the held seat, and a time taken meanwhile sends the visitor back.
import type { Browser, ElementHandle, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bookableAccount, DAY, enableSlotHolds, expectFreeSeats, launchBrowser, siteOrigin, useHostWebsite } from "./support";

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/**
 * Lets a test move the page's clock ahead (`jumpClock(ms)`) instead of waiting out a hold, whose
 * shortest life is a minute. Only the page's `Date.now` moves: the hold on the server stays live.
 */
const JUMPABLE_CLOCK = `(() => {
  const realNow = Date.now;
  let ahead = 0;
  Date.now = () => realNow() + ahead;
  window.jumpClock = (ms) => { ahead += ms; };
})()`;

const HOLD_TEXT = /^We hold this time for you for (\d+):(\d\d)$/;
const LAPSED_TEXT = "The hold has lapsed: the time may still be free, but is no longer kept for you.";
const secondsIn = (text: string) => {
  const [, m, s] = HOLD_TEXT.exec(text) ?? [];
  return m === undefined ? NaN : Number(m) * 60 + Number(s);
};

/** A request to the booking site from a page on it or its widget's host (Node cannot resolve *.localhost). */
async function siteFetch(page: Page, url: string, init: { method: string; secret?: string; body?: unknown }) {
  const headers: Record<string, string> = { "content-type": "application/json", ...(init.secret ? { "x-hold-secret": init.secret } : {}) };
  const options = JSON.stringify({ method: init.method, headers, body: init.body ? JSON.stringify(init.body) : undefined });
  return page.evaluate(`fetch(${JSON.stringify(url)}, ${options}).then(async (r) => ({ status: r.status, body: await r.json() }))`) as Promise<{
    status: number;
    body: any;
  }>;
}

/** Another visitor's hold on the slot at `from`, taken through the booking site from `page`. */
async function holdElsewhere(page: Page, site: string, serviceId: number, from: string) {
  const slots = await siteFetch(page, `${site}/services/${serviceId}/slots?from=${DAY}&to=${DAY}`, { method: "GET" });
  const slot = slots.body.map((s: any) => s.slot).find((s: any) => s.timestamp === from);
  const hold = await siteFetch(page, `${site}/slots/holds`, {
    method: "POST",
    body: { slot_hold: { service_id: serviceId, booked_from: from, booked_to: slot.timestamp_end } },
  });
  expect(hold.status, JSON.stringify(hold.body)).toBe(200);
  return { id: hold.body.slot_hold.id as number, secret: hold.body.hold_secret as string };
}

/** Resolves with the hold the page's own POST /slots/holds answered (its id and secret). */
const nextHold = (page: Page) =>
  page
    .waitForResponse((r) => r.url().endsWith("/slots/holds") && r.request().method() === "POST")
    .then(async (r) => {
      expect(r.status()).toBe(200);
      const body = await r.json();
      return { id: body.slot_hold.id as number, secret: body.hold_secret as string };
    });

describe("slot holds on the booking page", () => {
  it("holds the picked time with a countdown, releases it on back, shows the lapse, and books with the hold", async () => {
    const { subdomain, serviceId, key } = await bookableAccount();
    await enableSlotHolds(key, 2);
    const origin = siteOrigin(subdomain);
    const page = await browser.newPage();
    await page.evaluateOnNewDocument(JUMPABLE_CLOCK);
    await page.goto(`${origin}/?service=${serviceId}&day=${DAY}`);
    const from = await page.$eval("a.slot", (a: any) => new URL(a.href).searchParams.get("slot")!);
    await expectFreeSeats(key, serviceId, from, 1);

    await Promise.all([page.waitForNavigation(), page.click("a.slot")]);
    const holdText = () => page.$eval("#slot-hold", (e: any) => e.textContent ?? "");
    await page.waitForFunction(`/^We hold/.test(document.getElementById("slot-hold").textContent)`);
    const first = secondsIn(await holdText());
    expect(first).toBeGreaterThan(100); // two minutes, less the time since the answer
    expect(first).toBeLessThanOrEqual(120);
    await expectFreeSeats(key, serviceId, from, 0);
    await page.waitForFunction(
      `(() => { const m = ${HOLD_TEXT}.exec(document.getElementById("slot-hold").textContent);
      return m && Number(m[1]) * 60 + Number(m[2]) < ${first}; })()`,
      { polling: 100, timeout: 5_000 },
    );

    // The back link leaves the form: the hold is released as the page goes.
    await Promise.all([page.waitForNavigation(), page.click('a[href="/"]')]);
    await expectFreeSeats(key, serviceId, from, 1);

    await page.goto(`${origin}/?service=${serviceId}&day=${DAY}`);
    const held = nextHold(page);
    await Promise.all([page.waitForNavigation(), page.click("a.slot")]);
    const hold = await held;
    await page.waitForFunction(`/^We hold/.test(document.getElementById("slot-hold").textContent)`);
    await expectFreeSeats(key, serviceId, from, 0);
    await page.evaluate("jumpClock(3 * 60_000)");
    await page.waitForFunction(`document.getElementById("slot-hold").textContent === ${JSON.stringify(LAPSED_TEXT)}`, { polling: 100, timeout: 5_000 });
    expect(await page.$eval("#slot-hold", (e) => e.getAttribute("role"))).toBe("alert");

    const bookingBodies: any[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().endsWith("/bookings")) bookingBodies.push(JSON.parse(r.postData() ?? "{}"));
    });
    await page.type("#f-name", "Nora");
    await page.type("#f-email", "nora@example.com");
    await Promise.all([page.waitForNavigation(), page.click("#book-form button[type=submit]")]);
    expect(bookingBodies.map((b) => b.hold_secret)).toEqual([hold.secret]);
    expect(await page.$eval("#booking-state", (e) => e.getAttribute("data-state"))).toBe("awaiting_verification");
    // The booking took the held seat (the page's clock lapsed, the server's hold had not).
    expect((await siteFetch(page, `/slots/holds/${hold.id}`, { method: "GET", secret: hold.secret })).body.slot_hold.ended).toBe("converted");
    await expectFreeSeats(key, serviceId, from, 0);
    await page.close();
  });

  it("sends the visitor back to the day with the refusal when the time was taken after the page was drawn", async () => {
    const { subdomain, serviceId, key } = await bookableAccount("10:00"); // one seat, one slot a day
    await enableSlotHolds(key, 5);
    const origin = siteOrigin(subdomain);
    const [other, page] = await Promise.all([browser.newPage(), browser.newPage()]);
    await other.goto(`${origin}/?service=${serviceId}&day=${DAY}`);
    const from = await other.$eval("a.slot", (a: any) => new URL(a.href).searchParams.get("slot")!);

    // The page is drawn with the time free; its hold is let through only once another holds it.
    await page.setRequestInterception(true);
    let release!: () => void;
    const otherHolds = new Promise<void>((r) => {
      release = r;
    });
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().endsWith("/slots/holds")) void otherHolds.then(() => r.continue());
      else void r.continue();
    });
    await page.goto(`${origin}/?service=${serviceId}&day=${DAY}&slot=${encodeURIComponent(from)}`);
    expect(await page.$("#book-form")).not.toBeNull();
    const theirs = await holdElsewhere(other, origin, serviceId, from);
    await Promise.all([page.waitForNavigation(), release()]);

    expect(new URL(page.url()).searchParams.get("taken")).toBe("1");
    expect(await page.$eval("#taken-notice", (e: any) => e.textContent)).toBe(
      "That time was just taken. Please choose another. (is not available: the resource is fully booked at this time)",
    );
    expect(await page.$$eval(".slot.full", (s) => s.map((e: any) => e.textContent))).toEqual(["09:00 taken"]);
    await siteFetch(other, `/slots/holds/${theirs.id}`, { method: "DELETE", secret: theirs.secret });
    await expectFreeSeats(key, serviceId, from, 1);
    await Promise.all([other.close(), page.close()]);
  });
});

describe("slot holds in the widget on another website", () => {
  const host = useHostWebsite();

  /** The host page with the widget, its errors collected, and a poll for elements in its shadow root. */
  async function widgetPage(subdomain: string, serviceId: number) {
    host.serve(`<!doctype html><title>My salon</title><h1>Book with us</h1>
<script src="${siteOrigin(subdomain)}/widget.js"></script>
<booking-widget service-id="${serviceId}"></booking-widget>`);
    const page = await browser.newPage();
    const problems: string[] = [];
    page.on("pageerror", (e) => problems.push(String(e)));
    page.on("console", (m) => {
      if (m.type() === "error") problems.push(m.text());
    });
    await page.evaluateOnNewDocument(JUMPABLE_CLOCK);
    const shadow = (selector: string) => `document.querySelector("booking-widget")?.shadowRoot?.querySelector(${JSON.stringify(selector)})`;
    const inWidget = async (selector: string) => {
      await page.waitForFunction(`!!${shadow(selector)}`, { polling: 100, timeout: 20_000 }).catch((e) => {
        throw new Error(`${selector}: ${e} ${problems.join(" | ")}`);
      });
      return (await page.evaluateHandle(shadow(selector))).asElement() as ElementHandle<Element>;
    };
    const textOf = (selector: string) => page.evaluate(`${shadow(selector)}?.textContent ?? ""`) as Promise<string>;
    /** Opens the day of DAY in the widget and answers the first slot's timestamp. */
    const openDay = async () => {
      await page.goto(host.origin);
      await inWidget("nav");
      if (!(await page.evaluate(`!!${shadow(`button[data-date="${DAY}"]`)}`))) await (await inWidget("nav button:last-child")).click();
      await (await inWidget(`button[data-date="${DAY}"]`)).click();
      return (await inWidget("button[data-timestamp]")).evaluate((b) => b.getAttribute("data-timestamp")!);
    };
    return { page, problems, inWidget, textOf, shadow, openDay };
  }

  it("holds the picked time with a countdown, releases it on back, shows the lapse, and books with the hold", async () => {
    const { subdomain, serviceId, key } = await bookableAccount();
    await enableSlotHolds(key, 2);
    const { page, problems, inWidget, textOf, shadow, openDay } = await widgetPage(subdomain, serviceId);
    const from = await openDay();
    await expectFreeSeats(key, serviceId, from, 1);

    await (await inWidget("button[data-timestamp]")).click();
    await page.waitForFunction(`/^We hold/.test(${shadow("[role=timer]")}?.textContent)`, { polling: 100, timeout: 10_000 });
    const first = secondsIn(await textOf("[role=timer]"));
    expect(first).toBeGreaterThan(100);
    expect(first).toBeLessThanOrEqual(120);
    await expectFreeSeats(key, serviceId, from, 0);
    await page.waitForFunction(
      `(() => { const m = ${HOLD_TEXT}.exec(${shadow("[role=timer]")}?.textContent);
      return m && Number(m[1]) * 60 + Number(m[2]) < ${first}; })()`,
      { polling: 100, timeout: 5_000 },
    );

    // The widget's back button releases the hold before it reads the day again.
    await (await inWidget("button")).click(); // the first button of the form view: "← Back"
    await inWidget("button[data-timestamp]");
    await expectFreeSeats(key, serviceId, from, 1);

    const held = nextHold(page);
    await (await inWidget("button[data-timestamp]")).click();
    const hold = await held;
    await inWidget("[role=timer]");
    await expectFreeSeats(key, serviceId, from, 0);
    await page.evaluate("jumpClock(3 * 60_000)");
    await page.waitForFunction(`${shadow(".notice")}?.textContent === ${JSON.stringify(LAPSED_TEXT)}`, { polling: 100, timeout: 5_000 });
    expect(await page.evaluate(`${shadow(".notice")}.getAttribute("role")`)).toBe("alert");

    const bookingBodies: any[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().endsWith("/bookings")) bookingBodies.push(JSON.parse(r.postData() ?? "{}"));
    });
    await (await inWidget("#w-name")).type("Kari");
    await (await inWidget("#w-email")).type("kari@example.com");
    await (await inWidget("button[type=submit]")).click();
    await inWidget('.state[data-state="awaiting_verification"]');
    expect(bookingBodies.map((b) => b.hold_secret)).toEqual([hold.secret]);
    const read = await siteFetch(page, `${siteOrigin(subdomain)}/slots/holds/${hold.id}`, { method: "GET", secret: hold.secret });
    expect(read.body.slot_hold.ended).toBe("converted");
    await expectFreeSeats(key, serviceId, from, 0);
    expect(problems).toEqual([]);
    await page.close();
  });

  it("goes back to the day with the refusal when another holds the time first", async () => {
    const { subdomain, serviceId, key } = await bookableAccount("10:00");
    await enableSlotHolds(key, 5);
    const { page, problems, inWidget, textOf, openDay } = await widgetPage(subdomain, serviceId);
    const from = await openDay();
    const site = siteOrigin(subdomain);
    const theirs = await holdElsewhere(page, site, serviceId, from);

    await (await inWidget("button[data-timestamp]")).click();
    await inWidget(".notice[role=alert]");
    expect(await textOf(".notice[role=alert]")).toBe("That time was just taken. Please choose another. (is not available: the resource is fully booked at this time)");
    expect(await textOf(".slot.full")).toBe("09:00 taken");
    await siteFetch(page, `${site}/slots/holds/${theirs.id}`, { method: "DELETE", secret: theirs.secret });
    await expectFreeSeats(key, serviceId, from, 1);
    // Chromium logs the refused hold's 400 to the console; nothing else may go wrong.
    expect(problems.filter((p) => !p.includes("status of 400"))).toEqual([]);
    await page.close();
  });
});
