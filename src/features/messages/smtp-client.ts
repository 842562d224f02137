// One SMTP submission (RFC 5321, RFC 3207 STARTTLS, RFC 4954 AUTH) over `cloudflare:sockets`.
// worker-mailer writes the message (smtp.ts); its own session code is not used: when a server drops
// the connection without a reply, its reader loops on the closed stream without ever yielding, so
// its timeout never fires and the Worker spins until its CPU limit (seen under the test pool:
// the runtime hung), and it carries on in plain text when a server does not offer STARTTLS.
import { connect } from "cloudflare:sockets";

export interface SmtpSession {
  host: string;
  port: number;
  /** "starttls": upgrade before anything else, refusing a server that cannot; "tls": TLS from the start. */
  security: "starttls" | "tls" | "none";
  username?: string;
  password?: string;
  /** The name this client gives in EHLO. */
  clientName: string;
}

export interface Envelope {
  from: string;
  to: string;
  /** The message as DATA sends it: dot-stuffed, ending in CRLF.CRLF. */
  data: string;
}

/** A failed submission; `code` is the server's reply code when it gave one. */
export class SmtpError extends Error {
  constructor(
    readonly stage: string,
    message: string,
    readonly code: number | null = null,
  ) {
    super(`${stage}: ${message}`);
    this.name = "SmtpError";
  }
}

interface Reply {
  code: number;
  lines: string[];
}

const encoder = new TextEncoder();

/** Replies off the socket, line by line; a closed connection or a silent server is an error, never a wait. */
class ReplyReader {
  #buffer = "";
  #decoder = new TextDecoder();
  constructor(
    private reader: ReadableStreamDefaultReader<Uint8Array>,
    private timeoutMs: number,
  ) {}

  async #line(stage: string): Promise<string> {
    for (;;) {
      const end = this.#buffer.indexOf("\n");
      if (end !== -1) {
        const line = this.#buffer.slice(0, end).replace(/\r$/, "");
        this.#buffer = this.#buffer.slice(end + 1);
        return line;
      }
      let timer: ReturnType<typeof setTimeout> | undefined;
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new SmtpError(stage, `no reply within ${this.timeoutMs / 1000} s`)), this.timeoutMs);
      });
      try {
        const { value, done } = await Promise.race([this.reader.read(), timeout]);
        if (done) throw new SmtpError(stage, "the server closed the connection");
        this.#buffer += this.#decoder.decode(value, { stream: true });
        // A server that never ends a line would grow the buffer without bound.
        if (this.#buffer.length > 64 * 1024) throw new SmtpError(stage, "the server's reply is too long");
      } finally {
        clearTimeout(timer);
      }
    }
  }

  /** One reply, multi-line ("250-…" then "250 …") included. */
  async reply(stage: string): Promise<Reply> {
    const lines: string[] = [];
    for (;;) {
      const line = await this.#line(stage);
      const match = /^(\d{3})([ -]?)(.*)$/.exec(line);
      if (!match) throw new SmtpError(stage, `unreadable reply "${line.slice(0, 100)}"`);
      lines.push(match[3]);
      if (match[2] !== "-") return { code: Number(match[1]), lines };
    }
  }

  release() {
    this.reader.releaseLock();
  }
}

/** Submits one message to one recipient; throws SmtpError with the server's code on any refusal. */
export async function submit(session: SmtpSession, envelope: Envelope, timeoutMs = 10_000): Promise<void> {
  let socket = connect(
    { hostname: session.host, port: session.port },
    {
      secureTransport: session.security === "tls" ? "on" : session.security === "starttls" ? "starttls" : "off",
      allowHalfOpen: false,
    },
  );
  let reader = new ReplyReader(socket.readable.getReader(), timeoutMs);
  let writer = socket.writable.getWriter();
  const send = (text: string) => writer.write(encoder.encode(text));
  /** Sends a command (unless null) and reads its reply, which must have the expected first digit. */
  const exchange = async (stage: string, command: string | null, expect: number): Promise<Reply> => {
    if (command !== null) await send(`${command}\r\n`);
    const reply = await reader.reply(stage);
    if (Math.floor(reply.code / 100) !== expect) throw new SmtpError(stage, `${reply.code} ${reply.lines.join(" ").slice(0, 300)}`, reply.code);
    return reply;
  };
  try {
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([
      socket.opened,
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new SmtpError("connect", `no connection within ${timeoutMs / 1000} s`)), timeoutMs);
      }),
    ]).finally(() => clearTimeout(timer));
    await exchange("greeting", null, 2);
    let capabilities = (await exchange("EHLO", `EHLO ${session.clientName}`, 2)).lines.map((l) => l.toUpperCase());
    if (session.security === "starttls") {
      // Never on without TLS: the login and the message would cross the network in the clear.
      if (!capabilities.some((c) => c === "STARTTLS")) throw new SmtpError("STARTTLS", "the server does not offer STARTTLS (SMTP_SECURITY=starttls)");
      await exchange("STARTTLS", "STARTTLS", 2);
      reader.release();
      writer.releaseLock();
      socket = socket.startTls();
      reader = new ReplyReader(socket.readable.getReader(), timeoutMs);
      writer = socket.writable.getWriter();
      capabilities = (await exchange("EHLO", `EHLO ${session.clientName}`, 2)).lines.map((l) => l.toUpperCase());
    }
    if (session.username) {
      const auth =
        capabilities
          .find((c) => c.startsWith("AUTH ") || c.startsWith("AUTH="))
          ?.slice(5)
          .split(/\s+/) ?? [];
      const utf8 = (text: string) => btoa(String.fromCharCode(...encoder.encode(text)));
      if (auth.includes("PLAIN")) {
        await exchange("AUTH", `AUTH PLAIN ${utf8(`\0${session.username}\0${session.password ?? ""}`)}`, 2);
      } else if (auth.includes("LOGIN")) {
        await exchange("AUTH", "AUTH LOGIN", 3);
        await exchange("AUTH", utf8(session.username), 3);
        await exchange("AUTH", utf8(session.password ?? ""), 2);
      } else {
        throw new SmtpError("AUTH", "the server offers neither AUTH PLAIN nor AUTH LOGIN");
      }
    }
    await exchange("MAIL FROM", `MAIL FROM:<${envelope.from}>`, 2);
    await exchange("RCPT TO", `RCPT TO:<${envelope.to}>`, 2);
    await exchange("DATA", "DATA", 3);
    await send(envelope.data);
    await exchange("message", null, 2);
    // The message is accepted: a failed goodbye does not make it unsent.
    await exchange("QUIT", "QUIT", 2).catch(() => undefined);
  } finally {
    await socket.close().catch(() => undefined);
  }
}
