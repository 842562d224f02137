// The receivers of the tests' outbound HTTP, run as an auxiliary Worker that receives the test
// Worker's outbound fetches (vitest.config.ts, `outboundService`): web hooks under
// `receiver.test`, message providers at `messages-receiver.test`; anything else passes through.
//   POST https://hooks.receiver.test/<key>?fail=N&status=S  fails the first N requests for <key>
//        with S (default 500), then answers 200; fail=always never succeeds.
//   POST https://hooks.receiver.test/<key>?seq=down,hang,503  answers request n as the n-th item, then
//        200: `down` drops it as a refused connection would, `hang` never answers (the caller's
//        timeout ends it), a number is that status.
//   GET  https://hooks.receiver.test/_log/<key>  the requests received for <key>, oldest first.
const received = new Map();
const messages = new Map();

/**
 * Message provider receiver: POST /<bucket>/ok records and answers 200, /<bucket>/fail records
 * and answers 503; GET /<bucket> reads back what the bucket received.
 */
async function messageProvider(request, url) {
  const [bucket, outcome] = url.pathname.slice(1).split("/");
  if (request.method === "GET") return Response.json(messages.get(bucket) ?? []);
  const entry = {
    outcome,
    authorization: request.headers.get("authorization"),
    idempotency_key: request.headers.get("idempotency-key"),
    content_type: request.headers.get("content-type"),
    body: JSON.parse(await request.text()),
  };
  messages.set(bucket, [...(messages.get(bucket) ?? []), entry]);
  return new Response(outcome === "fail" ? "unavailable" : "ok", { status: outcome === "fail" ? 503 : 200 });
}

/** A scripted fault. Nothing listens on port 1, so `down` is a real refused connection. */
async function misbehave(fault) {
  if (fault === "down") return fetch("http://127.0.0.1:1/");
  // Longer than any caller's timeout; the runtime cancels it when the caller gives up.
  if (fault === "hang") await new Promise((resolve) => setTimeout(resolve, 30_000));
  return new Response("not now", { status: Number(fault) || 500 });
}

export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.hostname === "messages-receiver.test") return messageProvider(request, url);
    if (url.hostname !== "receiver.test" && !url.hostname.endsWith(".receiver.test")) return fetch(request);
    if (request.method === "GET" && url.pathname.startsWith("/_log/")) {
      return Response.json(received.get(url.pathname.slice("/_log/".length)) ?? []);
    }
    const key = url.pathname.slice(1);
    const log = received.get(key) ?? [];
    received.set(key, log);
    log.push({ method: request.method, url: request.url, headers: Object.fromEntries(request.headers), body: await request.text() });
    const scripted = url.searchParams.get("seq")?.split(",")[log.length - 1];
    if (scripted) return misbehave(scripted);
    const fail = url.searchParams.get("fail");
    const failing = fail === "always" || log.length <= Number(fail ?? 0);
    return new Response(failing ? "not now" : "ok", { status: failing ? Number(url.searchParams.get("status") ?? 500) : 200 });
  },
};
