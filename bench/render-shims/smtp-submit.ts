// Stands in for smtp-client.ts in the render bench's Node bundle: smtp.ts writes the whole MIME
// message as it does before a real session, and this keeps it instead of sending it, so the bench
// times exactly the provider's own work and can check what it wrote.
import type { Envelope, SmtpSession } from "../../src/features/messages/smtp-client";

export class SmtpError extends Error {
  stage = "";
  code: number | null = null;
}

/** The last message written, for the bench's check that it holds every part. */
export const written = { last: "" };

export async function submit(_session: SmtpSession, envelope: Envelope): Promise<void> {
  written.last = envelope.data;
}
