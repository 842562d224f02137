// Where the booking site serves calendars, and the signed link to one booking's calendar file
// (messages carry a link: the message providers post JSON text, with no attachments).
import { eq } from "drizzle-orm";
import { configOf } from "../../config";
import { calendarFileKeys, type Account } from "../../db/schema";
import type { Db, Env } from "../../env";
import { randomToken, secretsEqual } from "../../http/secrets";

/** The account's booking site; the scheme and port of `like` when a request is at hand, else https (http on localhost). */
export function siteOrigin(env: Env, account: Pick<Account, "subdomain">, like?: string): string {
  const root = configOf(env).ROOT_DOMAIN;
  const url = like ? new URL(like) : null;
  const scheme = url ? url.protocol.slice(0, -1) : root === "localhost" || root.endsWith(".localhost") ? "http" : "https";
  return `${scheme}://${account.subdomain}.${root}${url?.port ? `:${url.port}` : ""}`;
}

/** `booking-<id>@<host>`: the UID a booking has in its own file, in every feed and in its invitations. */
export const bookingUid = (id: number, host: string) => `booking-${id}@${host}`;
export const eventUid = (id: number, host: string) => `event-${id}@${host}`;

export const feedUrl = (origin: string, token: string) => `${origin}/calendar/${token}.ics`;

/** The account's signing key, made on first use; two racing first uses keep the first one written. */
async function fileKey(db: Db, accountId: number): Promise<string> {
  await db
    .insert(calendarFileKeys)
    .values({ account_id: accountId, secret: randomToken("", 32) })
    .onConflictDoNothing();
  const row = await db.query.calendarFileKeys.findFirst({ where: eq(calendarFileKeys.account_id, accountId) });
  return row!.secret;
}

async function signature(secret: string, bookingId: number): Promise<string> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  const mac = await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`booking-calendar-file:${bookingId}`));
  return btoa(String.fromCharCode(...new Uint8Array(mac)))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

/** `/calendar/bookings/<id>.ics?signature=…`: opens that one booking's file and nothing else, for as long as the booking exists. */
export async function bookingFileUrl(db: Db, env: Env, account: Account, bookingId: number): Promise<string> {
  const sig = await signature(await fileKey(db, account.id), bookingId);
  return `${siteOrigin(env, account)}/calendar/bookings/${bookingId}.ics?signature=${sig}`;
}

/** The account's signing key as a select, for the batch that reads the booking too (none before a first link). */
export const fileKeyRow = (db: Db, accountId: number) =>
  db.select({ secret: calendarFileKeys.secret }).from(calendarFileKeys).where(eq(calendarFileKeys.account_id, accountId)).limit(1);

export async function bookingFileSigned(key: { secret: string } | undefined, bookingId: number, given: string): Promise<boolean> {
  return !!key && secretsEqual(await signature(key.secret, bookingId), given);
}
