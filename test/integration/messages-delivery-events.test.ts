// What comes back from the providers (docs/decisions/messages.md, "What comes back"): Resend's
// delivery events signed with Standard Webhooks (signed here with the standardwebhooks package, as
// Resend's Svix does), Twilio's status callbacks signed with X-Twilio-Signature; forged, duplicated
// and out-of-order events; recipients refused afterwards, and released by the shop.
import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it } from "vitest";
import { twilioSignature } from "../../src/features/messages/twilio-events";
import { env, newAccount, send, type Client } from "../support/api";
import { must } from "../support/bookings";
import { messageRow, queuedRow } from "../support/messages";
import { eventually, runQueue } from "../support/queues";
import { receiver } from "../support/webhooks";

const RESEND = {
  MESSAGE_PROVIDER: "resend",
  RESEND_API_KEY: "re_test_standin",
  RESEND_API_BASE: `${env.TEST_RECEIVER}/resend`,
  MAIL_FROM: "bookings@mail.example.com",
};
const SID = `AC${"0123456789abcdef".repeat(2)}`;
const CALLBACK = env.TWILIO_STATUS_CALLBACK!;
const TWILIO = {
  MESSAGE_PROVIDER: "smtp",
  SMS_PROVIDER: "twilio",
  TWILIO_ACCOUNT_SID: SID,
  TWILIO_FROM: "+4759000000",
  TWILIO_API_BASE: `${env.TEST_RECEIVER}/twilio`,
  TWILIO_STATUS_CALLBACK: CALLBACK,
};

let serial = 0;
const address = (prefix = "visitor") => `${prefix}-${Date.now().toString(36)}${(serial += 1)}@example.com`;
const number = () => `+1202556${String((Date.now() + (serial += 1)) % 10_000).padStart(4, "0")}`;
const resendLog = async (to: string) => (await (await fetch(`${env.TEST_RECEIVER}/resend/_log/${encodeURIComponent(to)}`)).json()) as { requests: number; emails: any[] };

/** An e-mail sent through Resend's stand-in: its row, the account and the id Resend gave it. */
async function sentEmail(accountId: number, to = address()) {
  const id = await queuedRow(accountId, { channel: "email", recipient: to, body: "Your booking is confirmed." });
  await runQueue("booking-messages", [{ account_id: accountId, message_id: id }], RESEND);
  const row = await messageRow(id);
  expect(row).toMatchObject({ status: "sent", provider: "resend" });
  return { id, to, emailId: row!.provider_message_id as string };
}

let events = 0;
/** A Resend event about message `messageId` of `accountId`, signed as Resend signs it (or with `secret`). */
function resendEvent(
  accountId: number,
  messageId: number,
  emailId: string,
  type: string,
  extra: Record<string, unknown> = {},
  opts: { secret?: string; id?: string; at?: Date } = {},
) {
  const body = JSON.stringify({
    type,
    created_at: new Date().toISOString(),
    data: {
      email_id: emailId,
      created_at: new Date().toISOString(),
      from: "Salon <bookings@mail.example.com>",
      to: ["someone@example.com"],
      subject: "Your booking",
      tags: { account_id: String(accountId), message_id: String(messageId) },
      ...extra,
    },
  });
  const id = opts.id ?? `msg_${Date.now()}_${(events += 1)}`;
  const at = opts.at ?? new Date();
  const signature = new Webhook(opts.secret ?? env.RESEND_WEBHOOK_SECRET!).sign(id, at, body);
  return { id, body, headers: { "svix-id": id, "svix-timestamp": String(Math.floor(at.getTime() / 1000)), "svix-signature": signature } };
}

const postResend = (event: { body: string; headers: Record<string, string> }) =>
  send("POST", "/api/v1/messages/resend/events", { headers: { "content-type": "application/json", ...event.headers }, body: event.body });

async function postTwilio(params: Record<string, string>, query: string, signWith = "twilio-test-token") {
  const url = `${CALLBACK}?${query}`;
  return send("POST", url, {
    headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": await twilioSignature(signWith, url, params) },
    body: new URLSearchParams(params).toString(),
  });
}

const bounce = (type = "Permanent") => ({ bounce: { type, subType: "General", message: "550 5.1.1 The email account does not exist." } });

describe("Resend's delivery events", () => {
  let api: Client;
  let accountId: number;
  beforeAll(async () => {
    const made = await newAccount();
    api = made.api;
    accountId = made.account.id;
  });

  it("keeps the id Resend gave the e-mail, and tags it with the account and the message", async () => {
    const { id, to, emailId } = await sentEmail(accountId);
    const { emails } = await resendLog(to);
    expect(emails[0].id).toBe(emailId);
    expect(emails[0].body.tags).toEqual([
      { name: "account_id", value: String(accountId) },
      { name: "message_id", value: String(id) },
    ]);
  });

  it("marks a message delivered once, and announces it with message.delivered", async () => {
    const target = receiver();
    const hook = (await must(api.post("/web_hooks", { web_hook: { target_url: target.url, event: "message.delivered" } }))).web_hook;
    const { id, emailId } = await sentEmail(accountId);
    const event = resendEvent(accountId, id, emailId, "email.delivered");
    const first = await postResend(event);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body).toEqual({ received: true, applied: "updated" });
    expect(await postResend(event)).toMatchObject({ status: 200, body: { applied: "duplicate" } });
    expect((await must(api.get(`/messages/${id}`))).message).toMatchObject({ status: "delivered", error: null });
    const requests = await eventually(target.requests, (r) => r.length > 0);
    expect(requests).toHaveLength(1);
    expect(JSON.parse(requests[0].body)).toMatchObject({ event: "message.delivered", data: { object: "message", id, message: { id, status: "delivered" } } });
    await must(api.delete(`/web_hooks/${hook.id}`));
  });

  it("refuses the address after a hard bounce: the next message to it is stored failed and never reaches Resend", async () => {
    const target = receiver();
    await must(api.post("/web_hooks", { web_hook: { target_url: target.url, event: "message.bounced" } }));
    const { id, to, emailId } = await sentEmail(accountId);
    expect(await postResend(resendEvent(accountId, id, emailId, "email.bounced", bounce()))).toMatchObject({ status: 200, body: { applied: "updated" } });
    expect((await must(api.get(`/messages/${id}`))).message).toMatchObject({
      status: "bounced",
      error: "bounced (Permanent/General): 550 5.1.1 The email account does not exist.",
    });
    const refused = (await must(api.get("/messages/undeliverable"))).map((e: any) => e.undeliverable_recipient);
    expect(refused).toContainEqual(expect.objectContaining({ channel: "email", recipient: to, reason: "bounced", message_id: id }));

    const later = await queuedRow(accountId, { channel: "email", recipient: to, body: "Reminder" });
    const result = await runQueue("booking-messages", [{ account_id: accountId, message_id: later }], RESEND);
    expect(result.explicitAcks).toEqual(["m0"]);
    expect((await messageRow(later))!).toMatchObject({ status: "failed" });
    expect((await messageRow(later))!.error).toMatch(new RegExp(`^not sent: ${to.replace(/[.+]/g, "\\$&")} is undeliverable \\(bounced since `));
    expect((await resendLog(to)).requests).toBe(1);
    const announced = await eventually(target.requests, (r) => r.length > 0);
    expect(JSON.parse(announced[0].body)).toMatchObject({ event: "message.bounced", data: { id, message: { status: "bounced" } } });
  });

  it("lets the shop release a refused address, after which messages go to it again", async () => {
    const { id, to, emailId } = await sentEmail(accountId);
    await postResend(resendEvent(accountId, id, emailId, "email.complained"));
    expect((await messageRow(id))!.status).toBe("complained");
    const other = await newAccount();
    // Another account's list is its own, and it cannot release this one's.
    expect((await must(other.api.get("/messages/undeliverable"))).length).toBe(0);
    expect((await other.api.delete(`/messages/undeliverable/email/${encodeURIComponent(to)}`)).status).toBe(404);
    const released = await api.delete(`/messages/undeliverable/email/${encodeURIComponent(to)}`);
    expect(released.status, JSON.stringify(released.body)).toBe(200);
    expect(released.body.undeliverable_recipient).toMatchObject({ channel: "email", recipient: to, reason: "complained" });
    expect((await api.delete(`/messages/undeliverable/email/${encodeURIComponent(to)}`)).status).toBe(404);
    expect((await api.delete(`/messages/undeliverable/fax/${encodeURIComponent(to)}`)).status).toBe(404);
    const again = await sentEmail(accountId, to);
    expect((await resendLog(to)).emails.map((e) => e.id)).toEqual([emailId, again.emailId]);
  });

  it("never moves a status back: a delivery reported after a bounce changes nothing", async () => {
    const { id, emailId } = await sentEmail(accountId);
    await postResend(resendEvent(accountId, id, emailId, "email.bounced", bounce()));
    expect(await postResend(resendEvent(accountId, id, emailId, "email.delivered"))).toMatchObject({ status: 200, body: { applied: "unchanged" } });
    expect((await messageRow(id))!.status).toBe("bounced");
    // A complaint after a delivery is further along: it is taken.
    const second = await sentEmail(accountId);
    await postResend(resendEvent(accountId, second.id, second.emailId, "email.delivered"));
    expect(await postResend(resendEvent(accountId, second.id, second.emailId, "email.complained"))).toMatchObject({ body: { applied: "updated" } });
    expect((await messageRow(second.id))!.status).toBe("complained");
  });

  it("takes a delivery that arrives before the consumer has recorded the send, and the send does not undo it", async () => {
    const to = address();
    const id = await queuedRow(accountId, { channel: "email", recipient: to, body: "Hello" });
    // Resend can report faster than the consumer's last write: the event comes first here.
    expect(await postResend(resendEvent(accountId, id, "early-email-id", "email.delivered"))).toMatchObject({ body: { applied: "updated" } });
    const result = await runQueue("booking-messages", [{ account_id: accountId, message_id: id }], RESEND);
    // The row is settled: the queue message is acked without sending.
    expect(result.explicitAcks).toEqual(["m0"]);
    expect((await resendLog(to)).requests).toBe(0);
    expect((await messageRow(id))!.status).toBe("delivered");
  });

  it("fails a soft bounce's message without refusing the address", async () => {
    const { id, to, emailId } = await sentEmail(accountId);
    await postResend(resendEvent(accountId, id, emailId, "email.bounced", bounce("Transient")));
    expect((await messageRow(id))!.status).toBe("bounced");
    const refused = (await must(api.get("/messages/undeliverable"))).map((e: any) => e.undeliverable_recipient.recipient);
    expect(refused).not.toContain(to);
  });

  it("records events that change no status (sent, delayed, opened) and changes nothing", async () => {
    const { id, emailId } = await sentEmail(accountId);
    for (const type of ["email.sent", "email.delivery_delayed", "email.opened"]) {
      expect(await postResend(resendEvent(accountId, id, emailId, type))).toMatchObject({ status: 200, body: { applied: "ignored" } });
    }
    expect((await messageRow(id))!.status).toBe("sent");
  });

  it.each([
    [
      "signed with another secret",
      (e: ReturnType<typeof resendEvent>) => ({ ...e, ...resendEvent(0, 0, "", "", {}, { secret: `whsec_${btoa("another-secret-of-32-bytes-long!")}` }) }),
    ],
    ["unsigned", (e: ReturnType<typeof resendEvent>) => ({ ...e, headers: {} })],
    ["with a body changed after signing", (e: ReturnType<typeof resendEvent>) => ({ ...e, body: e.body.replace("email.bounced", "email.delivered") })],
  ])("refuses an event %s, changing nothing", async (_, forge) => {
    const { id, to, emailId } = await sentEmail(accountId);
    const forged = forge(resendEvent(accountId, id, emailId, "email.bounced", bounce()));
    const res = await postResend(forged);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatch(/^The event is refused: /);
    expect((await messageRow(id))!.status).toBe("sent");
    const refused = (await must(api.get("/messages/undeliverable"))).map((e: any) => e.undeliverable_recipient.recipient);
    expect(refused).not.toContain(to);
  });

  it("refuses a replayed event whose timestamp is outside the tolerance", async () => {
    const { id, emailId } = await sentEmail(accountId);
    const stale = resendEvent(accountId, id, emailId, "email.bounced", bounce(), { at: new Date(Date.now() - 10 * 60_000) });
    expect((await postResend(stale)).status).toBe(400);
    expect((await messageRow(id))!.status).toBe("sent");
  });

  it("refuses a signed event naming another account's message, changing nothing", async () => {
    const { id, emailId } = await sentEmail(accountId);
    const other = await newAccount();
    const res = await postResend(resendEvent(other.account.id, id, emailId, "email.bounced", bounce()));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ error: "The event names no message of that account." });
    expect((await messageRow(id))!.status).toBe("sent");
    // And one whose Resend id is not the one this message was given.
    const wrongId = await postResend(resendEvent(accountId, id, "another-email-id", "email.bounced", bounce()));
    expect(wrongId.status).toBe(400);
    expect((await messageRow(id))!.status).toBe("sent");
  });

  it("takes a bounce that arrives after the person was erased, refusing no address (none is left)", async () => {
    const person = (await must(api.post("/people", { person: { name: "Late Bounce", email: address("late") } }))).person;
    const id = await queuedRow(accountId, { channel: "email", recipient: person.email, body: "Hello" });
    await env.DB.prepare("UPDATE messages SET person_id = ? WHERE id = ?").bind(person.id, id).run();
    await runQueue("booking-messages", [{ account_id: accountId, message_id: id }], RESEND);
    const { provider_message_id: emailId } = (await messageRow(id))!;
    await must(api.post(`/people/${person.id}/erase`));
    expect(await postResend(resendEvent(accountId, id, emailId, "email.bounced", bounce()))).toMatchObject({ status: 200, body: { applied: "updated" } });
    expect(await messageRow(id)).toMatchObject({ status: "bounced", recipient: "" });
    const refused = await env.DB.prepare("SELECT recipient FROM undeliverable_recipients WHERE account_id = ? AND recipient IN ('', ?)")
      .bind(accountId, person.email)
      .all();
    expect(refused.results).toEqual([]);
  });

  it("refuses an event naming an account that is not here (deleted), changing nothing", async () => {
    const { id, emailId } = await sentEmail(accountId);
    const res = await postResend(resendEvent(999_999_999, id, emailId, "email.bounced", bounce()));
    expect(res).toMatchObject({ status: 400, body: { error: "The event names no account here." } });
    expect((await messageRow(id))!.status).toBe("sent");
  });

  it("applies racing duplicates of one event once", async () => {
    const target = receiver();
    const hook = (await must(api.post("/web_hooks", { web_hook: { target_url: target.url, event: "message.bounced" } }))).web_hook;
    const { id, emailId } = await sentEmail(accountId);
    const event = resendEvent(accountId, id, emailId, "email.bounced", bounce());
    const answers = await Promise.all(Array.from({ length: 6 }, () => postResend(event)));
    expect(answers.map((a) => a.status)).toEqual(Array(6).fill(200));
    expect(answers.filter((a) => a.body.applied === "updated")).toHaveLength(1);
    // Only this message's: earlier tests' events may still be fanned out to the new subscription.
    const deliveriesOfMessage = async () =>
      (await must(api.get(`/web_hooks/${hook.id}/deliveries`))).map((e: any) => e.webhook_delivery).filter((d: any) => d.payload.data.id === id);
    expect(await eventually(deliveriesOfMessage, (d) => d.length > 0)).toHaveLength(1);
    // A second announcement would have been queued with the first.
    await new Promise((r) => setTimeout(r, 1_000));
    expect(await deliveriesOfMessage()).toHaveLength(1);
    const events = await env.DB.prepare("SELECT COUNT(*) AS n FROM message_events WHERE account_id = ? AND event_id = ?")
      .bind(accountId, event.id)
      .first<{ n: number }>();
    expect(events!.n).toBe(1);
  });
});

describe("Twilio's status callbacks", () => {
  let accountId: number;
  beforeAll(async () => {
    accountId = (await newAccount()).account.id;
  });

  /** An SMS sent through Twilio's stand-in, with the status callback the Worker asked for. */
  async function sentSms(to = number()) {
    const id = await queuedRow(accountId, { recipient: to, body: "Hello" });
    await runQueue("booking-messages", [{ account_id: accountId, message_id: id }], TWILIO);
    const row = await messageRow(id);
    const [form] = (await (await fetch(`${env.TEST_RECEIVER}/twilio/_log/${encodeURIComponent(to)}`)).json()) as Record<string, string>[];
    return { id, to, sid: row!.provider_message_id as string, callback: form.StatusCallback };
  }

  it("asks Twilio to report to the configured callback, naming the account and the message", async () => {
    const { id, sid, callback } = await sentSms();
    expect(sid).toMatch(/^SM[0-9a-f]{32}$/);
    expect(callback).toBe(`${CALLBACK}?account_id=${accountId}&message_id=${id}`);
  });

  it("marks an SMS delivered, once", async () => {
    const { id, sid, to } = await sentSms();
    const params = { MessageSid: sid, MessageStatus: "delivered", To: to, AccountSid: SID };
    const query = `account_id=${accountId}&message_id=${id}`;
    expect(await postTwilio(params, query)).toMatchObject({ status: 200, body: { applied: "updated" } });
    expect(await postTwilio(params, query)).toMatchObject({ status: 200, body: { applied: "duplicate" } });
    expect((await messageRow(id))!.status).toBe("delivered");
  });

  it("refuses a number Twilio cannot reach for good, and the next SMS to it is not sent", async () => {
    const { id, sid, to } = await sentSms();
    const query = `account_id=${accountId}&message_id=${id}`;
    await postTwilio({ MessageSid: sid, MessageStatus: "sent", To: to }, query);
    expect(await postTwilio({ MessageSid: sid, MessageStatus: "undelivered", ErrorCode: "30005", To: to }, query)).toMatchObject({ body: { applied: "updated" } });
    expect(await messageRow(id)).toMatchObject({ status: "undelivered", error: "Twilio: undelivered (error 30005)" });
    const later = await queuedRow(accountId, { recipient: to, body: "Reminder" });
    await runQueue("booking-messages", [{ account_id: accountId, message_id: later }], TWILIO);
    expect((await messageRow(later))!.status).toBe("failed");
    expect((await (await fetch(`${env.TEST_RECEIVER}/twilio/_log/${encodeURIComponent(to)}`)).json()) as unknown[]).toHaveLength(1);
  });

  it("does not refuse a number for an error that may pass (30003, the handset is off)", async () => {
    const { id, sid, to } = await sentSms();
    await postTwilio({ MessageSid: sid, MessageStatus: "undelivered", ErrorCode: "30003", To: to }, `account_id=${accountId}&message_id=${id}`);
    expect((await messageRow(id))!.status).toBe("undelivered");
    const later = await queuedRow(accountId, { recipient: to, body: "Reminder" });
    await runQueue("booking-messages", [{ account_id: accountId, message_id: later }], TWILIO);
    expect((await messageRow(later))!.status).toBe("sent");
  });

  it("refuses a callback signed with another token, or whose URL was changed after signing", async () => {
    const { id, sid, to } = await sentSms();
    const params = { MessageSid: sid, MessageStatus: "undelivered", ErrorCode: "30005", To: to };
    expect((await postTwilio(params, `account_id=${accountId}&message_id=${id}`, "another-token")).status).toBe(400);
    const url = `${CALLBACK}?account_id=${accountId}&message_id=${id}`;
    const signature = await twilioSignature("twilio-test-token", url, params);
    const moved = await send("POST", `${CALLBACK}?account_id=${accountId}&message_id=${id + 1}`, {
      headers: { "content-type": "application/x-www-form-urlencoded", "x-twilio-signature": signature },
      body: new URLSearchParams(params).toString(),
    });
    expect(moved.status).toBe(400);
    const unsigned = await send("POST", url, { headers: { "content-type": "application/x-www-form-urlencoded" }, body: new URLSearchParams(params).toString() });
    expect(unsigned.status).toBe(400);
    expect((await messageRow(id))!.status).toBe("sent");
  });
});

describe("over SMTP", () => {
  const [SMTP_HOST, SMTP_PORT] = env.TEST_SMTP.split(":");
  const smtp = { MESSAGE_PROVIDER: "smtp", SMTP_HOST, SMTP_PORT, SMTP_SECURITY: "none", MAIL_FROM: "bookings@mail.example.com" };

  it("fails at once, visibly, a message the server will not take for its size, without refusing the address", async () => {
    const { account } = await newAccount();
    const to = `toolarge-${Date.now()}@example.com`;
    const id = await queuedRow(account.id, { channel: "email", recipient: to, body: "Hello" });
    const result = await runQueue("booking-messages", [{ account_id: account.id, message_id: id }], smtp);
    expect(result.retryMessages).toEqual([]);
    expect(await messageRow(id)).toMatchObject({ status: "failed", error: "SMTP message: 552 5.3.4 Message too big for system" });
    const rows = await env.DB.prepare("SELECT 1 FROM undeliverable_recipients WHERE account_id = ? AND recipient = ?").bind(account.id, to).all();
    expect(rows.results).toEqual([]);
  });

  it("refuses an address the server calls unknown (550 5.1.1) for later messages", async () => {
    const { account } = await newAccount();
    const to = `refused-${Date.now()}@example.com`;
    const id = await queuedRow(account.id, { channel: "email", recipient: to, body: "Hello" });
    await runQueue("booking-messages", [{ account_id: account.id, message_id: id }], smtp);
    expect((await messageRow(id))!.status).toBe("failed");
    const rows = await env.DB.prepare("SELECT reason, detail FROM undeliverable_recipients WHERE account_id = ? AND recipient = ?").bind(account.id, to).all();
    expect(rows.results).toEqual([{ reason: "bounced", detail: expect.stringContaining("550 5.1.1") }]);
  });
});
