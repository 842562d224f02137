// A real HTTP receiver for the message provider tests, served to the Workers pool as miniflare's
// outbound service (it runs in Node): POST /<bucket>/ok records and answers 200, /<bucket>/fail
// records and answers 503; GET /<bucket> reads back what the bucket received.
import { Response, type Request } from "miniflare";

export const RECEIVER_HOST = "messages-receiver.test";
const received = new Map<string, unknown[]>();

export async function messageReceiver(request: Request): Promise<Response | null> {
  const url = new URL(request.url);
  if (url.hostname !== RECEIVER_HOST) return null;
  const [bucket, outcome] = url.pathname.slice(1).split("/");
  if (request.method === "GET") return Response.json(received.get(bucket) ?? []);
  const entry = {
    outcome,
    authorization: request.headers.get("authorization"),
    idempotency_key: request.headers.get("idempotency-key"),
    content_type: request.headers.get("content-type"),
    body: JSON.parse(await request.text()),
  };
  received.set(bucket, [...(received.get(bucket) ?? []), entry]);
  return new Response(outcome === "fail" ? "unavailable" : "ok", { status: outcome === "fail" ? 503 : 200 });
}
