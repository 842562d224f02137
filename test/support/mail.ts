// Helpers for the tests of e-mail providers: the private API with its message queue recorded (the
// test runs the consumer itself, through the provider under test), and a received invitation read
// with ical.js.
import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import ICAL from "ical.js";
import { expect } from "vitest";
import worker from "../../src/index";
import { env } from "./api";
import { runQueue } from "./queues";

/**
 * The private API with the message queue recorded rather than consumed: the test then runs the
 * consumer itself, over SMTP, on exactly the messages the request queued.
 */
export function recordingApi(apiKey: string, provider: Record<string, string>) {
  const queued: any[] = [];
  const MESSAGE_QUEUE = { send: async (body: unknown) => void queued.push(body), sendBatch: async () => undefined } as unknown as Queue;
  const call = async (method: string, path: string, payload?: unknown) => {
    const ctx = createExecutionContext();
    const res = await worker.fetch(
      new Request(`http://api.test/api/v1${path}`, {
        method,
        headers: { authorization: `Bearer ${apiKey}`, "user-agent": "tests", "content-type": "application/json" },
        body: payload === undefined ? null : JSON.stringify(payload),
      }),
      { ...env, MESSAGE_QUEUE },
      ctx,
    );
    await waitOnExecutionContext(ctx);
    const body: any = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    return body;
  };
  /** Delivers what was queued since the last call through the provider; answers the queue's result. */
  const deliver = async (overrides: Record<string, string> = {}) => {
    const bodies = queued.splice(0);
    return runQueue("booking-messages", bodies, { ...provider, ...overrides });
  };
  return { queued, deliver, post: (p: string, b: unknown) => call("POST", p, b), put: (p: string, b: unknown = {}) => call("PUT", p, b) };
}

export async function parsedInvitation(mail: any) {
  const part = mail.attachments.find((a: any) => a.mimeType === "text/calendar");
  expect(part, "a text/calendar part").toBeTruthy();
  const text = typeof part.content === "string" ? part.content : new TextDecoder().decode(part.content);
  const calendar = new ICAL.Component(ICAL.parse(text));
  const event = calendar.getFirstSubcomponent("vevent")!;
  return {
    part,
    method: calendar.getFirstPropertyValue("method"),
    uid: event.getFirstPropertyValue("uid"),
    sequence: Number(event.getFirstPropertyValue("sequence")),
    start: (event.getFirstPropertyValue("dtstart") as ICAL.Time).toJSDate().toISOString(),
    end: (event.getFirstPropertyValue("dtend") as ICAL.Time).toJSDate().toISOString(),
    status: event.getFirstPropertyValue("status"),
    organizer: String(event.getFirstPropertyValue("organizer")).replace(/^mailto:/i, "mailto:"),
    attendee: String(event.getFirstPropertyValue("attendee")).replace(/^mailto:/i, "mailto:"),
  };
}
