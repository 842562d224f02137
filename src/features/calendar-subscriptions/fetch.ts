// One conditional GET of a subscribed feed, bounded: the address policy on every hop (no redirect
// to anything the policy refuses, so never to plain http in production or into a private
// network), a timeout, a size limit, and the last answer's validators.
import type { TargetPolicy } from "../webhooks/ssrf";
import { addressProblem } from "./address";

const FETCH_TIMEOUT_MS = 10_000;
/** Larger than any real calendar's window of busy times: a year of a busy person is well under 1 MiB. */
const MAX_FEED_BYTES = 5 * 1024 * 1024;
const MAX_REDIRECTS = 3;

export type FetchOutcome =
  | { kind: "unchanged" }
  | { kind: "fetched"; text: string; etag: string | null; lastModified: string | null }
  | { kind: "failed"; error: string };

export interface Validators {
  etag: string | null;
  lastModified: string | null;
}

async function readBounded(body: ReadableStream<Uint8Array>): Promise<string | null> {
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > MAX_FEED_BYTES) {
      await reader.cancel();
      return null;
    }
    chunks.push(value);
  }
  const whole = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    whole.set(chunk, at);
    at += chunk.byteLength;
  }
  return new TextDecoder().decode(whole);
}

export async function fetchFeed(url: string, validators: Validators, policy: TargetPolicy): Promise<FetchOutcome> {
  const headers: Record<string, string> = { accept: "text/calendar, */*;q=0.5", "user-agent": "booking-edge-api calendar-subscriptions/1" };
  if (validators.etag) headers["if-none-match"] = validators.etag;
  if (validators.lastModified) headers["if-modified-since"] = validators.lastModified;
  const signal = AbortSignal.timeout(FETCH_TIMEOUT_MS);
  let target = url;
  try {
    for (let hop = 0; ; hop++) {
      const problem = addressProblem(target, policy);
      if (problem) return { kind: "failed", error: `the address ${problem}` };
      const res = await fetch(target, { headers, redirect: "manual", signal });
      if (res.status >= 300 && res.status < 400 && res.status !== 304) {
        await res.body?.cancel();
        const location = res.headers.get("location");
        if (!location || hop >= MAX_REDIRECTS) return { kind: "failed", error: `HTTP ${res.status}: too many redirects or none to follow` };
        target = new URL(location, target).toString();
        continue;
      }
      if (res.status === 304) return { kind: "unchanged" };
      if (!res.ok) {
        await res.body?.cancel();
        return { kind: "failed", error: `HTTP ${res.status}` };
      }
      if (Number(res.headers.get("content-length") ?? 0) > MAX_FEED_BYTES) {
        await res.body?.cancel();
        return { kind: "failed", error: `the feed is larger than ${MAX_FEED_BYTES} bytes` };
      }
      const text = res.body ? await readBounded(res.body) : "";
      if (text === null) return { kind: "failed", error: `the feed is larger than ${MAX_FEED_BYTES} bytes` };
      return { kind: "fetched", text, etag: res.headers.get("etag"), lastModified: res.headers.get("last-modified") };
    }
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError");
    return {
      kind: "failed",
      error: timedOut ? `no answer within ${FETCH_TIMEOUT_MS / 1000} s` : `the feed could not be fetched: ${error instanceof Error ? error.message : String(error)}`,
    };
  }
}
