// The words the route catalogue is written in: a request as it goes on the wire, its answer, and
// an entry that makes one valid request of one operation against a seeded shop.

/** One request, whoever sends it: the bench over loopback HTTP, the tests through the Worker's entry. */
export interface Wire {
  method: "GET" | "POST" | "PUT" | "DELETE";
  /** Path and query string. */
  path: string;
  /** The booking site's host (`<subdomain>.localhost`); absent: the API's own host. */
  host?: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
}

export type Transport<R extends Reply = Reply> = (wire: Wire) => Promise<R>;

/** Which test file pins an entry: the private API (with the reference routes), the booking site, or MCP. */
export type Surface = "private" | "site" | "mcp";

/** A read may wait once in sequence, a write twice (issue 33). */
export type Kind = "read" | "write";

/** The ids and secrets the shop's setup made, which entries name in their requests. */
export interface ShopIds {
  room: number;
  chair: number;
  hall: number;
  annex: number;
  cut: number;
  trim: number;
  yoga: number;
  massage: number;
  provider: number;
  category: number;
  kari: number;
  child: number;
  event: number;
  booking: number;
  externalId: string;
  message: number;
  bookingFile: string;
  webHook: number;
  delivery: number;
  userLink: number;
  exceptionDate: string;
  annexFeedFile: string;
  roomFeedUrl: string;
  subscription: number;
  bookingCollection: string;
  eventCollection: string;
  hold: number;
  waitlistEntry: number;
  siteBooking: { id: number; token: string };
  sitePaidBooking: { id: number; token: string };
  paidBooking: number;
  siteHold: { id: number; secret: string };
  siteWaitlistEntry: { id: number; token: string };
}

export interface Slot {
  /** Wall times in the shop's zone, as the API reads times without an offset. */
  from: string;
  to: string;
}

/** A seeded shop and what its entries need to make requests (route-catalogue/shop.ts). */
export interface Shop {
  apiKey: string;
  subdomain: string;
  /** The first date entries read and book from: two days after today in the shop's zone. */
  firstDay: string;
  ids: ShopIds;
  /** A number no earlier call answered: unique e-mails, phone numbers, titles. */
  next(): number;
  /** An hour on the room (capacity 1000) no earlier call answered. */
  nextSlot(): Slot;
  /** An hour on the chair (capacity 1), for times an entry fills. */
  nextChairSlot(): Slot;
  /** A request on the private API with the shop's key (JSON body). */
  api(method: Wire["method"], path: string, json?: unknown, headers?: Record<string, string>): Wire;
  /** A request on the shop's booking site (JSON body). */
  site(method: Wire["method"], path: string, json?: unknown, headers?: Record<string, string>): Wire;
  /** A request on the API host without the key (the reference routes, the payment provider's events). */
  root(method: Wire["method"], path: string, body?: string, headers?: Record<string, string>): Wire;
  /** Sends a setup or prepare request (not measured) and answers its JSON; anything but 2xx throws. */
  must(wire: Wire): Promise<any>;
  /** The local Stripe stand-in's test controls (scripts/stripe-stand-in.mjs). */
  stripe(method: "GET" | "POST", path: string, json?: unknown): Promise<any>;
}

export interface RouteEntry<P = any> {
  /** Method and path template (`GET /api/v1/services/{id}`, `GET https://<subdomain>/services`), or `mcp <tool> (<endpoint>)`. */
  name: string;
  surface: Surface;
  /** The operation of the OpenAPI document (src/openapi/operations.ts) it exercises: `POST /api/v1/mcp` for a private tool. */
  operation: string;
  kind: Kind;
  /** Makes what the request consumes (a booking to cancel): its own requests are not measured. */
  prepare?: (shop: Shop) => Promise<P>;
  request: (shop: Shop, prepared: P) => Wire;
  /** Gives back what the measured request took that later ones need (a visitor's live hold): not measured. */
  cleanup?: (shop: Shop, reply: Reply, prepared: P) => Promise<void>;
}
