// A real SMTP server for the tests (smtp-server, in the Node process that runs vitest, started by
// vitest.config.ts): the Worker connects to it over `cloudflare:sockets` as it would to any
// provider's, and the tests read what arrived through the receiver (`GET <receiver>/mail/<address>`).
// It asks for AUTH (PLAIN or LOGIN) with the credentials below and offers no STARTTLS (a test
// certificate would not verify in workerd). Recipients choose a fault by their local part:
//   refused-…@…  550 to RCPT TO (a hard bounce at the server)
//   busy-…@…     451 to RCPT TO (try again later)
//   closing-…@…  421 to RCPT TO, and the server closes the connection
//   toolarge-…@… 552 after the message's data (too large for this server)
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";

export const SMTP_TEST_USER = "booking-tests";
export const SMTP_TEST_PASSWORD = "smtp-test-password";

interface ReceivedMail {
  /** MAIL FROM and RCPT TO of the SMTP envelope. */
  envelope: { from: string | null; to: string[] };
  /** Who logged in. */
  user: string | null;
  /** The message as it arrived (RFC 5322 text). */
  raw: string;
}

const inbox = new Map<string, ReceivedMail[]>();

/** What arrived for one address, oldest first. */
export const mailFor = (address: string) => inbox.get(address.toLowerCase()) ?? [];

const refusal = (code: number, text: string) => Object.assign(new Error(text), { responseCode: code });

let listening: Promise<string> | undefined;
/** Starts the server once per process; resolves to `127.0.0.1:<port>`. */
export function startMailServer() {
  listening ??= new Promise<string>((resolve, reject) => {
    const server = new SMTPServer({
      logger: false,
      disabledCommands: ["STARTTLS"],
      authMethods: ["PLAIN", "LOGIN"],
      allowInsecureAuth: true,
      onAuth(auth, _session, callback) {
        if (auth.username === SMTP_TEST_USER && auth.password === SMTP_TEST_PASSWORD) return callback(null, { user: auth.username });
        callback(refusal(535, "Authentication failed"));
      },
      onRcptTo(address, session, callback) {
        if (address.address.startsWith("vanish-")) {
          const connections = (server as unknown as { connections: Set<{ id: string; _socket: { destroy(): void } }> }).connections;
          for (const connection of connections) if (connection.id === session.id) connection._socket.destroy();
          return;
        }
        if (address.address.startsWith("refused-")) return callback(refusal(550, "5.1.1 No such user here"));
        if (address.address.startsWith("busy-")) return callback(refusal(451, "4.3.0 Try again later"));
        // smtp-server ends the connection after a 421.
        if (address.address.startsWith("closing-")) return callback(refusal(421, "4.4.2 Closing connection"));
        callback();
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on("data", (chunk: Buffer) => chunks.push(chunk));
        stream.on("end", () => {
          if (session.envelope.rcptTo.some((r) => r.address.startsWith("toolarge-"))) return callback(refusal(552, "5.3.4 Message too big for system"));
          const mail: ReceivedMail = {
            envelope: {
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : null,
              to: session.envelope.rcptTo.map((r) => r.address),
            },
            user: typeof session.user === "string" ? session.user : null,
            raw: Buffer.concat(chunks).toString("utf8"),
          };
          for (const to of mail.envelope.to) inbox.set(to.toLowerCase(), [...mailFor(to), mail]);
          callback();
        });
      },
    });
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      // The test run ends when vitest is done, not when this server is.
      (server as unknown as { server: { unref(): void; address(): AddressInfo } }).server.unref();
      resolve(`127.0.0.1:${(server as unknown as { server: { address(): AddressInfo } }).server.address().port}`);
    });
  });
  return listening;
}
