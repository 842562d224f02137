// The API reference page (GET /api/v1/docs) in a real browser that may reach nothing but this
// machine: it is rendered on the server and runs no script, so it shows the operations offline.
import type { Browser } from "puppeteer-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchBrowser, port } from "./support";

let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
});

const isLoopback = (hostname: string) => hostname === "127.0.0.1" || hostname === "localhost" || hostname.endsWith(".localhost");

describe("the API reference page", () => {
  it("renders the document's operations with every request off this machine refused, within its CSP", async () => {
    const origin = `http://127.0.0.1:${port()}`;
    const doc = (await (await fetch(`${origin}/api/v1/openapi.json`, { headers: { "user-agent": "booking-browser-tests/1.0" } })).json()) as any;
    // The first tag's first operation, which the reference opens on load; read from the document
    // so the test follows its wording.
    const summary: string = doc.paths["/api/v1/openapi.json"].get.summary;

    const page = await browser.newPage();
    const refused: string[] = [];
    const violations: string[] = [];
    await page.setRequestInterception(true);
    page.on("request", (request) => {
      const url = new URL(request.url());
      // data: and blob: URLs never leave the browser; everything else must stay on this machine.
      if (url.protocol === "data:" || url.protocol === "blob:" || isLoopback(url.hostname)) {
        void request.continue();
      } else {
        refused.push(request.url());
        void request.abort("blockedbyclient");
      }
    });
    page.on("console", (message) => {
      if (message.text().includes("Content Security Policy")) violations.push(message.text());
    });

    await page.goto(`${origin}/api/v1/docs`);
    // Strings, not functions: the tests compile without the DOM's types.
    await page.waitForFunction(`document.body.innerText.includes(${JSON.stringify(summary)})`, { timeout: 60_000 });
    const text = await page.evaluate<[], () => string>("document.body.innerText");
    for (const path of ["/api/v1/openapi.json", "/api/v1/docs", "/health"]) expect(text).toContain(path);
    expect(refused).toEqual([]);
    expect(violations).toEqual([]);
    await page.close();
  });
});
