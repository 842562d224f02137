// How far a message got, as its status says: a provider's later event may only move it further
// (delivered after sent; bounced or complained after delivered), never back, so events applied
// twice or out of order leave the status the furthest one told.
import { sql, type SQL } from "drizzle-orm";
import { messages } from "../../db/schema";

/** What a provider's delivery event may say of a sent message. */
const DELIVERY_OUTCOMES = ["delivered", "bounced", "complained", "undelivered", "failed"] as const;
export type DeliveryOutcome = (typeof DELIVERY_OUTCOMES)[number];

/** Statuses that only a provider's event sets: the consumer's own "sent" never replaces them. */
export const AFTER_SENT = ["delivered", "bounced", "complained", "undelivered"] as const;

const RANK: Record<string, number> = { sent: 1, delivered: 2, bounced: 3, undelivered: 3, failed: 3, complained: 4 };

/** The stored status's rank in SQL (queued and sending rank 0: an event may arrive before the consumer records "sent"). */
const storedRank: SQL = sql`CASE ${messages.status} ${sql.join(
  Object.entries(RANK).map(([status, rank]) => sql`WHEN ${status} THEN ${rank}`),
  sql` `,
)} ELSE 0 END`;

/** True in SQL when `outcome` is further than the row's status. */
export const movesFurther = (outcome: DeliveryOutcome): SQL => sql`${storedRank} < ${RANK[outcome]}`;

/** The consumer's "sent", unless a provider's event already said more. */
export const sentUnlessToldMore: SQL = sql`CASE WHEN ${messages.status} IN (${sql.join(
  AFTER_SENT.map((s) => sql`${s}`),
  sql`, `,
)}) THEN ${messages.status} ELSE 'sent' END`;
