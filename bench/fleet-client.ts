// One keep-alive HTTP client for the fleet bench: any Host (booking sites are `<sub>.localhost`),
// the visitor's address in CF-Connecting-IP, and per answer its latency, Server-Timing and the
// runtime's CPU time while it was in flight (workerd-cpu.ts).
import http from "node:http";
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
  // One socket: requests never queue inside the single-threaded runtime, as in the other read figures.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const send = (ask: Ask) => new Promise<Answer>((resolve, reject) => {
    const payload = ask.body === undefined ? undefined : JSON.stringify(ask.body);
    const cpuBefore = cpuNow();
    const started = performance.now();
    const request = http.request({
      host: "127.0.0.1", port, method: ask.method, path: ask.path, agent,
      headers: {
        host: ask.host ?? `127.0.0.1:${port}`,
        "user-agent": USER_AGENT,
        "cf-connecting-ip": ask.ip,
        ...(ask.key ? { authorization: `Bearer ${ask.key}` } : {}),
        ...(payload !== undefined ? { "content-type": "application/json", "content-length": Buffer.byteLength(payload) } : {}),
        ...ask.headers,
      },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () => {
        const latencyMs = performance.now() - started;
        const cpuNs = cpuNow() - cpuBefore;
        const body = Buffer.concat(chunks);
        resolve({ status: res.statusCode ?? 0, latencyMs, bytes: body.length, serverTiming: String(res.headers["server-timing"] ?? ""), text: body.toString("utf8"), cpuNs });
      });
      res.on("error", reject);
    });
    request.on("error", reject);
    if (payload !== undefined) request.write(payload);
    request.end();
  });
  return { send, close: () => agent.destroy() };
}
