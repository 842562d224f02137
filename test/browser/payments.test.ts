// A person pays for a booking in a real browser: on the booking page and with the widget on another
// website, through the Stripe stand-in's checkout page and back to the booking page, which says it
// is confirming the payment until the server has its event (held meanwhile, so the page is seen
// waiting) and then shows the booking confirmed; a paid booking cancelled on the page shows its
// refund. axe-core finds nothing on each of the new views.
import { mkdirSync } from "node:fs";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { axeViolations, DAY, inWidget, launchBrowser, paidAccount, privateApi, siteOrigin, useHostWebsite, withPaymentEventsHeld } from "./support";

const SCREENSHOTS = "test/browser/screenshots";
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
  mkdirSync(SCREENSHOTS, { recursive: true });
});

afterAll(async () => {
  await browser?.close();
});

/**
 * The page's errors and failed requests, which a test expects to be none; but for the stand-in's
 * answer to the icon Chromium asks its checkout page for (a 401: it serves only its API and pages).
 */
function problemsOf(page: Page): string[] {
  const problems: string[] = [];
  const standInIcon = `${inject("stripeOrigin")}/favicon.ico`;
  page.on("pageerror", (e) => problems.push(String(e)));
  page.on("console", (m) => {
    if (m.type() === "error" && m.location().url !== standInIcon) problems.push(`${m.text()} ${m.location().url ?? ""}`);
  });
  return problems;
}

const text = (page: Page, selector: string) => page.$eval(selector, (e) => e.textContent?.trim());
const stateOf = (page: Page) => page.$eval("#booking-state", (e) => e.getAttribute("data-state"));
const bookingIdOf = (url: string) => Number(new URL(url).searchParams.get("booking"));

/** Books the day's first free slot of the service on the booking page; resolves on the booking's own view. */
async function bookOnPage(page: Page, subdomain: string, serviceId: number, who: string) {
  await page.goto(`${siteOrigin(subdomain)}/?service=${serviceId}&day=${DAY}`);
  await Promise.all([page.waitForNavigation(), page.click("a.slot")]);
  await page.type("#f-name", who);
  await page.type("#f-email", `${who.toLowerCase()}@example.com`);
  await Promise.all([page.waitForNavigation(), page.click("#book-form button[type=submit]")]);
}

/** On the stand-in's checkout page: what it charges, then Pay; resolves on the page it redirects to. */
async function payAtCheckout(page: Page) {
  expect(new URL(page.url()).origin).toBe(inject("stripeOrigin"));
  expect(await page.$eval("dd data", (e) => e.getAttribute("value"))).toBe("45000"); // øre
  await Promise.all([page.waitForNavigation(), page.click("form button[type=submit]")]);
}

/** The page back from the checkout, before the server has the payment: it waits, through more than one poll. */
async function expectConfirming(page: Page, subdomain: string, key: string) {
  expect(new URL(page.url()).origin).toBe(siteOrigin(subdomain));
  expect(new URL(page.url()).searchParams.get("payment")).toBe("return");
  expect(await text(page, "#payment-confirming")).toBe("Confirming your payment…");
  expect(await axeViolations(page)).toEqual([]);
  await new Promise((r) => setTimeout(r, 3_500));
  expect(await text(page, "#payment-confirming")).toBe("Confirming your payment…");
  expect(await stateOf(page)).toBe("awaiting_payment");
  expect((await privateApi(key, "GET", `/bookings/${bookingIdOf(page.url())}`)).booking.state).toBe("awaiting_payment");
}

/** Once the held event is delivered, the next poll reloads the page as the server has it: confirmed and paid. */
async function expectConfirmedAndPaid(page: Page, key: string) {
  await page.waitForSelector('#booking-state[data-state="confirmed"]', { timeout: 15_000 });
  expect(await page.$("#payment-confirming")).toBeNull();
  expect(await page.$("#payment-outcome")).toBeNull();
  expect(await text(page, "#payment-line")).toBe("450.00 NOK · paid");
  expect(await page.$("#ics-link")).not.toBeNull();
  expect(await axeViolations(page)).toEqual([]);
  expect((await privateApi(key, "GET", `/bookings/${bookingIdOf(page.url())}`)).booking).toMatchObject({
    state: "confirmed",
    payment: { status: "paid", amount: "450.00" },
  });
}

describe("paying on the booking page", () => {
  it("books the paid service, pays at the checkout, says it is confirming until the server has the payment, then shows the booking confirmed", async () => {
    const { subdomain, serviceId, key } = await paidAccount();
    const page = await browser.newPage();
    const problems = problemsOf(page);
    await bookOnPage(page, subdomain, serviceId, "Nora");
    expect(await stateOf(page)).toBe("awaiting_payment");
    expect(await text(page, "#payment-line")).toBe("450.00 NOK · not paid yet");
    expect(await text(page, "#pay-link")).toBe("Pay 450.00 NOK");
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}/payment-unpaid.png`, fullPage: true });

    await withPaymentEventsHeld(async () => {
      await Promise.all([page.waitForNavigation(), page.click("#pay-link")]);
      await payAtCheckout(page);
      await expectConfirming(page, subdomain, key);
      await page.screenshot({ path: `${SCREENSHOTS}/payment-confirming.png`, fullPage: true });
    });
    await expectConfirmedAndPaid(page, key);
    await page.screenshot({ path: `${SCREENSHOTS}/payment-confirmed.png`, fullPage: true });
    expect(problems).toEqual([]);
    await page.close();
  });

  it("comes back from a cancelled checkout to Pay again, pays, then cancels the booking and shows its refund", async () => {
    const { subdomain, serviceId, key } = await paidAccount();
    const page = await browser.newPage();
    const problems = problemsOf(page);
    await bookOnPage(page, subdomain, serviceId, "Ola");
    const id = bookingIdOf(page.url());
    await Promise.all([page.waitForNavigation(), page.click("#pay-link")]);
    const firstCheckout = page.url();
    await Promise.all([page.waitForNavigation(), page.click('a[href*="payment=cancelled"]')]);
    expect(await text(page, "#payment-cancelled")).toBe("The payment was not completed. Pay to keep this time.");
    expect(await stateOf(page)).toBe("awaiting_payment");
    expect(await axeViolations(page)).toEqual([]);

    // Pay asks the server for the booking's checkout: the session is still open, so the same one.
    await Promise.all([page.waitForNavigation(), page.click("#pay-link")]);
    expect(page.url()).toBe(firstCheckout);
    await payAtCheckout(page);
    await expectConfirmedAndPaid(page, key);

    await Promise.all([page.waitForNavigation(), page.click("#cancel-button")]);
    expect(await stateOf(page)).toBe("cancelled");
    expect(await page.$eval("#payment-line", (e: any) => [e.getAttribute("data-status"), e.textContent])).toEqual(["refunded", "Refunded 450.00 NOK"]);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}/payment-refunded.png`, fullPage: true });
    expect((await privateApi(key, "GET", `/bookings/${id}`)).booking.payment).toMatchObject({ status: "refunded", amount_refunded: "450.00" });
    expect(problems).toEqual([]);
    await page.close();
  });
});

describe("paying from the widget on another website", () => {
  const host = useHostWebsite();

  it("books the paid service, follows Pay to the checkout in the same tab, and ends on the booking page with the booking confirmed", async () => {
    const { subdomain, serviceId, key } = await paidAccount();
    host.serve(`<!doctype html><html lang="en"><title>My salon</title><main><h1>Book with us</h1>
<script src="${siteOrigin(subdomain)}/widget.js"></script>
<booking-widget service-id="${serviceId}"></booking-widget></main></html>`);
    const page = await browser.newPage();
    const problems = problemsOf(page);
    await page.goto(host.origin);
    await inWidget(page, "nav", problems);
    const hasDay = await page.evaluate(`!!document.querySelector("booking-widget").shadowRoot.querySelector(${JSON.stringify(`button[data-date="${DAY}"]`)})`);
    if (!hasDay) await (await inWidget(page, "nav button:last-child", problems)).click();
    await (await inWidget(page, `button[data-date="${DAY}"]`, problems)).click();
    await (await inWidget(page, "button[data-timestamp]", problems)).click();
    await (await inWidget(page, "#w-name", problems)).type("Kari");
    await (await inWidget(page, "#w-email", problems)).type("kari@example.com");
    await (await inWidget(page, "button[type=submit]", problems)).click();

    await inWidget(page, '.state[data-state="awaiting_payment"]', problems);
    expect(await (await inWidget(page, ".payment")).evaluate((e: any) => e.textContent)).toBe("450.00 NOK · not paid yet");
    const pay = await inWidget(page, "a.pay", problems);
    expect(await pay.evaluate((a: any) => [a.textContent, a.getAttribute("target")])).toEqual(["Pay 450.00 NOK", "_top"]);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: `${SCREENSHOTS}/widget-payment-unpaid.png`, fullPage: true });

    await withPaymentEventsHeld(async () => {
      await Promise.all([page.waitForNavigation(), pay.click()]);
      await payAtCheckout(page);
      await expectConfirming(page, subdomain, key);
    });
    await expectConfirmedAndPaid(page, key);
    expect(problems).toEqual([]);
    await page.close();
  });
});
