// The booking site's page (GET /), its stylesheet and script, and the embeddable widget script.
import { Hono } from "hono";
import { secureHeaders } from "hono/secure-headers";
import type { AppEnv } from "../../env";
import { deps } from "../deps";
import { PAGE_CSS, PAGE_JS } from "./page-assets";
import { holdsSlots, loadPage, pageQuery } from "./page-data";
import { Page } from "./view";
import { widgetScript } from "./widget-asset";
import { wordsFor } from "./words";
import { visitorMayMove } from "../bookings/site";

/**
 * Nothing inline, nothing from elsewhere: the page's own script, stylesheet and API. `data:` images
 * only; no framing; forms post nowhere but here; no referrer, since a booking link carries its token.
 */
const strictPage = secureHeaders({
  contentSecurityPolicy: {
    defaultSrc: ["'none'"],
    scriptSrc: ["'self'"],
    styleSrc: ["'self'"],
    imgSrc: ["'self'", "data:"],
    connectSrc: ["'self'"],
    formAction: ["'self'"],
    baseUri: ["'none'"],
    frameAncestors: ["'none'"],
  },
  referrerPolicy: "no-referrer",
});

/** Any website may load the widget's script, so it is a cross-origin resource (CORP) by design. */
const embeddable = secureHeaders({ crossOriginResourcePolicy: "cross-origin", referrerPolicy: "no-referrer" });

const ASSET_CACHE = "public, max-age=300";

export const bookingPageRoutes = new Hono<AppEnv>();

bookingPageRoutes.get("/", strictPage, async (c) => {
  const q = pageQuery(c.req.query());
  const data = await loadPage(deps(c), q);
  const { account, now } = c.var;
  // A booking view holds the visitor's data and its link a token: never kept by a cache.
  c.header("Cache-Control", "no-store");
  return c.html(
    `<!doctype html>${<Page data={data} ctx={{ account, now, w: wordsFor(account.locale), host: new URL(c.req.url).hostname, taken: q.taken, payment: q.payment, moved: q.moved, token: q.token }} />}`,
  );
});

bookingPageRoutes.get("/booking-page.js", strictPage, (c) => {
  c.header("Cache-Control", ASSET_CACHE);
  return c.body(PAGE_JS, 200, { "Content-Type": "text/javascript; charset=utf-8" });
});

bookingPageRoutes.get("/booking-page.css", strictPage, (c) => {
  c.header("Cache-Control", ASSET_CACHE);
  return c.body(PAGE_CSS, 200, { "Content-Type": "text/css; charset=utf-8" });
});

bookingPageRoutes.get("/widget.js", embeddable, (c) => {
  c.header("Cache-Control", ASSET_CACHE);
  const { account } = c.var;
  return c.body(widgetScript(wordsFor(account.locale), account.time_zone, holdsSlots(account), account.waitlist_enabled, visitorMayMove(account)), 200, {
    "Content-Type": "text/javascript; charset=utf-8",
  });
});
