// Request signatures: the service's own `X-Service-Signature` and the Standard Webhooks headers,
// both keyed with the account's webhook secret (docs/decisions/webhooks.md says how to verify).
const encoder = new TextEncoder();

async function hmacSha256(key: Uint8Array, message: string): Promise<Uint8Array> {
  const cryptoKey = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return new Uint8Array(await crypto.subtle.sign("HMAC", cryptoKey, encoder.encode(message)));
}

const hex = (bytes: Uint8Array) => [...bytes].map((b) => b.toString(16).padStart(2, "0")).join("");
const base64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

/** The Standard Webhooks key: the bytes after `whsec_`, base64 (or base64url, as older secrets were). */
function standardWebhooksKey(secret: string): Uint8Array {
  const encoded = secret
    .replace(/^whsec_/, "")
    .replace(/-/g, "+")
    .replace(/_/g, "/");
  const padded = encoded + "=".repeat((4 - (encoded.length % 4)) % 4);
  return Uint8Array.from(atob(padded), (c) => c.charCodeAt(0));
}

/** `sha256=<hex>` over the raw body, keyed with the secret exactly as shown (UTF-8). */
async function serviceSignature(secret: string, body: string): Promise<string> {
  return `sha256=${hex(await hmacSha256(encoder.encode(secret), body))}`;
}

/** `v1,<base64>` over `{id}.{timestamp}.{body}` (Standard Webhooks). */
async function standardSignature(secret: string, id: string, timestamp: number, body: string): Promise<string> {
  return `v1,${base64(await hmacSha256(standardWebhooksKey(secret), `${id}.${timestamp}.${body}`))}`;
}

/**
 * The headers of one attempt. `secrets` is the current secret first, then a rotated-out one still
 * in its grace period: `webhook-signature` lists one signature per secret, space-separated, as
 * Standard Webhooks allows; `X-Service-Signature` keeps the spec's single value (current secret)
 * and `X-Service-Signature-Previous` carries the old secret's while it lasts.
 */
export async function signatureHeaders(secrets: readonly string[], id: string, timestamp: number, body: string): Promise<Record<string, string>> {
  const [current, previous] = secrets;
  const [service, previousService, ...standard] = await Promise.all([
    serviceSignature(current, body),
    previous ? serviceSignature(previous, body) : null,
    ...secrets.map((secret) => standardSignature(secret, id, timestamp, body)),
  ]);
  return {
    "x-service-signature": service!,
    ...(previousService ? { "x-service-signature-previous": previousService } : {}),
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": standard.join(" "),
  };
}
