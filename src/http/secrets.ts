// Key material: API keys and webhook secrets are random, keys are kept only as SHA-256.
const toHex = (bytes: ArrayBuffer | Uint8Array) => [...new Uint8Array(bytes)].map((b) => b.toString(16).padStart(2, "0")).join("");

export function randomToken(prefix: string, bytes = 24): string {
  const raw = crypto.getRandomValues(new Uint8Array(bytes));
  const b64 = btoa(String.fromCharCode(...raw))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
  return `${prefix}${b64}`;
}

export async function sha256Hex(text: string): Promise<string> {
  return toHex(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
}

/** Compares two secrets in time that does not depend on where they differ. */
export async function secretsEqual(a: string, b: string): Promise<boolean> {
  // Hashing first gives equal-length inputs, so the length itself leaks nothing.
  const [ha, hb] = await Promise.all([a, b].map((s) => crypto.subtle.digest("SHA-256", new TextEncoder().encode(s))));
  return crypto.subtle.timingSafeEqual(ha, hb);
}

export const newApiKey = () => randomToken("bk_", 24);
/**
 * `whsec_` + standard base64 of 24 random bytes, the form Standard Webhooks libraries decode
 * (`new Webhook(secret)`). Older secrets were base64url; signing still reads those (sign.ts).
 */
export function newWebhookSecret(): string {
  return `whsec_${btoa(String.fromCharCode(...crypto.getRandomValues(new Uint8Array(24))))}`;
}
