// Bookings on the private API (/bookings, /people/{id}/bookings, /events/{id}/bookings) and on the
// booking site, where a visitor reaches only the booking their token opens.
import { nationalIdKeys } from "../../config";
import { Hono, type Context } from "hono";
import type { Booking } from "../../db/schema";
import type { AppEnv } from "../../env";
import { wrap } from "../../http/envelope";
import { BOOKINGS_PAGE_SIZE, pageRequest, setPageHeaders } from "../../http/pagination";
import { body, params, query } from "../../http/validate";
import { deps } from "../deps";
import {
  actionBody,
  checkoutBody,
  createBookingBody,
  recordPaymentBody,
  listQuery,
  showQuery,
  siteMoveBody,
  siteVerifyCodeBody,
  statusBody,
  updateBookingBody,
  verifyCodeBody,
  type ListQuery,
} from "./schema";
import { listAnswer } from "./list-answer";
import { bookingWithTokenAndRelated, cancelOnSite, checkoutOnSite, createOnSite, verifyOnSite } from "./site";
import { toBookingJson, toPublicBookingJson } from "./serializer";
import {
  createBooking,
  getBookingByExternalId,
  getBookingWithRelated,
  LISTINGS,
  loadRelated,
  setStatus,
  transition,
  updateBooking,
  verifyWithCode,
  type Listing,
  type Owner,
} from "./service";

type C = Context<AppEnv>;

async function one(c: C, booking: Booking, extended = false) {
  const related = await loadRelated(deps(c), [booking]);
  return c.json(wrap("booking", toBookingJson(booking, related, { timeZone: c.var.account.time_zone, now: c.var.now, extended, keys: nationalIdKeys(c.env) })));
}

/** A page of a listing: its body text is often the isolate's cached answer (list-answer.ts). */
async function page(c: C, listing: Listing, q: ListQuery, owner?: Owner) {
  const request = pageRequest(q.page, BOOKINGS_PAGE_SIZE, q.cursor);
  const answer = await listAnswer(deps(c), listing, q, request, owner);
  // The links echo the request's own URL, so they are written per request, never cached.
  setPageHeaders(c, request, answer.total, answer.pageItems, answer.nextCursor);
  return c.body(answer.body, 200, { "Content-Type": "application/json" });
}

export const bookingRoutes = new Hono<AppEnv>();

bookingRoutes.get("/", query(listQuery), (c) => page(c, "active", c.req.valid("query")));
for (const listing of LISTINGS.filter((l) => l !== "active")) {
  bookingRoutes.get(`/${listing}`, query(listQuery), (c) => page(c, listing, c.req.valid("query")));
}

bookingRoutes.get("/find_by/external_id/:external_id", query(showQuery), async (c) =>
  one(c, await getBookingByExternalId(deps(c), c.req.param("external_id")), c.req.valid("query").extended),
);

bookingRoutes.get("/:id", params("id"), query(showQuery), async (c) =>
  one(c, await getBookingWithRelated(deps(c), c.req.valid("param").id), c.req.valid("query").extended),
);

bookingRoutes.post("/", body(createBookingBody, { root: "booking" }), async (c) =>
  one(c, await createBooking(deps(c), c.req.valid("json")), c.req.valid("json").extended),
);

bookingRoutes.put("/:id", params("id"), body(updateBookingBody, { root: "booking" }), async (c) =>
  one(c, await updateBooking(deps(c), c.req.valid("param").id, c.req.valid("json")), c.req.valid("json").extended),
);

for (const action of ["verify", "confirm", "decline", "cancel"] as const) {
  bookingRoutes.put(`/:id/${action}`, params("id"), body(actionBody), async (c) => {
    const { extended, ...flags } = c.req.valid("json");
    return one(c, await transition(deps(c), c.req.valid("param").id, action, flags), extended);
  });
}

// Paid bookings (docs/decisions/payments.md): the checkout again, or a payment taken elsewhere.
bookingRoutes.post("/:id/checkout", params("id"), body(checkoutBody), async (c) => {
  const { resumeCheckout, integratorReturnPages } = await import("../payments/checkout");
  const { checkout, extended } = c.req.valid("json");
  const booking = await getBookingWithRelated(deps(c), c.req.valid("param").id);
  return one(c, await resumeCheckout(deps(c), booking, integratorReturnPages(deps(c), checkout ?? true)), extended);
});

bookingRoutes.post("/:id/payment", params("id"), body(recordPaymentBody), async (c) => {
  const { recordPayment } = await import("../payments/record");
  const { payment, extended } = c.req.valid("json");
  return one(c, await recordPayment(deps(c), c.req.valid("param").id, payment.reference), extended);
});

bookingRoutes.put("/:id/verify_code", params("id"), body(verifyCodeBody), async (c) => {
  const { extended, verification_code, ...flags } = c.req.valid("json");
  return one(c, await verifyWithCode(deps(c), c.req.valid("param").id, verification_code, flags), extended);
});

bookingRoutes.put("/:id/status", params("id"), body(statusBody), async (c) => {
  const { status, extended } = c.req.valid("json");
  return one(c, await setStatus(deps(c), c.req.valid("param").id, status ?? null), extended);
});

bookingRoutes.delete("/:id", params("id"), body(actionBody), async (c) => {
  const { extended, ...flags } = c.req.valid("json");
  return one(c, await transition(deps(c), c.req.valid("param").id, "delete", flags), extended);
});

/** `/people/{id}/bookings[/<listing>]`: mounted at /people before the people feature. */
export const personBookingRoutes = new Hono<AppEnv>();

personBookingRoutes.get("/:id/bookings", params("id"), query(listQuery), (c) => page(c, "active", c.req.valid("query"), { kind: "person", id: c.req.valid("param").id }));

for (const listing of LISTINGS.filter((l) => l !== "active")) {
  personBookingRoutes.get(`/:id/bookings/${listing}`, params("id"), query(listQuery), (c) =>
    page(c, listing, c.req.valid("query"), { kind: "person", id: c.req.valid("param").id }),
  );
}

/** `/events/{id}/bookings`: mounted at /events. */
export const eventBookingRoutes = new Hono<AppEnv>();

eventBookingRoutes.get("/:id/bookings", params("id"), query(listQuery), (c) => page(c, "active", c.req.valid("query"), { kind: "event", id: c.req.valid("param").id }));

/**
 * The booking site: create under the public rules, and the visitor's own booking through the
 * token POST answers (`X-Booking-Token`), always without private fields.
 */
export const publicBookingRoutes = new Hono<AppEnv>();

const BOOKING_TOKEN_HEADER = "x-booking-token";

async function onSite(c: C, booking: Booking, extra: Record<string, unknown> = {}) {
  const related = await loadRelated(deps(c), [booking]);
  return c.json({
    ...wrap("booking", toPublicBookingJson(booking, related, { timeZone: c.var.account.time_zone, now: c.var.now, extended: false, keys: nationalIdKeys(c.env) })),
    ...extra,
  });
}

const siteOrigin = (c: C) => new URL(c.req.url).origin;
const tokenOf = (c: C) => c.req.header(BOOKING_TOKEN_HEADER);

publicBookingRoutes.post("/", body(createBookingBody, { root: "booking" }), async (c) => {
  const { booking, token } = await createOnSite(deps(c), c.req.valid("json"), siteOrigin(c));
  return onSite(c, booking, { booking_token: token });
});

publicBookingRoutes.get("/:id", params("id"), async (c) => onSite(c, await bookingWithTokenAndRelated(deps(c), c.req.valid("param").id, tokenOf(c))));

publicBookingRoutes.put("/:id/verify_code", params("id"), body(siteVerifyCodeBody), async (c) =>
  onSite(c, await verifyOnSite(deps(c), c.req.valid("param").id, tokenOf(c), c.req.valid("json").verification_code, siteOrigin(c))),
);

// Back from an abandoned checkout: the same booking's checkout again (docs/decisions/payments.md).
publicBookingRoutes.post("/:id/checkout", params("id"), async (c) => onSite(c, await checkoutOnSite(deps(c), c.req.valid("param").id, tokenOf(c), siteOrigin(c))));

publicBookingRoutes.put("/:id/cancel", params("id"), async (c) => onSite(c, await cancelOnSite(deps(c), c.req.valid("param").id, tokenOf(c), siteOrigin(c))));

// The visitor moves their booking to another time of its service (docs/decisions/booking-site.md).
publicBookingRoutes.put("/:id/move", params("id"), body(siteMoveBody, { root: "booking" }), async (c) => {
  const { moveOnSite } = await import("./move");
  return onSite(c, await moveOnSite(deps(c), c.req.valid("param").id, tokenOf(c), c.req.valid("json"), siteOrigin(c)));
});
