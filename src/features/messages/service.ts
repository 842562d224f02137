// Reading messages back: the account's own, newest first; another tenant's id is a 404.
import { and, count, desc, eq, type SQL } from "drizzle-orm";
import { messages } from "../../db/schema";
import type { Deps } from "../../env";
import type { PageRequest } from "../../http/pagination";
import { found } from "../../http/serialize";
import type { ListMessagesQuery } from "./schema";
import type { Message } from "./serializer";

export async function listMessages({ db, account }: Deps, query: ListMessagesQuery, request: PageRequest) {
  const conditions: SQL[] = [eq(messages.account_id, account.id)];
  if (query.booking_id !== undefined) conditions.push(eq(messages.booking_id, query.booking_id));
  if (query.channel) conditions.push(eq(messages.channel, query.channel));
  if (query.kind) conditions.push(eq(messages.kind, query.kind));
  const where = and(...conditions);
  const [totals, rows] = await db.batch([
    db.select({ total: count() }).from(messages).where(where),
    db.select().from(messages).where(where).orderBy(desc(messages.created_at), desc(messages.id)).limit(request.limit).offset(request.offset),
  ]);
  return { rows, total: totals[0]?.total ?? 0 };
}

export function getMessage({ db, account }: Deps, id: number): Promise<Message> {
  return found(db.query.messages.findFirst({ where: and(eq(messages.id, id), eq(messages.account_id, account.id)) }), "message");
}
