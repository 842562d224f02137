// How a person's national identity number is kept at rest: AES-256-GCM under the Worker secret
// PERSONAL_DATA_KEYS, beside a keyed hash that uniqueness, matching and the people filters compare
// (docs/decisions/personal-data.md, "National identity numbers"). Synchronous, so the serializers
// that answer the number stay synchronous: AES-GCM from @noble/ciphers; HMAC-SHA-256 and HKDF from
// fast-sha256, which the bundle already holds for standardwebhooks (a second SHA-256 would not fit its budget).
import { gcm } from "@noble/ciphers/aes.js";
import { bytesToUtf8, utf8ToBytes } from "@noble/ciphers/utils.js";
import { hkdf, hmac } from "fast-sha256";

/** One key of the ring: its id (written into every value it seals) and the keys derived from its secret. */
export interface NationalIdKey {
  id: string;
  /** AES-256-GCM key. */
  seal: Uint8Array;
  /** HMAC-SHA-256 key: never the cipher's key, so neither use weakens the other. */
  hash: Uint8Array;
}

/** The ring from PERSONAL_DATA_KEYS: the first key seals and hashes; every key still opens and matches. */
export interface NationalIdKeys {
  current: NationalIdKey;
  all: NationalIdKey[];
}

/** The stored form's version; the key id follows it: `v1:<key id>:<base64url of nonce and ciphertext>`. */
const VERSION = "v1";
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;
const SEALED = /^v1:([A-Za-z0-9_-]{1,32}):([A-Za-z0-9_-]+)$/;
const NONCE_BYTES = 12;
const TAG_BYTES = 16;

const base64ToBytes = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
const bytesToBase64Url = (bytes: Uint8Array) =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
const base64UrlToBytes = (text: string) => base64ToBytes(text.replace(/-/g, "+").replace(/_/g, "/"));

const derive = (secret: Uint8Array, use: string) => hkdf(secret, undefined, utf8ToBytes(`booking-edge people.national_id_no ${use}`), 32);

/**
 * `k2:<base64 of 32 bytes>,k1:<base64 of 32 bytes>` as a ring, or a sentence saying what is wrong
 * (never the value: it is a secret).
 */
export function parseNationalIdKeys(text: string): NationalIdKeys | string {
  const all: NationalIdKey[] = [];
  for (const pair of text
    .split(",")
    .map((p) => p.trim())
    .filter(Boolean)) {
    const at = pair.indexOf(":");
    const id = pair.slice(0, at);
    const encoded = pair.slice(at + 1);
    if (at < 0 || !KEY_ID.test(id) || !/^[A-Za-z0-9+/]+={0,2}$/.test(encoded)) {
      return 'must be id:key pairs separated by commas, e.g. "k2:<base64 of 32 random bytes>,k1:<…>" (ids: letters, digits, - and _)';
    }
    const secret = base64ToBytes(encoded);
    if (secret.length !== 32) return `key "${id}" must be 32 bytes in base64 (it is ${secret.length})`;
    if (all.some((key) => key.id === id)) return `names key "${id}" twice`;
    all.push({ id, seal: derive(secret, "aes-256-gcm"), hash: derive(secret, "hmac-sha-256") });
  }
  if (all.length === 0) return "holds no key";
  return { current: all[0], all };
}

/** The number as every comparison sees it: trimmed, as people input is (docs/decisions/people.md). */
export const normalisedNationalId = (plain: string) => plain.trim();

/**
 * The keyed hash of a number under one key. The account id is part of the input, so the same
 * number in two accounts gives two unrelated hashes and a database copy cannot link the people.
 */
export function nationalIdHash(key: NationalIdKey, accountId: number, plain: string): string {
  return bytesToBase64Url(hmac(key.hash, utf8ToBytes(`${accountId}:${normalisedNationalId(plain)}`)));
}

/** The hashes a stored row may hold for this number: one per key of the ring, the current first. */
export const nationalIdHashes = (keys: NationalIdKeys, accountId: number, plain: string) => keys.all.map((key) => nationalIdHash(key, accountId, plain));

/** The columns a number is stored as: sealed under the current key, and its hash. */
export function sealNationalId(keys: NationalIdKeys, accountId: number, plain: string): { national_id_no: string; national_id_hash: string } {
  const nonce = crypto.getRandomValues(new Uint8Array(NONCE_BYTES));
  const sealed = gcm(keys.current.seal, nonce).encrypt(utf8ToBytes(normalisedNationalId(plain)));
  const payload = new Uint8Array(NONCE_BYTES + sealed.length);
  payload.set(nonce);
  payload.set(sealed, NONCE_BYTES);
  return { national_id_no: `${VERSION}:${keys.current.id}:${bytesToBase64Url(payload)}`, national_id_hash: nationalIdHash(keys.current, accountId, plain) };
}

/** The key id a stored value was sealed with, or null for a value stored in plain text. */
function sealedWith(stored: string): string | null {
  return SEALED.exec(stored)?.[1] ?? null;
}

/**
 * The number a stored value holds. A value without the sealed form is plain text from before
 * encryption (or from a Worker run without keys) and is the number itself. A sealed value whose
 * key is no longer in the ring (or that does not authenticate) cannot be read: null, never the
 * ciphertext.
 */
export function openNationalId(keys: NationalIdKeys | null, stored: string | null): string | null {
  if (stored === null) return null;
  const match = SEALED.exec(stored);
  if (!match) return stored;
  const key = keys?.all.find((k) => k.id === match[1]);
  if (!key) return null;
  const payload = base64UrlToBytes(match[2]);
  if (payload.length < NONCE_BYTES + TAG_BYTES) return null;
  try {
    return bytesToUtf8(gcm(key.seal, payload.subarray(0, NONCE_BYTES)).decrypt(payload.subarray(NONCE_BYTES)));
  } catch {
    return null;
  }
}

/** A row with its national id opened, for comparisons with an input's number (identity rules, merges). */
export function withOpenNationalId<T extends { national_id_no: string | null }>(keys: NationalIdKeys | null, row: T): T {
  return sealedWith(row.national_id_no ?? "") === null ? row : { ...row, national_id_no: openNationalId(keys, row.national_id_no) };
}
