// A web hook receiver for tests, run as an auxiliary Worker that receives the test Worker's
// outbound fetches (vitest.config.ts, `outboundService`). Hosts under `receiver.test` are
// answered here; anything else passes through unchanged.
//   POST https://hooks.receiver.test/<key>?fail=N&status=S  fails the first N requests for <key>
//        with S (default 500), then answers 200; fail=always never succeeds.
//   GET  https://hooks.receiver.test/_log/<key>  the requests received for <key>, oldest first.
const received = new Map();

export default {
  async fetch(request) {
    const url = new URL(request.url);
    if (url.hostname !== "receiver.test" && !url.hostname.endsWith(".receiver.test")) return fetch(request);
    if (request.method === "GET" && url.pathname.startsWith("/_log/")) {
      return Response.json(received.get(url.pathname.slice("/_log/".length)) ?? []);
    }
    const key = url.pathname.slice(1);
    const log = received.get(key) ?? [];
    received.set(key, log);
    log.push({ method: request.method, url: request.url, headers: Object.fromEntries(request.headers), body: await request.text() });
    const fail = url.searchParams.get("fail");
    const failing = fail === "always" || log.length <= Number(fail ?? 0);
    return new Response(failing ? "not now" : "ok", { status: failing ? Number(url.searchParams.get("status") ?? 500) : 200 });
  },
};
