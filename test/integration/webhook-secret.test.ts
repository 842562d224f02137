// The web hook secret as Standard Webhooks defines it: `whsec_` + base64, verified here with the
// `standardwebhooks` package a receiver would use, and its rotation with a grace period.
import { Webhook } from "standardwebhooks";
import { beforeAll, describe, expect, it } from "vitest";
import { env, newAccount, type Client } from "../support/api";
import { must } from "../support/bookings";
import { drive, eventMessage, receiver, serviceSignatureValid } from "../support/webhooks";

const setSecrets = (accountId: number, columns: Record<string, string | number | null>) => {
  const names = Object.keys(columns);
  return env.DB.prepare(`update accounts set ${names.map((n) => `${n} = ?`).join(", ")} where id = ?`)
    .bind(...Object.values(columns), accountId)
    .run();
};

/** One real delivery to a fresh receiver; answers the request as the receiver saw it. */
async function deliverOne(api: Client, accountId: number) {
  const target = receiver();
  await must(api.post("/web_hooks", { web_hook: { target_url: target.url, event: "booking.created" } }));
  await drive([eventMessage(accountId, "booking.created", 42)]);
  const [request] = await target.requests();
  return request;
}

const verifies = (secret: string, request: { headers: Record<string, string>; body: string }) => {
  try {
    new Webhook(secret).verify(request.body, request.headers);
    return true;
  } catch {
    return false;
  }
};

describe("webhook secrets", () => {
  it("are whsec_ + standard base64, and the standardwebhooks package verifies real deliveries", async () => {
    const { api, account, webhookSecret } = await newAccount();
    expect(webhookSecret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    const request = await deliverOne(api, account.id);
    expect(new Webhook(webhookSecret).verify(request.body, request.headers)).toMatchObject({ event: "booking.created" });
    expect(serviceSignatureValid(webhookSecret, request.body, request.headers["x-service-signature"])).toBe(true);
    expect(verifies(webhookSecret, { ...request, body: request.body.replace("42", "43") })).toBe(false);
  });

  it("still sign with a secret of the older base64url form", async () => {
    const { api, account } = await newAccount();
    const older = "whsec_q-_0Ab1Cd2Ef3Gh4Ij5Kl6Mn7Op8Qr9S"; // 24 bytes, base64url as issued before
    await setSecrets(account.id, { webhook_secret: older });
    const request = await deliverOne(api, account.id);
    expect(serviceSignatureValid(older, request.body, request.headers["x-service-signature"])).toBe(true);
    expect(verifies(`whsec_${older.slice("whsec_".length).replace(/-/g, "+").replace(/_/g, "/")}`, request)).toBe(true);
  });
});

describe("GET /api/v1/client/webhook_secret", () => {
  it("answers the account's own secret and no previous one before any rotation", async () => {
    const { api, webhookSecret } = await newAccount();
    expect(await must(api.get("/client/webhook_secret"))).toEqual({
      webhook_secret: { secret: webhookSecret, previous_secret_expires_at: null },
    });
  });

  it("needs the API key", async () => {
    const { api } = await newAccount();
    expect((await api.get("/client/webhook_secret", { authorization: "Bearer bk_wrong" })).status).toBe(401);
  });
});

describe("POST /api/v1/client/webhook_secret/rotate", () => {
  let mine: Awaited<ReturnType<typeof newAccount>>;
  let rotated: { secret: string; previous_secret_expires_at: string };

  beforeAll(async () => {
    mine = await newAccount();
    rotated = (await must(mine.api.post("/client/webhook_secret/rotate"))).webhook_secret;
  });

  it("answers a new secret, keeps the old one for 24 hours and shows neither in GET /client", async () => {
    expect(rotated.secret).toMatch(/^whsec_[A-Za-z0-9+/]{32}$/);
    expect(rotated.secret).not.toBe(mine.webhookSecret);
    const expires = Date.parse(rotated.previous_secret_expires_at);
    expect(Math.abs(expires - (Date.now() + 24 * 3600_000))).toBeLessThan(60_000);
    expect((await must(mine.api.get("/client/webhook_secret"))).webhook_secret).toEqual(rotated);
    const client = JSON.stringify(await must(mine.api.get("/client")));
    expect(client).not.toContain(rotated.secret);
    expect(client).not.toContain(mine.webhookSecret);
  });

  it("signs with both secrets during the grace period, so receivers on either verify", async () => {
    const request = await deliverOne(mine.api, mine.account.id);
    expect(request.headers["webhook-signature"].split(" ")).toHaveLength(2);
    expect(verifies(rotated.secret, request)).toBe(true);
    expect(verifies(mine.webhookSecret, request)).toBe(true);
    expect(serviceSignatureValid(rotated.secret, request.body, request.headers["x-service-signature"])).toBe(true);
    expect(serviceSignatureValid(mine.webhookSecret, request.body, request.headers["x-service-signature-previous"])).toBe(true);
  });

  it("stops signing with the old secret once the grace period is over", async () => {
    await setSecrets(mine.account.id, { previous_webhook_secret_expires_at: Date.now() - 1000 });
    const request = await deliverOne(mine.api, mine.account.id);
    expect(request.headers["webhook-signature"].split(" ")).toHaveLength(1);
    expect(request.headers).not.toHaveProperty("x-service-signature-previous");
    expect(verifies(rotated.secret, request)).toBe(true);
    expect(verifies(mine.webhookSecret, request)).toBe(false);
    expect((await must(mine.api.get("/client/webhook_secret"))).webhook_secret.previous_secret_expires_at).toBeNull();
  });

  it("leaves other accounts' secrets alone", async () => {
    const other = await newAccount();
    await must(mine.api.post("/client/webhook_secret/rotate"));
    expect((await must(other.api.get("/client/webhook_secret"))).webhook_secret.secret).toBe(other.webhookSecret);
  });
});
