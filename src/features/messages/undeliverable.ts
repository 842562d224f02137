// Recipients an account's messages no longer go to (docs/decisions/messages.md, "What comes back"):
// listed for the shop, and released by it once the visitor has fixed their mailbox or phone.
import { and, count, desc, eq } from "drizzle-orm";
import { undeliverableRecipients } from "../../db/schema";
import { formatInstant } from "../../domain/time";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import type { PageRequest } from "../../http/pagination";
import type { Channel } from "./kinds";

type UndeliverableRecipient = typeof undeliverableRecipients.$inferSelect;

export const toUndeliverableJson = (row: UndeliverableRecipient, timeZone: string) => ({
  channel: row.channel,
  recipient: row.recipient,
  reason: row.reason,
  detail: row.detail,
  message_id: row.message_id,
  created_at: formatInstant(row.created_at, timeZone),
});

export async function listUndeliverable({ db, account }: Deps, request: PageRequest) {
  const own = eq(undeliverableRecipients.account_id, account.id);
  const [totals, rows] = await db.batch([
    db.select({ total: count() }).from(undeliverableRecipients).where(own),
    db
      .select()
      .from(undeliverableRecipients)
      .where(own)
      .orderBy(desc(undeliverableRecipients.created_at), undeliverableRecipients.recipient)
      .limit(request.limit)
      .offset(request.offset),
  ]);
  return { rows, total: totals[0]?.total ?? 0 };
}

/** Later messages to the recipient are sent again; one that is not refused is a 404. */
export async function releaseUndeliverable({ db, account }: Deps, channel: Channel, recipient: string): Promise<UndeliverableRecipient> {
  const [released] = await db
    .delete(undeliverableRecipients)
    .where(and(eq(undeliverableRecipients.account_id, account.id), eq(undeliverableRecipients.channel, channel), eq(undeliverableRecipients.recipient, recipient)))
    .returning();
  if (!released) throw ApiError.notFound();
  return released;
}
