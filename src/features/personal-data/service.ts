// Export and erasure of one person on the private API, and export of one booking for the visitor
// holding its token (docs/decisions/personal-data.md).
import { and, eq } from "drizzle-orm";
import { keysIn } from "../../db/personal-data";
import { fromDriverRow } from "../../db/raw-batch";
import { bookings, people, type Booking, type Person } from "../../db/schema";
import { formatInstant, formatNullableInstant } from "../../domain/time";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import { bookingWithTokenOf } from "../bookings/site";
import { nationalIdKeys } from "../../config";
import { toPersonJson } from "../people/serializer";
import { emitEvent, performedByOf } from "../webhooks/emit";
import { eraseEverywhere } from "./erase";
import { exportPage, type ExportPage } from "./export";

const personJson = (deps: Deps, person: Person) => ({
  ...toPersonJson(person, deps.account.time_zone, nationalIdKeys(deps.env)),
  erased_at: formatNullableInstant(person.erased_at, deps.account.time_zone),
});

const paged = (deps: Deps, page: number, { sections, more }: Pick<ExportPage, "sections" | "more">) => ({
  generated_at: formatInstant(deps.now, deps.account.time_zone),
  page,
  next_page: more ? page + 1 : null,
  ...sections,
});

/**
 * Everything the account holds about a person: the person, and one page of each table's rows that
 * are theirs, read in one batch with the person row (keysIn: the statements read its identifiers).
 */
export async function exportPerson(deps: Deps, id: number, page = 1) {
  const { sections, more, anchor } = await exportPage(deps.db, { kind: "person", keys: keysIn(deps.account.id, id) }, page, deps.account.time_zone);
  if (!anchor) throw ApiError.notFound("person");
  // The person's own row is answered through its serializer, as everywhere else.
  const { people: _row, ...rest } = sections;
  return { person: personJson(deps, fromDriverRow(people, anchor) as Person), ...paged(deps, page, { sections: rest, more }) };
}

/** What the visitor's booking token opens: that booking, its messages, holds, waitlist place, payments and deliveries. */
export async function exportBookingForVisitor(deps: Deps, id: number, token: string | undefined, page = 1) {
  if (!token) throw ApiError.notFound("booking");
  const { anchor, ...result } = await exportPage(deps.db, { kind: "booking", accountId: deps.account.id, bookingId: id }, page, deps.account.time_zone);
  const booking = await bookingWithTokenOf(anchor && (fromDriverRow(bookings, anchor) as Booking), token);
  return { booking_id: booking.id, ...paged(deps, page, result) };
}

/**
 * Erases the person everywhere; an erased person is answered as it is, with `already_erased`,
 * and nothing changes (not even updated_at). The web hook event goes once, from the run that erased it.
 */
export async function erasePerson(deps: Deps, id: number) {
  const person = await ownPerson(deps, id);
  if (person.erased_at !== null) return { person: personJson(deps, person), already_erased: true, rows: {} };
  const { erased, after, counts } = await eraseEverywhere(deps.db, person, deps.now);
  if (erased) {
    const json = toPersonJson(after, deps.account.time_zone, nationalIdKeys(deps.env));
    await emitEvent(deps.env, deps.account, "person.erased", { kind: "person", id, json }, performedByOf(deps.surface), deps.now);
  }
  return { person: personJson(deps, after), already_erased: !erased, rows: counts.rows };
}

const ownPerson = async ({ db, account }: Deps, id: number): Promise<Person> => {
  const person = await db.query.people.findFirst({ where: and(eq(people.id, id), eq(people.account_id, account.id)) });
  if (!person) throw ApiError.notFound("person");
  return person;
};
