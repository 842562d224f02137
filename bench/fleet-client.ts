// The fleet bench's requests (and the MCP suite's) as the wire client sends them (one keep-alive
// socket, any Host: booking sites are `<sub>.localhost`): the visitor's address in
// CF-Connecting-IP, and per answer its latency, Server-Timing and the runtime's CPU time.
import { wireClient } from "./wire-client";
import { USER_AGENT } from "./wrangler-dev";

export interface Ask {
  method: "GET" | "POST" | "PUT";
  path: string;
  /** The booking site's host, or none for the private API. */
  host?: string;
  ip: string;
  key?: string;
  body?: unknown;
  /** More request headers (the MCP suite's `Accept` and protocol version). */
  headers?: Record<string, string>;
}

export interface Answer {
  status: number;
  latencyMs: number;
  bytes: number;
  serverTiming: string;
  text: string;
  cpuNs: number;
}

export function fleetClient(port: number, cpuNow: () => number) {
  const wire = wireClient(port, cpuNow);
  const send = async (ask: Ask): Promise<Answer> => {
    const payload = ask.body === undefined ? undefined : JSON.stringify(ask.body);
    const reply = await wire.send({
      method: ask.method,
      path: ask.path,
      host: ask.host,
      body: payload,
      headers: {
        "user-agent": USER_AGENT,
        "cf-connecting-ip": ask.ip,
        ...(ask.key ? { authorization: `Bearer ${ask.key}` } : {}),
        ...(payload !== undefined ? { "content-type": "application/json" } : {}),
        ...ask.headers,
      },
    });
    return {
      status: reply.status,
      latencyMs: reply.latencyMs,
      bytes: Buffer.byteLength(reply.text),
      serverTiming: reply.headers.get("server-timing") ?? "",
      text: reply.text,
      cpuNs: reply.cpuNs,
    };
  };
  return { send, close: wire.close };
}
