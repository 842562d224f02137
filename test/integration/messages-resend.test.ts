// E-mail through Resend's API with its official SDK (MESSAGE_PROVIDER=resend), against the
// receiver's stand-in of the send endpoint (test/support/receiver-server.ts): what the SDK posted,
// which outcomes are retried, and that a redelivered queue message is one e-mail.
import { describe, expect, it } from "vitest";
import { env, newAccount } from "../support/api";
import { catalogue } from "../support/bookings";
import { parsedInvitation, recordingApi } from "../support/mail";
import { messageRow } from "../support/messages";
import { runQueue } from "../support/queues";

const MAIL_FROM = "bookings@mail.example.com";
const RESEND = { MESSAGE_PROVIDER: "resend", RESEND_API_KEY: "re_test_standin", RESEND_API_BASE: `${env.TEST_RECEIVER}/resend`, MAIL_FROM };

let serial = 0;
const address = (prefix = "visitor") => `${prefix}-${Date.now().toString(36)}${(serial += 1)}@example.com`;
const log = async (to: string) => (await (await fetch(`${env.TEST_RECEIVER}/resend/_log/${encodeURIComponent(to)}`)).json()) as { requests: number; emails: any[] };

async function booked(to: string, accountAttributes: Record<string, unknown> = {}) {
  const { api, account } = await newAccount({
    time_zone: "Europe/Oslo",
    locale: "en",
    name: "Salon Ø",
    email: `shop${Date.now()}@example.com`,
    verification_method: 2,
    ...accountAttributes,
  });
  const cat = catalogue(api);
  const resource = await cat.resource({ title: "Chair", capacity: 10, opening_hours_sun: ["08:00", "18:00"] });
  const service = await cat.service({ title: "Cut" });
  const site = recordingApi(api.apiKey, RESEND);
  const booking = (
    await site.post("/bookings", {
      booking: {
        resource_id: resource.id,
        service_id: service.id,
        booked_from: "2030-03-31 10:00",
        booked_to: "2030-03-31 11:00",
        person_attributes: { name: "Kari <i>N</i>", email: to },
      },
    })
  ).booking;
  return { api, account, site, booking, queued: [...site.queued] };
}

describe("booking e-mails through Resend", () => {
  it("posts the confirmation with the shop as sender, text, escaped HTML, the invitation and an idempotency key", async () => {
    const to = address();
    const t = await booked(to);
    const result = await t.site.deliver();
    expect(result.retryMessages).toEqual([]);
    const {
      emails: [sent],
    } = await log(to);
    const messageId = t.queued[0].message_id;
    expect(sent.idempotency_key).toBe(`message-${t.account.id}-${messageId}`);
    expect(sent.body).toMatchObject({
      from: `=?UTF-8?Q?Salon_=C3=98?= <${MAIL_FROM}>`,
      to: [to],
      reply_to: `=?UTF-8?Q?Salon_=C3=98?= <${t.account.email}>`,
      subject: "Your booking at Salon Ø is confirmed",
      headers: { "Auto-Submitted": "auto-generated" },
      tags: [
        { name: "account_id", value: String(t.account.id) },
        { name: "message_id", value: String(messageId) },
      ],
    });
    expect(sent.body.text).toMatch(/^Hello Kari <i>N<\/i>,/);
    expect(sent.body.html).toContain("Hello Kari &lt;i&gt;N&lt;/i&gt;,");
    const [attachment] = sent.body.attachments;
    expect(attachment).toMatchObject({ filename: "invite.ics", content_type: "text/calendar; charset=UTF-8; method=REQUEST" });
    const invitation = await parsedInvitation({
      attachments: [
        { mimeType: "text/calendar", method: "REQUEST", content: new TextDecoder().decode(Uint8Array.from(atob(attachment.content), (c) => c.charCodeAt(0))) },
      ],
    });
    expect(invitation).toMatchObject({ method: "REQUEST", uid: `booking-${t.booking.id}@${t.account.subdomain}.localhost`, start: "2030-03-31T08:00:00.000Z" });
    expect(await messageRow(messageId)).toMatchObject({ status: "sent", provider: "resend", error: null });
  });

  it("sends a redelivered queue message once: the same idempotency key, one e-mail", async () => {
    const to = address();
    const t = await booked(to);
    const [body] = t.queued;
    // The first attempt's answer is lost after Resend took it: the row is queued again, as after a crash.
    await t.site.deliver();
    await env.DB.prepare("UPDATE messages SET status = 'queued' WHERE id = ?").bind(body.message_id).run();
    await runQueue("booking-messages", [body], RESEND, 2);
    const { requests, emails } = await log(to);
    expect(requests).toBe(2);
    expect(emails).toHaveLength(1);
  });

  it.each([
    ["ratelimited", "Resend 429 rate_limit_exceeded: Too many requests"],
    ["down", "Resend 500 application_error: Something went wrong"],
  ])("keeps the message queued and retries it on %s", async (prefix, error) => {
    const to = address(prefix);
    const t = await booked(to);
    const result = await t.site.deliver();
    expect(result.retryMessages).toHaveLength(1);
    expect(await messageRow(t.queued[0].message_id)).toMatchObject({ status: "queued", provider: "resend", error });
  });

  it("fails at once a message the API calls invalid (422), and retries on a refused key", async () => {
    const to = address("invalid");
    const t = await booked(to);
    const result = await t.site.deliver();
    expect(result.retryMessages).toEqual([]);
    expect(await messageRow(t.queued[0].message_id)).toMatchObject({
      status: "failed",
      provider: "resend",
      error: "Resend 422 validation_error: Invalid `to` field.",
    });

    const other = await booked(address());
    const again = await other.site.deliver({ RESEND_API_KEY: "re_wrong" });
    expect(again.retryMessages).toHaveLength(1);
    const row = await messageRow(other.queued[0].message_id);
    expect(row).toMatchObject({ status: "queued", error: "Resend 401 invalid_api_key: API key is invalid" });
    expect(row!.error).not.toContain("re_wrong");
  });

  it("says what is missing when the key or the sender is not configured", async () => {
    const t = await booked(address());
    const result = await t.site.deliver({ RESEND_API_KEY: "" });
    expect(result.retryMessages).toHaveLength(1);
    expect(await messageRow(t.queued[0].message_id)).toMatchObject({ status: "queued", error: "RESEND_API_KEY is not configured" });
    const u = await booked(address());
    await u.site.deliver({ MAIL_FROM: "" });
    expect(await messageRow(u.queued[0].message_id)).toMatchObject({ status: "queued", error: "MAIL_FROM is not configured" });
  });
});
