// Issue 41, locally: the dev server sends over real SMTP to the mail catcher (dev-server.ts), so a
// visitor's verification code is read where a person would read it, in the inbox, and the e-mails'
// HTML parts are checked there by axe as a mail client would show them.
import PostalMime from "postal-mime";
import type { Browser, Page } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { inject } from "vitest";
import { axeViolations, bookableAccount, DAY, inboxMail, type InboxMail, launchBrowser, privateApi, siteOrigin } from "./support";

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const stateOf = (page: Page) => page.$eval("#booking-state", (e) => e.getAttribute("data-state"));

/**
 * The e-mail's HTML part in its own tab, as the inbox serves it (maildev sanitises it first) or
 * as it was sent (read from the message's source with a MIME parser); answers axe's violations.
 */
async function violationsOfHtmlPart(mail: InboxMail, as: "served" | "sent") {
  const page = await browser.newPage();
  try {
    if (as === "served") {
      const res = await page.goto(`${inject("mailInbox")}/api/email/${mail.id}/html`);
      expect(res?.status()).toBe(200);
    } else {
      const source = await fetch(`${inject("mailInbox")}/api/email/${mail.id}/source`);
      expect(source.status).toBe(200);
      const parsed = await PostalMime.parse(await source.text());
      await page.setContent(parsed.html!);
    }
    // The page is the e-mail's own layout (html.ts), not an error or the inbox's frame around it.
    expect(await page.$eval("html", (e) => e.getAttribute("lang"))).toBe("en");
    expect(await page.$eval("h1", (e) => e.textContent)).toBe(mail.subject);
    return await axeViolations(page);
  } finally {
    await page.close();
  }
}

describe("the booking page of an account that verifies by e-mail, with the local inbox", () => {
  it("takes the code the visitor reads in the inbox and confirms; both e-mails' HTML pass axe", async () => {
    const { subdomain, serviceId, key } = await bookableAccount();
    const email = `inbox-${subdomain}@example.com`;
    const page = await browser.newPage();
    await page.goto(`${siteOrigin(subdomain)}/?service=${serviceId}&day=${DAY}`);
    await Promise.all([page.waitForNavigation(), page.click("a.slot")]);
    await page.type("#f-name", "Ingrid");
    await page.type("#f-email", email);
    await Promise.all([page.waitForNavigation(), page.click("#book-form button[type=submit]")]);
    const id = Number(new URL(page.url()).searchParams.get("booking"));
    expect(await stateOf(page)).toBe("awaiting_verification");

    const verification = await inboxMail(email, /^Verify your booking/);
    const code = /code is (\d{5})/.exec(verification.text)?.[1];
    expect(code, verification.text).toMatch(/^\d{5}$/);
    // The same code in the HTML part, and no invitation: nothing is booked yet.
    expect(verification.html).toContain(`code is ${code}`);
    expect(verification.attachments ?? []).toEqual([]);

    await page.type("#f-code", code!);
    await Promise.all([page.waitForNavigation(), page.click("#verify-form button[type=submit]")]);
    expect(await stateOf(page)).toBe("confirmed");
    expect((await privateApi(key, "GET", `/bookings/${id}`)).booking.state).toBe("confirmed");
    await page.close();

    const confirmation = await inboxMail(email, /is confirmed$/);
    expect(confirmation.attachments?.map((a) => [a.filename, a.contentType])).toEqual([["invite.ics", expect.stringMatching(/^text\/calendar/)]]);
    for (const mail of [verification, confirmation]) {
      expect(await violationsOfHtmlPart(mail, "served"), `${mail.subject}, as the inbox shows it`).toEqual([]);
      expect(await violationsOfHtmlPart(mail, "sent"), `${mail.subject}, as sent`).toEqual([]);
    }
  });
});
