// The MCP tools (features/mcp), each a `tools/call` of its own on the endpoint that offers it: the
// booking site's `/mcp` and the private API's `/api/v1/mcp`; and each endpoint's handshake
// (`initialize`, `tools/list`). Stateless: a call needs no handshake first.
import { addDays } from "../../src/domain/time";
import { confirmedBooking, unconfirmedBooking, unverifiedBooking, visitorBooking } from "./shop";
import type { Kind, RouteEntry, Shop, Wire } from "./types";

type Endpoint = "site" | "private";

const MCP_HEADERS = { accept: "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25" };
const ENDPOINT = { site: { operation: "POST /mcp" }, private: { operation: "POST /api/v1/mcp" } };

function rpc(s: Shop, endpoint: Endpoint, method: string, params?: unknown): Wire {
  const message = { jsonrpc: "2.0", id: s.next(), method, ...(params ? { params } : {}) };
  return endpoint === "site" ? s.site("POST", "/mcp", message, MCP_HEADERS) : s.api("POST", "/mcp", message, MCP_HEADERS);
}

function entry<P = undefined>(endpoint: Endpoint, label: string, kind: Kind, rest: Pick<RouteEntry<P>, "prepare" | "request" | "cleanup">): RouteEntry<P> {
  return { name: `mcp ${label} (${endpoint})`, surface: "mcp", operation: ENDPOINT[endpoint].operation, kind, ...rest };
}

/** A `tools/call` of `tool` with the arguments the prepared value gives. */
const tool = <P = undefined>(
  endpoint: Endpoint,
  name: string,
  kind: Kind,
  args: (s: Shop, prepared: P) => Record<string, unknown>,
  rest: Pick<RouteEntry<P>, "prepare" | "cleanup"> = {},
) => entry<P>(endpoint, name, kind, { ...rest, request: (s, prepared) => rpc(s, endpoint, "tools/call", { name, arguments: args(s, prepared) }) });

const resultOf = (text: string) => JSON.parse(text).result.structuredContent;

function shared(endpoint: Endpoint): RouteEntry[] {
  const holdArgs = (s: Shop) => {
    const slot = s.nextSlot();
    return { service_id: s.ids.cut, booked_from: slot.from, booked_to: slot.to };
  };
  return [
    entry(endpoint, "initialize", "read", {
      request: (s) => rpc(s, endpoint, "initialize", { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "routes-bench", version: "1.0" } }),
    }),
    entry(endpoint, "tools/list", "read", { request: (s) => rpc(s, endpoint, "tools/list") }),
    tool(endpoint, "list_services", "read", () => ({})),
    tool(endpoint, "find_available_dates", "read", (s) => ({ service_id: s.ids.cut, from: s.firstDay, to: addDays(s.firstDay, 30) })),
    tool(endpoint, "find_times", "read", (s) => ({ service_id: s.ids.cut, from: s.firstDay })),
    tool(endpoint, "hold_time", "write", holdArgs, {
      // A visitor may hold 3 times at once, an account 50: each is released again.
      cleanup: async (s, reply) => {
        const { slot_hold: hold, hold_secret: secret } = resultOf(reply.text);
        await s.must(s.site("DELETE", `/slots/holds/${hold.id}`, undefined, { "x-hold-secret": secret }));
      },
    }),
    tool<{ id: number; secret: string }>(endpoint, "release_hold", "write", (_, hold) => ({ hold_id: hold.id, hold_secret: hold.secret }), {
      prepare: async (s) => {
        const made = await s.must(s.site("POST", "/slots/holds", { slot_hold: holdArgs(s) }));
        return { id: made.slot_hold.id, secret: made.hold_secret };
      },
    }),
  ];
}

const visitor = (s: Shop, n = s.next()) => ({ name: `Assistant visitor ${n}`, email: `assistant${n}@example.com` });
const bookArgs = (s: Shop) => {
  const slot = s.nextSlot();
  return { booking: { service_id: s.ids.cut, booked_from: slot.from, booked_to: slot.to, person_attributes: visitor(s) } };
};

const siteTools: RouteEntry[] = [
  ...shared("site"),
  tool("site", "book", "write", bookArgs),
  tool<{ id: number; token: string; code: string }>(
    "site",
    "verify_booking",
    "write",
    (_, b) => ({ booking_id: b.id, booking_token: b.token, verification_code: b.code }),
    {
      prepare: async (s) => {
        const booking = await visitorBooking(s);
        return { ...booking, code: (await s.must(s.api("GET", `/bookings/${booking.id}`))).booking.verification_code };
      },
    },
  ),
  tool("site", "show_booking", "read", (s) => ({ booking_id: s.ids.siteBooking.id, booking_token: s.ids.siteBooking.token })),
  tool<{ id: number; token: string }>("site", "cancel_booking", "write", (_, b) => ({ booking_id: b.id, booking_token: b.token }), { prepare: (s) => visitorBooking(s) }),
  tool<{ id: number; token: string }>(
    "site",
    "move_booking",
    "write",
    (s, b) => {
      const slot = s.nextSlot();
      return { booking_id: b.id, booking_token: b.token, booking: { booked_from: slot.from, booked_to: slot.to } };
    },
    { prepare: (s) => visitorBooking(s) },
  ),
];

const privateTools: RouteEntry[] = [
  ...shared("private"),
  tool("private", "book", "write", (s) => {
    const { booking } = bookArgs(s);
    return { booking: { ...booking, resource_id: s.ids.room } };
  }),
  tool<{ id: number; verification_code: string }>("private", "verify_booking", "write", (_, b) => ({ booking_id: b.id, verification_code: b.verification_code }), {
    prepare: unverifiedBooking,
  }),
  tool("private", "get_booking", "read", (s) => ({ booking_id: s.ids.booking })),
  tool("private", "list_bookings", "read", () => ({ listing: "upcoming" })),
  tool<number>("private", "confirm_booking", "write", (_, id) => ({ booking_id: id }), { prepare: unconfirmedBooking }),
  tool<number>("private", "decline_booking", "write", (_, id) => ({ booking_id: id }), { prepare: unconfirmedBooking }),
  tool<number>("private", "cancel_booking", "write", (_, id) => ({ booking_id: id }), { prepare: confirmedBooking }),
  tool("private", "list_people", "read", () => ({ search: "Nordmann" })),
  tool("private", "get_person", "read", (s) => ({ person_id: s.ids.kari })),
];

export const mcpEntries: RouteEntry[] = [...siteTools, ...privateTools];
