// Between the Stripe stand-in and the dev server in the browser tests: each signed payment event is
// passed on as it comes, or, while a test holds them, kept until the test lets go. Stripe's redirect
// back to the booking page can outrun its event; the stand-in always delivers first, so a test holds
// the event to see the page back from the checkout before the server has heard of the payment.
//   POST /events    from the stand-in: passed on, or kept and answered 200 at once (the stand-in then redirects the payer)
//   POST /hold      keep every event from now on
//   POST /release   deliver the kept events, in order, and pass the next ones on again
import { createServer, type IncomingMessage } from "node:http";

interface Delivery {
  body: string;
  headers: Record<string, string>;
}

const readBody = (req: IncomingMessage) =>
  new Promise<string>((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });

/** Starts the relay on a free loopback port; `target` is the dev server's event endpoint. */
export async function startPaymentEventsRelay(target: string) {
  let held: Delivery[] | null = null;
  const pass = async ({ body, headers }: Delivery) => {
    const res = await fetch(target, { method: "POST", headers, body });
    await res.arrayBuffer();
    return res.status;
  };

  const server = createServer(async (req, res) => {
    const body = await readBody(req);
    const answer = (status: number, json: unknown) => res.writeHead(status, { "content-type": "application/json" }).end(JSON.stringify(json));
    try {
      if (req.url === "/events") {
        // The signature covers the body and is checked by the Worker: both go on untouched.
        const delivery = {
          body,
          headers: {
            "content-type": String(req.headers["content-type"]),
            "stripe-signature": String(req.headers["stripe-signature"]),
            "user-agent": String(req.headers["user-agent"]),
          },
        };
        if (held) {
          held.push(delivery);
          return answer(200, { held: true });
        }
        // The dev server's own status, so the stand-in still warns about a refused event.
        const status = await pass(delivery);
        return answer(status, { delivered: status });
      }
      if (req.url === "/hold") {
        held ??= [];
        return answer(200, { holding: true });
      }
      if (req.url === "/release") {
        const kept = held ?? [];
        held = null;
        const statuses: number[] = [];
        for (const delivery of kept) statuses.push(await pass(delivery));
        return answer(200, { delivered: statuses });
      }
      return answer(404, { error: `no ${req.method} ${req.url}` });
    } catch (error) {
      return answer(502, { error: String(error) });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
