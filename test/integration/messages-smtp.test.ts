// E-mail over real SMTP (MESSAGE_PROVIDER=smtp): the consumer connects to the tests' SMTP server
// (test/support/mail-server.ts) through `cloudflare:sockets`; what arrived is parsed with
// postal-mime, and its calendar invitation with ical.js.
import { createExecutionContext } from "cloudflare:test";
import ICAL from "ical.js";
import PostalMime from "postal-mime";
import { describe, expect, it } from "vitest";
import worker from "../../src/index";
import { env, newAccount } from "../support/api";
import { catalogue } from "../support/bookings";
import { messageRow, messagesOf } from "../support/messages";
import { runQueue } from "../support/queues";
import { parsedInvitation, recordingApi } from "../support/mail";

const [SMTP_HOST, SMTP_PORT] = env.TEST_SMTP.split(":");
const MAIL_FROM = "bookings@mail.example.com";
const SMTP = { MESSAGE_PROVIDER: "smtp", SMTP_HOST, SMTP_PORT, SMTP_SECURITY: "none", MAIL_FROM };

let serial = 0;
const address = (prefix = "visitor") => `${prefix}-${Date.now().toString(36)}${(serial += 1)}@example.com`;

const received = async (to: string) => (await (await fetch(`${env.TEST_RECEIVER}/mail/${encodeURIComponent(to)}`)).json()) as any[];

async function setUp(accountAttributes: Record<string, unknown> = {}) {
  const { api, account } = await newAccount({
    time_zone: "Europe/Oslo",
    locale: "nb",
    name: "Frisør Åse",
    email: `shop${Date.now()}@example.com`,
    verification_method: 2,
    ...accountAttributes,
  });
  const cat = catalogue(api);
  const resource = await cat.resource({
    title: "Stol 1",
    capacity: 10,
    opening_hours_sat: ["08:00", "18:00"],
    opening_hours_sun: ["08:00", "18:00"],
    opening_hours_mon: ["08:00", "18:00"],
  });
  const service = await cat.service({ title: "Klipp" });
  return { api, account, resource, service, site: recordingApi(api.apiKey, SMTP) };
}

describe("booking e-mails over SMTP", () => {
  it("sends the confirmation as text, HTML and an invitation whose UID is the booking's calendar UID", async () => {
    const t = await setUp();
    const to = address();
    // 2030-03-31 is the day Oslo moves to summer time (02:00 → 03:00): 10:00 there is 08:00 UTC.
    const booking = (
      await t.site.post("/bookings", {
        booking: {
          resource_id: t.resource.id,
          service_id: t.service.id,
          booked_from: "2030-03-31 10:00",
          booked_to: "2030-03-31 11:00",
          person_attributes: { name: "Kari <b>Nordmann</b>", email: to },
        },
      })
    ).booking;
    const result = await t.site.deliver();
    expect(result.retryMessages).toEqual([]);

    const [arrived] = await received(to);
    expect(arrived.envelope).toEqual({ from: MAIL_FROM, to: [to] });
    expect(arrived.user).toBe("booking-tests");
    const mail = await PostalMime.parse(arrived.raw);
    expect(mail.from).toEqual({ name: "Frisør Åse", address: MAIL_FROM });
    // An encoded word as the phrase, not inside quotes (RFC 2047, 5).
    expect(arrived.raw).toMatch(/^From: =\?UTF-8\?Q\?Fris=C3=B8r_=C3=85se\?= <bookings@mail\.example\.com>\r$/m);
    expect(mail.replyTo).toEqual([{ name: "Frisør Åse", address: t.account.email }]);
    expect(mail.subject).toBe("Bestillingen din hos Frisør Åse er bekreftet");
    const header = (key: string) => mail.headers.find((h) => h.key === key)?.value;
    expect(header("auto-submitted")).toBe("auto-generated");
    expect(mail.messageId).toMatch(/^<message-\d+\.\d+\.\d+@mail\.example\.com>$/);
    expect(Math.abs(Date.parse(mail.date!) - Date.now())).toBeLessThan(120_000);
    expect(header("content-type")).toMatch(/^multipart\/mixed/);
    expect(arrived.raw).toMatch(/Content-Type: multipart\/alternative/);

    // The text part is the stored body, values as given; the HTML part escapes them.
    const [stored] = await messagesOf(t.api, `?booking_id=${booking.id}&channel=email`);
    expect(stored).toMatchObject({ kind: "confirmation", status: "sent", provider: "smtp", error: null });
    expect(mail.text!.trim()).toBe(stored.body);
    expect(mail.text).toContain("Hei Kari <b>Nordmann</b>,");
    expect(mail.html).toContain("Hei Kari &lt;b&gt;Nordmann&lt;/b&gt;,");
    expect(mail.html).not.toContain("<b>");
    expect(mail.html).toMatch(/<html lang="nb"/);
    expect(mail.html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">');
    expect(mail.html).toContain("Dette er en automatisk melding fra Frisør Åse.");

    const invitation = await parsedInvitation(mail);
    expect(invitation.part.method).toBe("REQUEST");
    expect(invitation).toMatchObject({
      method: "REQUEST",
      uid: `booking-${booking.id}@${t.account.subdomain}.localhost`,
      status: "CONFIRMED",
      start: "2030-03-31T08:00:00.000Z",
      end: "2030-03-31T09:00:00.000Z",
      organizer: `mailto:${t.account.email}`,
      attendee: `mailto:${to}`,
    });
    // The booking's own calendar file (the link in the text) names the same event.
    const link = /http:\/\/\S+\.ics\?signature=[\w-]+/.exec(stored.body)![0];
    const file = await worker.fetch(new Request(link, { headers: { "user-agent": "tests" } }), env, createExecutionContext());
    const fileEvent = new ICAL.Component(ICAL.parse(await file.text())).getFirstSubcomponent("vevent")!;
    expect(fileEvent.getFirstPropertyValue("uid")).toBe(invitation.uid);
    expect(Number(fileEvent.getFirstPropertyValue("sequence"))).toBe(invitation.sequence);
  });

  it("moves the event on a change of time (same UID, higher SEQUENCE) and cancels it on cancel", async () => {
    const t = await setUp({ time_zone: "America/New_York", locale: "en", name: "Salon One" });
    const to = address();
    // Before New York's autumn change (2030-11-03): 10:00 EDT is 14:00 UTC.
    const booking = (
      await t.site.post("/bookings", {
        booking: {
          resource_id: t.resource.id,
          service_id: t.service.id,
          booked_from: "2030-11-02 10:00",
          booked_to: "2030-11-02 11:00",
          person_attributes: { name: "Ann", email: to },
        },
      })
    ).booking;
    await t.site.deliver();
    // Moved across the change: 10:00 EST is 15:00 UTC.
    await t.site.put(`/bookings/${booking.id}`, { booking: { booked_from: "2030-11-04 10:00", booked_to: "2030-11-04 11:00" } });
    await t.site.deliver();
    await t.site.put(`/bookings/${booking.id}/cancel`);
    await t.site.deliver();

    const mails = await Promise.all((await received(to)).map((m) => PostalMime.parse(m.raw)));
    expect(mails.map((m) => m.subject)).toEqual([
      "Your booking at Salon One is confirmed",
      "Your booking at Salon One has changed",
      "Your booking at Salon One is cancelled",
    ]);
    const [invite, move, cancel] = await Promise.all(mails.map(parsedInvitation));
    expect(invite).toMatchObject({ method: "REQUEST", start: "2030-11-02T14:00:00.000Z", status: "CONFIRMED" });
    expect(move).toMatchObject({ method: "REQUEST", uid: invite.uid, start: "2030-11-04T15:00:00.000Z", end: "2030-11-04T16:00:00.000Z" });
    expect(move.sequence).toBeGreaterThan(invite.sequence);
    expect(cancel).toMatchObject({ method: "CANCEL", uid: invite.uid, status: "CANCELLED" });
    expect(cancel.part.method).toBe("CANCEL");
    expect(cancel.sequence).toBeGreaterThan(move.sequence);
  });

  it("sends a verification code without an invitation, and the code verifies the booking", async () => {
    const t = await setUp({ locale: "sv", time_zone: "Europe/Stockholm", name: "Salong" });
    const to = address();
    const booking = (
      await t.site.post("/bookings", {
        booking: {
          resource_id: t.resource.id,
          service_id: t.service.id,
          booked_from: "2030-03-30 10:00",
          booked_to: "2030-03-30 11:00",
          person_attributes: { name: "Sven", email: to },
        },
        confirm: false,
      })
    ).booking;
    expect(booking.state).toBe("awaiting_verification");
    await t.site.deliver();
    const [mail] = await Promise.all((await received(to)).map((m) => PostalMime.parse(m.raw)));
    expect(mail.subject).toBe("Verifiera din bokning hos Salong");
    expect(mail.attachments).toEqual([]);
    expect(mail.html).toMatch(/<html lang="sv"/);
    const code = /din kod är (\d+)/.exec(mail.text!)![1];
    const verified = (await t.site.put(`/bookings/${booking.id}/verify_code`, { verification_code: code })).booking;
    expect(verified.state).toBe("confirmed");
    // Verified: now the confirmation, with the invitation (10:00 CET on the day before the change is 09:00 UTC).
    await t.site.deliver();
    const confirmation = await PostalMime.parse((await received(to))[1].raw);
    expect(confirmation.subject).toBe("Din bokning hos Salong är bekräftad");
    expect(await parsedInvitation(confirmation)).toMatchObject({ method: "REQUEST", start: "2030-03-30T09:00:00.000Z" });
  });

  it("keeps CR and LF in names and subjects from adding headers", async () => {
    const t = await setUp({ name: "Evil\r\nBcc: victim@example.com", mail_confirmation_subject: "Booked {{ person.name }}" });
    const to = address();
    await t.site.post("/bookings", {
      booking: {
        resource_id: t.resource.id,
        service_id: t.service.id,
        booked_from: "2030-03-30 10:00",
        booked_to: "2030-03-30 11:00",
        person_attributes: { name: "Eve\r\nX-Injected: yes", email: to },
      },
    });
    await t.site.deliver();
    const [arrived] = await received(to);
    expect(arrived.envelope.to).toEqual([to]);
    const mail = await PostalMime.parse(arrived.raw);
    const keys = mail.headers.map((h) => h.key);
    expect(keys).not.toContain("bcc");
    expect(keys).not.toContain("x-injected");
    expect(mail.subject).toBe("Booked Eve X-Injected: yes");
    expect(mail.from).toEqual({ name: "Evil Bcc: victim@example.com", address: MAIL_FROM });
    expect(mail.bcc ?? []).toEqual([]);
  });
});

describe("SMTP delivery outcomes", () => {
  it("fails a message at once, without retries, when the server refuses the recipient for good (550)", async () => {
    const t = await setUp({ name: "Salon" });
    const to = address("refused");
    const booking = (
      await t.site.post("/bookings", {
        booking: {
          resource_id: t.resource.id,
          service_id: t.service.id,
          booked_from: "2030-03-30 10:00",
          booked_to: "2030-03-30 11:00",
          person_attributes: { name: "Per", email: to },
        },
      })
    ).booking;
    const result = await t.site.deliver();
    expect(result.retryMessages).toEqual([]);
    const [message] = await messagesOf(t.api, `?booking_id=${booking.id}&channel=email`);
    expect(message).toMatchObject({ status: "failed", provider: "smtp", sent_at: null });
    expect(message.error).toBe("SMTP RCPT TO: 550 5.1.1 No such user here");
  });

  it("keeps a message queued and retries it when the server says try later (451)", async () => {
    const t = await setUp({ name: "Salon" });
    const to = address("busy");
    const booking = (
      await t.site.post("/bookings", {
        booking: {
          resource_id: t.resource.id,
          service_id: t.service.id,
          booked_from: "2030-03-30 10:00",
          booked_to: "2030-03-30 11:00",
          person_attributes: { name: "Per", email: to },
        },
      })
    ).booking;
    const result = await t.site.deliver();
    expect(result.retryMessages).toHaveLength(1);
    const [message] = await messagesOf(t.api, `?booking_id=${booking.id}&channel=email`);
    expect(message).toMatchObject({ status: "queued", provider: "smtp" });
    expect(message.error).toBe("SMTP RCPT TO: 451 4.3.0 Try again later");
  });

  it("retries with the server's answer when the login is refused, naming no secret", async () => {
    const t = await setUp({ name: "Salon" });
    const to = address();
    await t.site.post("/bookings", {
      booking: {
        resource_id: t.resource.id,
        service_id: t.service.id,
        booked_from: "2030-03-30 10:00",
        booked_to: "2030-03-30 11:00",
        person_attributes: { name: "Per", email: to },
      },
    });
    const [body] = t.site.queued;
    const result = await t.site.deliver({ SMTP_PASSWORD: "wrong-password" });
    expect(result.retryMessages).toHaveLength(1);
    const row = await messageRow(body.message_id);
    expect(row).toMatchObject({ status: "queued", provider: "smtp" });
    expect(row!.error).toBe("SMTP AUTH: 535 Authentication failed");
    expect(row!.error).not.toContain("wrong-password");
    expect(await received(to)).toEqual([]);
  });

  it("refuses a recipient SMTP cannot carry without connecting, and says what is missing when unconfigured", async () => {
    const t = await setUp({ name: "Salon" });
    await t.site.post("/bookings", {
      booking: {
        resource_id: t.resource.id,
        service_id: t.service.id,
        booked_from: "2030-03-30 10:00",
        booked_to: "2030-03-30 11:00",
        person_attributes: { name: "Per", email: "per>@example.com" },
      },
    });
    const [body] = t.site.queued;
    const result = await t.site.deliver();
    expect(result.explicitAcks).toHaveLength(1);
    expect(await messageRow(body.message_id)).toMatchObject({ status: "failed", error: "the recipient is not an address SMTP can deliver to" });

    const id = (
      await t.site.post("/bookings", {
        booking: {
          resource_id: t.resource.id,
          service_id: t.service.id,
          booked_from: "2030-03-30 12:00",
          booked_to: "2030-03-30 13:00",
          person_attributes: { name: "Per", email: address() },
        },
      })
    ).booking.id;
    const again = await t.site.deliver({ SMTP_HOST: "" });
    expect(again.retryMessages).toHaveLength(1);
    const [message] = await messagesOf(t.api, `?booking_id=${id}&channel=email`);
    expect(message).toMatchObject({ status: "queued", error: "SMTP_HOST is not configured" });
  });

  it.each([
    ["closing", "SMTP RCPT TO: 421 4.4.2 Closing connection"],
    // worker-mailer's own session code spun on this one until the runtime hung (smtp-client.ts).
    ["vanish", "SMTP RCPT TO: the server closed the connection"],
  ])("retries when the server ends the session (%s) rather than waiting on it", async (prefix, error) => {
    const t = await setUp({ name: "Salon" });
    await t.site.post("/bookings", {
      booking: {
        resource_id: t.resource.id,
        service_id: t.service.id,
        booked_from: "2030-03-30 10:00",
        booked_to: "2030-03-30 11:00",
        person_attributes: { name: "Per", email: address(prefix) },
      },
    });
    const [body] = t.site.queued;
    const result = await t.site.deliver();
    expect(result.retryMessages).toHaveLength(1);
    expect(await messageRow(body.message_id)).toMatchObject({ status: "queued", error });
  });

  it("refuses to log in or send without TLS when STARTTLS is asked for and the server does not offer it", async () => {
    const t = await setUp({ name: "Salon" });
    const to = address();
    await t.site.post("/bookings", {
      booking: {
        resource_id: t.resource.id,
        service_id: t.service.id,
        booked_from: "2030-03-30 10:00",
        booked_to: "2030-03-30 11:00",
        person_attributes: { name: "Per", email: to },
      },
    });
    const [body] = t.site.queued;
    const result = await t.site.deliver({ SMTP_SECURITY: "starttls" });
    expect(result.retryMessages).toHaveLength(1);
    expect(await messageRow(body.message_id)).toMatchObject({
      status: "queued",
      error: "SMTP STARTTLS: the server does not offer STARTTLS (SMTP_SECURITY=starttls)",
    });
    expect(await received(to)).toEqual([]);
  });

  it("keeps a line holding only a dot in the text (it would end DATA unstuffed)", async () => {
    const t = await setUp({ name: "Salon", mail_confirmation: "Line one\n.\nAfter a lone dot\n..two dots" });
    const to = address();
    await t.site.post("/bookings", {
      booking: {
        resource_id: t.resource.id,
        service_id: t.service.id,
        booked_from: "2030-03-30 10:00",
        booked_to: "2030-03-30 11:00",
        person_attributes: { name: "Per", email: to },
      },
    });
    await t.site.deliver();
    const mail = await PostalMime.parse((await received(to))[0].raw);
    expect(mail.text!.trim()).toBe("Line one\n.\nAfter a lone dot\n..two dots");
  });

  it("leaves the sink as it was: no connection, the row is the delivery", async () => {
    const t = await setUp({ name: "Salon" });
    const to = address();
    await t.site.post("/bookings", {
      booking: {
        resource_id: t.resource.id,
        service_id: t.service.id,
        booked_from: "2030-03-30 10:00",
        booked_to: "2030-03-30 11:00",
        person_attributes: { name: "Per", email: to },
      },
    });
    const [body] = t.site.queued;
    await runQueue("booking-messages", [body]);
    expect(await messageRow(body.message_id)).toMatchObject({ status: "sent", provider: "sink" });
    expect(await received(to)).toEqual([]);
  });
});
