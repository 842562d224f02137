// The route catalogue's requests (bench/route-catalogue.ts) over one keep-alive loopback socket:
// any method, Host and body as the entry made them, and per answer its latency and the runtime's
// CPU time while it was in flight (workerd-cpu.ts). The fleet's client (fleet-client.ts) sends through it too.
import http from "node:http";
import type { Reply, Transport, Wire } from "./route-catalogue";

export interface TimedReply extends Reply {
  latencyMs: number;
  cpuNs: number;
}

export function wireClient(port: number, cpuNow: () => number): { send: Transport<TimedReply>; close(): void } {
  // One socket: requests never queue inside the single-threaded runtime, one in flight at a time.
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const send = (wire: Wire) =>
    new Promise<TimedReply>((resolve, reject) => {
      const cpuBefore = cpuNow();
      const started = performance.now();
      const request = http.request(
        {
          host: "127.0.0.1",
          port,
          method: wire.method,
          path: wire.path,
          agent,
          headers: {
            host: wire.host ?? `127.0.0.1:${port}`,
            ...wire.headers,
            ...(wire.body !== undefined ? { "content-length": Buffer.byteLength(wire.body) } : {}),
          },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (chunk: Buffer) => chunks.push(chunk));
          res.on("end", () => {
            const latencyMs = performance.now() - started;
            const cpuNs = cpuNow() - cpuBefore;
            const headers = new Headers();
            for (const [name, value] of Object.entries(res.headers)) {
              if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
            }
            resolve({ status: res.statusCode ?? 0, headers, text: Buffer.concat(chunks).toString("utf8"), latencyMs, cpuNs });
          });
          res.on("error", reject);
        },
      );
      request.on("error", reject);
      if (wire.body !== undefined) request.write(wire.body);
      request.end();
    });
  return { send, close: () => agent.destroy() };
}
