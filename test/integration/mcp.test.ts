// The MCP endpoint (issue 24, docs/decisions/mcp.md), driven with the SDK's own client: the
// booking site's tools are a visitor's journey under the public rules; the private API's are the
// key's. Every answer is checked against the tool's outputSchema by the client.
import { beforeAll, describe, expect, it } from "vitest";
import { env, newAccount, publicSite, send, type Client } from "../support/api";
import { catalogue, must, rawBooking } from "../support/bookings";
import { mcpClient } from "../support/mcp";
import { messagesOf } from "../support/messages";
import { eventually } from "../support/queues";
import { receiver } from "../support/webhooks";

const DAY = "2030-01-07"; // a Monday
const DRAFT_7 = "http://json-schema.org/draft-07/schema#";
const SITE_TOOLS = ["list_services", "find_available_dates", "find_times", "book", "verify_booking", "show_booking", "cancel_booking", "move_booking"];

interface Shop {
  api: Client;
  subdomain: string;
  accountId: number;
  serviceId: number;
  resourceId: number;
}

/** An account with one chair (one seat) and a 30-minute cut, open 08:00–18:00 every day. */
async function shop(attributes: Record<string, unknown> = {}): Promise<Shop> {
  const { api, account } = await newAccount({ verification_method: 2, ...attributes });
  const make = catalogue(api);
  const chair = await make.resource({ title: "Chair", capacity: 1 });
  const cut = await make.service({ title: "Cut", interval: 30 });
  await make.provider(chair.id, cut.id);
  return { api, subdomain: account.subdomain, accountId: account.id, serviceId: cut.id, resourceId: chair.id };
}

let ipCounter = 0;
const siteMcp = (s: Shop) => mcpClient(`http://${s.subdomain}.localhost/mcp`, { "cf-connecting-ip": `203.0.113.${(ipCounter += 1) % 250}` });
const privateMcp = (s: Shop) => mcpClient("http://api.test/api/v1/mcp", { authorization: `Bearer ${s.api.apiKey}` });

const person = (name: string) => ({ name, email: `${name.toLowerCase()}${Math.random().toString(36).slice(2, 7)}@example.com` });
const bookingsOn = async (resourceId: number) =>
  (await env.DB.prepare("SELECT COUNT(*) AS n FROM bookings WHERE resource_id = ?").bind(resourceId).first<{ n: number }>())!.n;

let salon: Shop;
beforeAll(async () => {
  salon = await shop({ name: "Salon Sol" });
});

describe("tools/list", () => {
  it("offers the visitor's journey on the booking site, and more to the key on the private API", async () => {
    const site = await siteMcp(salon);
    expect(site.tools.map((t) => t.name)).toEqual(SITE_TOOLS);
    expect(site.client.getInstructions()).toContain("Salon Sol");
    expect(site.client.getInstructions()).toContain("Europe/Oslo");
    expect(site.client.getInstructions()).toContain("verified by e-mail");
    const book = site.tools.find((t) => t.name === "book")!;
    expect(book.inputSchema.properties).toHaveProperty("booking");
    expect(book.inputSchema.properties).toHaveProperty("idempotency_key");
    expect(book.outputSchema?.properties).toHaveProperty("booking_token");
    expect(site.tools.find((t) => t.name === "find_times")!.annotations?.readOnlyHint).toBe(true);
    // Draft 7, as the SDK's McpServer lists tools: what draft-7 validators (ajv's default) compile.
    for (const tool of site.tools) {
      expect([tool.name, tool.inputSchema.$schema, tool.outputSchema?.$schema]).toEqual([tool.name, DRAFT_7, DRAFT_7]);
    }

    const api = await privateMcp(salon);
    const names = api.tools.map((t) => t.name);
    expect(names).toEqual(
      expect.arrayContaining([
        "list_services",
        "find_available_dates",
        "find_times",
        "hold_time",
        "release_hold",
        "book",
        "verify_booking",
        "get_booking",
        "list_bookings",
        "confirm_booking",
        "decline_booking",
        "cancel_booking",
        "list_people",
        "get_person",
      ]),
    );
    // The site's token tools have no place where the key opens every booking.
    expect(names).not.toContain("show_booking");
    expect(api.client.getInstructions()).toContain("private booking API of Salon Sol");
  });

  it("offers holds on the site only once the account holds times", async () => {
    const holding = await shop({ slot_holds_enabled: true });
    const site = await siteMcp(holding);
    expect(site.tools.map((t) => t.name)).toEqual(expect.arrayContaining(["hold_time", "release_hold"]));
    expect(site.client.getInstructions()).toContain("hold_time");
  });
});

describe("a visitor's booking through the booking site's tools", () => {
  it("finds a free time, books it, verifies it with the code sent, and cancels it", async () => {
    const site = await siteMcp(salon);
    const { services, time_zone } = await site.call("list_services");
    expect(time_zone).toBe("Europe/Oslo");
    expect(services).toEqual([expect.objectContaining({ id: salon.serviceId, title: "Cut", interval: 30 })]);

    const { dates } = await site.call("find_available_dates", { service_id: salon.serviceId, from: DAY, to: "2030-01-09" });
    expect(dates).toEqual([DAY, "2030-01-08", "2030-01-09"]);
    const { slots } = await site.call("find_times", { service_id: salon.serviceId, from: DAY });
    expect(slots[0]).toMatchObject({ timestamp: `${DAY}T08:00:00+01:00`, timestamp_end: `${DAY}T08:30:00+01:00`, free: 1 });
    expect(slots).toHaveLength(20);

    const kari = person("Kari");
    const booked = await site.call("book", {
      booking: { service_id: salon.serviceId, booked_from: slots[0].timestamp, booked_to: slots[0].timestamp_end, person_attributes: kari },
    });
    expect(booked.booking).toMatchObject({ service_id: salon.serviceId, state: "awaiting_verification", booked_from: `${DAY}T08:00:00+01:00` });
    const ownBooking = { booking_id: booked.booking.id, booking_token: booked.booking_token };

    // The taken time is no longer offered; the code went to the person as a booking site's does.
    const after = await site.call("find_times", { service_id: salon.serviceId, from: DAY });
    expect(after.slots.map((s: any) => s.timestamp)).not.toContain(`${DAY}T08:00:00+01:00`);
    const [message] = await messagesOf(salon.api, `?booking_id=${booked.booking.id}&kind=verification`);
    expect(message.recipient).toBe(kari.email);
    const code = /\b\d{5}\b/.exec(message.body)![0];
    expect(code).toBe((await rawBooking(booked.booking.id))!.verification_code);

    const verified = await site.call("verify_booking", { ...ownBooking, verification_code: code });
    expect(verified.booking.state).toBe("confirmed");
    expect((await site.call("show_booking", ownBooking)).booking).toMatchObject({ id: booked.booking.id, state: "confirmed" });
    const [confirmation] = await messagesOf(salon.api, `?booking_id=${booked.booking.id}&kind=confirmation`);
    expect(confirmation.recipient).toBe(kari.email);
    // Not in the answers a visitor sees: the code, and the person's own details.
    expect(JSON.stringify(verified)).not.toContain(code);
    expect(JSON.stringify(verified)).not.toContain(kari.email);

    const cancelled = await site.call("cancel_booking", ownBooking);
    expect(cancelled.booking.state).toBe("cancelled");
    const freed = await site.call("find_times", { service_id: salon.serviceId, from: DAY });
    expect(freed.slots[0].timestamp).toBe(`${DAY}T08:00:00+01:00`);
  });

  it("refuses a wrong code with the API's sentence, and the booking stays unverified", async () => {
    const site = await siteMcp(salon);
    const booked = await site.call("book", {
      booking: { service_id: salon.serviceId, booked_from: `${DAY} 09:00`, booked_to: `${DAY} 09:30`, person_attributes: person("Ola") },
    });
    const refused = await site.refusal("verify_booking", { booking_id: booked.booking.id, booking_token: booked.booking_token, verification_code: "00000x" });
    expect(refused.text).toBe("verification_code is invalid");
    expect(refused.error).toEqual({ status: 400, error: { verification_code: ["is invalid"] } });
    expect((await rawBooking(booked.booking.id))!.verification_code).not.toBeNull();
  });

  it("is a booking like any other: its web hook is delivered", async () => {
    const mine = await shop({ verification_method: 0 });
    const hooks = receiver();
    await must(mine.api.post("/web_hooks", { web_hook: { target_url: hooks.url, event: "booking.created" } }));
    const site = await siteMcp(mine);
    const booked = await site.call("book", {
      booking: { service_id: mine.serviceId, booked_from: `${DAY} 10:00`, booked_to: `${DAY} 10:30`, person_attributes: person("Liv") },
    });
    expect(booked.booking.state).toBe("confirmed");
    const requests = await eventually(hooks.requests, (r) => r.length >= 1);
    expect(JSON.parse(requests[0].body)).toMatchObject({ event: "booking.created", data: { booking: { id: booked.booking.id } } });
  });

  it("books the time a hold took, with the hold's secret, and nobody else gets it meanwhile", async () => {
    const holding = await shop({ slot_holds_enabled: true });
    const site = await siteMcp(holding);
    const other = await siteMcp(holding);
    const time = { service_id: holding.serviceId, booked_from: `${DAY} 11:00`, booked_to: `${DAY} 11:30` };
    const { slot_hold, hold_secret } = await site.call("hold_time", time);
    expect(slot_hold).toMatchObject({ ended: null, booked_from: `${DAY}T11:00:00+01:00` });

    const taken = await other.refusal("book", { booking: { ...time, person_attributes: person("Eva") } });
    expect(taken.text).toContain("booked_from is not available");
    const booked = await site.call("book", { booking: { ...time, person_attributes: person("Ada") }, hold_secret });
    expect(booked.booking.booked_from).toBe(`${DAY}T11:00:00+01:00`);
    expect((await must(holding.api.get(`/slots/holds/${slot_hold.id}`))).slot_hold).toMatchObject({ ended: "converted", booking_id: booked.booking.id });
  });
});

describe("many assistants at one free seat", () => {
  it("books it once: 20 parallel book calls, one booking, the others refused in the API's words", async () => {
    const mine = await shop({ verification_method: 0 });
    const assistants = await Promise.all(Array.from({ length: 20 }, () => siteMcp(mine)));
    const time = { service_id: mine.serviceId, booked_from: `${DAY} 12:00`, booked_to: `${DAY} 12:30` };
    const results = await Promise.all(
      assistants.map((a, i) => a.client.callTool({ name: "book", arguments: { booking: { ...time, person_attributes: person(`P${i}`) } } })),
    );
    const booked = results.filter((r) => !r.isError);
    expect(booked).toHaveLength(1);
    for (const refused of results.filter((r) => r.isError)) {
      expect((refused.content as { text: string }[])[0].text).toBe("booked_from is not available: the resource is fully booked at this time");
    }
    expect(await bookingsOn(mine.resourceId)).toBe(1);
  });
});

describe("classes and events", () => {
  it("answers a published event's id with its free seats, and books the seat by that id", async () => {
    const make = catalogue(salon.api);
    const yoga = await make.service({ title: "Yoga", booking_type: "attendance" });
    const open = await make.event({
      resourceId: salon.resourceId,
      serviceId: yoga.id,
      capacity: 2,
      starts: "2030-01-08 18:00",
      ends: "2030-01-08 19:00",
      title: "Evening yoga",
    });
    await make.event({ resourceId: salon.resourceId, serviceId: yoga.id, capacity: 2, starts: "2030-01-08 20:00", ends: "2030-01-08 21:00", published: false });
    const site = await siteMcp(salon);
    const { slots } = await site.call("find_times", { service_id: yoga.id, from: "2030-01-08" });
    expect(slots).toEqual([expect.objectContaining({ event_id: open, timestamp: "2030-01-08T18:00:00+01:00", free: 2 })]);
    const booked = await site.call("book", { booking: { event_id: open, person_attributes: person("Ida") } });
    expect(booked.booking).toMatchObject({ event_id: open, event: { id: open, title: "Evening yoga" }, state: "awaiting_verification" });
    expect((await site.call("find_times", { service_id: yoga.id, from: "2030-01-08" })).slots[0].free).toBe(1);
    // The REST slots keep the spec's shape: no event id there.
    const rest = await must(salon.api.get(`/services/${yoga.id}/slots?from=2030-01-08&to=2030-01-08`));
    expect(rest[0].slot).not.toHaveProperty("event_id");
  });
});

describe("times in the person's own zone", () => {
  it("answers each free time in the visitor's zone too, across the DST days of Oslo and New York", async () => {
    const site = await siteMcp(salon);
    // 31 March 2030: Oslo's clocks go forward that night; New York's went forward on 10 March.
    const spring = await site.call("find_times", { service_id: salon.serviceId, from: "2030-03-31", time_zone: "America/New_York" });
    expect(spring.slots[0]).toMatchObject({
      timestamp: "2030-03-31T08:00:00+02:00",
      visitor_timestamp: "2030-03-31T02:00:00-04:00",
      visitor_formatted_timestamp: "Sunday, 31 March 2030, 02:00",
    });
    // 27 October 2030: Oslo is back on +01:00; New York stays on -04:00 until 3 November.
    const autumn = await site.call("find_times", { service_id: salon.serviceId, from: "2030-10-27", time_zone: "America/New_York" });
    expect(autumn.slots[0]).toMatchObject({ timestamp: "2030-10-27T08:00:00+01:00", visitor_timestamp: "2030-10-27T03:00:00-04:00" });
    expect(autumn.slots).toHaveLength(20);
    const plain = await site.call("find_times", { service_id: salon.serviceId, from: "2030-10-27" });
    expect(plain.slots[0]).not.toHaveProperty("visitor_timestamp");
  });
});

describe("bad tool input", () => {
  it("answers a tool error in the API's sentences and changes nothing", async () => {
    const site = await siteMcp(salon);
    const before = await bookingsOn(salon.resourceId);

    const badDate = await site.refusal("find_times", { service_id: salon.serviceId, from: "next Monday" });
    expect(badDate.text).toBe("from is not a valid date: use YYYY-MM-DD");
    const badZone = await site.refusal("find_times", { service_id: salon.serviceId, time_zone: "Mars/Olympus" });
    expect(badZone.text).toBe("time_zone is not a known IANA time zone");

    const noTime = await site.refusal("book", { booking: { service_id: salon.serviceId, person_attributes: person("Per") } });
    expect(noTime.error.status).toBe(400);
    expect(noTime.text).toContain("booked_from can't be blank");
    const noEmail = await site.refusal("book", {
      booking: { service_id: salon.serviceId, booked_from: `${DAY} 12:00`, booked_to: `${DAY} 12:30`, person_attributes: { name: "Per" } },
    });
    expect(noEmail.text).toContain("person_attributes.email can't be blank");
    const notAnId = await site.refusal("book", { booking: { service_id: "cut", booked_from: `${DAY} 12:00`, booked_to: `${DAY} 12:30` } });
    expect(notAnId.text).toBe("service_id is not an integer");
    const closed = await site.refusal("book", {
      booking: { service_id: salon.serviceId, booked_from: `${DAY} 19:00`, booked_to: `${DAY} 19:30`, person_attributes: person("Per") },
    });
    expect(closed.error.status).toBe(400);
    expect(closed.text).not.toMatch(/Error|at .*\.ts/);

    expect(await bookingsOn(salon.resourceId)).toBe(before);
  });

  it("answers an unknown tool with a JSON-RPC error, not a tool result", async () => {
    const site = await siteMcp(salon);
    await expect(site.client.callTool({ name: "drop_tables" })).rejects.toThrow(/There is no tool drop_tables/);
  });
});

describe("tenancy", () => {
  it("refuses another account's booking: by id with our key, and by its token on our site", async () => {
    const other = await shop();
    const theirSite = await siteMcp(other);
    const theirs = await theirSite.call("book", {
      booking: { service_id: other.serviceId, booked_from: `${DAY} 13:00`, booked_to: `${DAY} 13:30`, person_attributes: person("Tor") },
    });
    const ours = await privateMcp(salon);
    for (const tool of ["get_booking", "confirm_booking", "cancel_booking"]) {
      const refused = await ours.refusal(tool, { booking_id: theirs.booking.id });
      expect(refused.error).toEqual({ status: 404, error: { error: "The booking was not found." } });
    }
    const ourSite = await siteMcp(salon);
    const ownBooking = { booking_id: theirs.booking.id, booking_token: theirs.booking_token };
    for (const tool of ["show_booking", "cancel_booking"]) {
      expect((await ourSite.refusal(tool, ownBooking)).text).toBe("The booking was not found.");
    }
    expect((await rawBooking(theirs.booking.id))!.state).toBe("awaiting_verification");
  });

  it("refuses a private tool without a key, or with a wrong one, before any tool runs", async () => {
    await expect(mcpClient("http://api.test/api/v1/mcp")).rejects.toMatchObject({ code: 401 });
    await expect(mcpClient("http://api.test/api/v1/mcp", { authorization: "Bearer not-a-key" })).rejects.toMatchObject({ code: 401 });
  });
});

describe("the private API's tools", () => {
  it("books for a person, lists and reads the booking and the person, and confirms or declines", async () => {
    const mine = await shop({ confirm_manually: true, verification_method: 0 });
    const api = await privateMcp(mine);
    const booked = await api.call("book", {
      booking: { service_id: mine.serviceId, booked_from: `${DAY} 14:00`, booked_to: `${DAY} 14:30`, person_attributes: { name: "Siri", email: "siri@example.com" } },
      confirm: false,
    });
    expect(booked.booking).toMatchObject({ state: "awaiting_confirmation", person: { name: "Siri", email: "siri@example.com" } });
    const listed = await api.call("list_bookings", { listing: "unconfirmed" });
    expect(listed.bookings.map((b: any) => b.id)).toEqual([booked.booking.id]);
    expect(listed.total_count).toBe(1);
    const people = await api.call("list_people", { email: "siri@example.com" });
    expect(people.people).toEqual([expect.objectContaining({ id: booked.booking.person_id, name: "Siri" })]);
    expect((await api.call("get_person", { person_id: booked.booking.person_id })).person.email).toBe("siri@example.com");

    expect((await api.call("confirm_booking", { booking_id: booked.booking.id })).booking.state).toBe("confirmed");
    expect((await api.call("get_booking", { booking_id: booked.booking.id })).booking.state).toBe("confirmed");
    const again = await api.refusal("decline_booking", { booking_id: booked.booking.id });
    expect(again.error.status).toBe(400);
    expect(await must(mine.api.get(`/bookings/${booked.booking.id}`))).toMatchObject({ booking: { state: "confirmed" } });
  });

  it("makes one booking for one idempotency key, and refuses the key for another booking", async () => {
    const mine = await shop({ verification_method: 0 });
    const api = await privateMcp(mine);
    const booking = { service_id: mine.serviceId, booked_from: `${DAY} 15:00`, booked_to: `${DAY} 15:30`, person_attributes: { name: "Nils" } };
    const key = crypto.randomUUID();
    const first = await api.call("book", { booking, idempotency_key: key });
    const replayed = await api.call("book", { booking, idempotency_key: key });
    expect(replayed.booking.id).toBe(first.booking.id);
    expect(await bookingsOn(mine.resourceId)).toBe(1);
    const other = await api.refusal("book", { booking: { ...booking, booked_from: `${DAY} 16:00`, booked_to: `${DAY} 16:30` }, idempotency_key: key });
    expect(other.error).toEqual({ status: 422, error: { error: "This Idempotency-Key was used for a different request." } });
    expect(await bookingsOn(mine.resourceId)).toBe(1);

    // The site's tool takes keys too: a retried booking is the same booking, with the same token.
    const site = await siteMcp(mine);
    const siteBooking = { ...booking, booked_from: `${DAY} 17:00`, booked_to: `${DAY} 17:30` };
    const siteKey = crypto.randomUUID();
    const once = await site.call("book", { booking: siteBooking, idempotency_key: siteKey });
    expect(await site.call("book", { booking: siteBooking, idempotency_key: siteKey })).toEqual(once);
    expect(await bookingsOn(mine.resourceId)).toBe(2);
  });
});

describe("the transport", () => {
  it("answers GET with 405 (no stream to open) and refuses a batch, which would count as one request", async () => {
    const get = await send("GET", `http://${salon.subdomain}.localhost/mcp`, { headers: { accept: "text/event-stream" } });
    expect(get.status).toBe(405);
    const batch = await send("POST", `http://${salon.subdomain}.localhost/mcp`, {
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: JSON.stringify([
        { jsonrpc: "2.0", id: 1, method: "tools/list" },
        { jsonrpc: "2.0", id: 2, method: "tools/list" },
      ]),
    });
    expect(batch.status).toBe(400);
    expect(batch.body.error.message).toContain("batches are not accepted");
  });

  it("refuses a body that is not UTF-8 rather than booking with replacement characters", async () => {
    const before = await bookingsOn(salon.resourceId);
    const call = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: {
        name: "book",
        arguments: {
          booking: {
            service_id: salon.serviceId,
            booked_from: `${DAY} 16:00`,
            booked_to: `${DAY} 16:30`,
            person_attributes: { name: "NAME", email: "latin1@example.com" },
          },
        },
      },
    });
    const bytes = new TextEncoder().encode(call);
    const at = call.indexOf("NAME");
    bytes.set([0x4a, 0xf8, 0x72, 0x6e], at); // "Jørn" in Latin-1: 0xF8 alone is not UTF-8
    const res = await send("POST", `http://${salon.subdomain}.localhost/mcp`, {
      headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
      body: bytes,
    });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: -32700, message: expect.stringContaining("UTF-8") });
    expect(await bookingsOn(salon.resourceId)).toBe(before);
  });

  it("is served by the booking site only where the account has one", async () => {
    await expect(mcpClient("http://no-such-account.localhost/mcp")).rejects.toMatchObject({ code: 404 });
    expect(publicSite(salon.subdomain).origin).toContain(salon.subdomain);
  });
});
