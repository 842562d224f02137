// SMS through Twilio's Messages API (SMS_PROVIDER=twilio), against the receiver's stand-in of it
// (test/support/receiver-server.ts): the form and credentials sent, and which refusals are retried.
import { beforeAll, describe, expect, it } from "vitest";
import { env, newAccount } from "../support/api";
import { messageRow, queuedRow } from "../support/messages";
import { runQueue } from "../support/queues";

const SID = `AC${"0123456789abcdef".repeat(2)}`;
const TWILIO = {
  MESSAGE_PROVIDER: "smtp",
  SMS_PROVIDER: "twilio",
  TWILIO_ACCOUNT_SID: SID,
  TWILIO_AUTH_TOKEN: "twilio-test-token",
  TWILIO_FROM: "+4759000000",
  TWILIO_API_BASE: `${env.TEST_RECEIVER}/twilio`,
  // No status callback unless one is configured (messages-delivery-events.test.ts has one).
  TWILIO_STATUS_CALLBACK: "",
};
const forms = async (to: string) => (await (await fetch(`${env.TEST_RECEIVER}/twilio/_log/${encodeURIComponent(to)}`)).json()) as any[];

let serial = 0;
/** A number no other test texts (the stand-in logs per number). */
const number = () => `+1202555${String((Date.now() + (serial += 1)) % 10_000).padStart(4, "0")}`;

describe("SMS through Twilio", () => {
  let accountId: number;
  beforeAll(async () => {
    accountId = (await newAccount()).account.id;
  });

  it("posts the delivered text to the account's Messages resource with Basic credentials, and marks it sent by twilio", async () => {
    const to = number();
    const id = await queuedRow(accountId, { recipient: to, body: "Your code is •••••" });
    const result = await runQueue("booking-messages", [{ account_id: accountId, message_id: id, secret_body: "Your code is 12345" }], TWILIO);
    expect(result.explicitAcks).toEqual(["m0"]);
    expect(await forms(to)).toEqual([{ To: to, From: "+4759000000", Body: "Your code is 12345" }]);
    // The code reached the phone; the stored copy keeps the masked text.
    expect(await messageRow(id)).toMatchObject({ status: "sent", provider: "twilio", error: null, body: "Your code is •••••" });
  });

  it("sends from a Messaging Service when TWILIO_FROM is one", async () => {
    const to = number();
    const id = await queuedRow(accountId, { recipient: to, body: "Hello" });
    const service = `MG${"a".repeat(32)}`;
    await runQueue("booking-messages", [{ account_id: accountId, message_id: id }], { ...TWILIO, TWILIO_FROM: service });
    expect(await forms(to)).toEqual([{ To: to, MessagingServiceSid: service, Body: "Hello" }]);
  });

  it.each([
    ["+15005550001", "Twilio 400 21211: The 'To' number +15005550001 is not a valid phone number."],
    ["+15005550004", "Twilio 400 21610: Attempt to send to unsubscribed recipient"],
  ])("fails at once a message Twilio refuses for good (%s)", async (to, error) => {
    const id = await queuedRow(accountId, { recipient: to, body: "Hello" });
    const result = await runQueue("booking-messages", [{ account_id: accountId, message_id: id }], TWILIO);
    expect(result.retryMessages).toEqual([]);
    expect(await messageRow(id)).toMatchObject({ status: "failed", provider: "twilio", error });
  });

  it.each([
    ["+15005550429", {}, "Twilio 429 20429: Too Many Requests"],
    ["+15005550500", {}, "Twilio 500 20500: Internal Server Error"],
    ["+12025550199", { TWILIO_AUTH_TOKEN: "wrong-token" }, "Twilio 401 20003: Authenticate"],
    ["+12025550198", { TWILIO_AUTH_TOKEN: "" }, "TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN and TWILIO_FROM must all be configured"],
  ])("keeps the message queued and retries it (%s)", async (to, overrides, error) => {
    const id = await queuedRow(accountId, { recipient: to, body: "Hello" });
    const result = await runQueue("booking-messages", [{ account_id: accountId, message_id: id }], { ...TWILIO, ...overrides });
    expect(result.retryMessages).toHaveLength(1);
    const row = await messageRow(id);
    expect(row).toMatchObject({ status: "queued", provider: "twilio", error });
    expect(row!.error).not.toContain("wrong-token");
  });

  it("sends SMS to SMS_PROVIDER_URL beside an e-mail provider when SMS_PROVIDER is not twilio", async () => {
    const bucket = `twilio-off-${Date.now()}`;
    const id = await queuedRow(accountId, { recipient: number(), body: "Hello" });
    await runQueue("booking-messages", [{ account_id: accountId, message_id: id }], {
      MESSAGE_PROVIDER: "smtp",
      SMS_PROVIDER_URL: `${env.TEST_RECEIVER}/messages/${bucket}/ok`,
    });
    expect(await messageRow(id)).toMatchObject({ status: "sent", provider: "http" });
    expect(await (await fetch(`${env.TEST_RECEIVER}/messages/${bucket}`)).json()).toHaveLength(1);
  });
});
