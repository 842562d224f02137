// Export and erasure of one person on the private API, and export of one booking for the visitor
// holding its token (docs/decisions/personal-data.md).
import { and, eq } from "drizzle-orm";
import { people, type Person } from "../../db/schema";
import { formatInstant, formatNullableInstant } from "../../domain/time";
import type { Deps } from "../../env";
import { found } from "../../http/serialize";
import { bookingWithToken } from "../bookings/site";
import { toPersonJson } from "../people/serializer";
import { emitEvent, performedByOf } from "../webhooks/emit";
import { eraseEverywhere, keysOf, readPerson } from "./erase";
import { exportPage, type ExportPage } from "./export";

const ownPerson = ({ db, account }: Deps, id: number): Promise<Person> =>
  found(db.query.people.findFirst({ where: and(eq(people.id, id), eq(people.account_id, account.id)) }), "person");

const personJson = (deps: Deps, person: Person) => ({ ...toPersonJson(person, deps.account.time_zone), erased_at: formatNullableInstant(person.erased_at, deps.account.time_zone) });

const paged = (deps: Deps, page: number, { sections, more }: ExportPage) => ({
  generated_at: formatInstant(deps.now, deps.account.time_zone),
  page,
  next_page: more ? page + 1 : null,
  ...sections,
});

/** Everything the account holds about a person: the person, and one page of each table's rows that are theirs. */
export async function exportPerson(deps: Deps, id: number, page = 1) {
  const person = await ownPerson(deps, id);
  const { sections, more } = await exportPage(deps.db, { kind: "person", keys: keysOf(person) }, page, deps.account.time_zone);
  // The person's own row is answered through its serializer, as everywhere else.
  const { people: _row, ...rest } = sections;
  return { person: personJson(deps, person), ...paged(deps, page, { sections: rest, more }) };
}

/** What the visitor's booking token opens: that booking, its messages, holds, waitlist place, payments and deliveries. */
export async function exportBookingForVisitor(deps: Deps, id: number, token: string | undefined, page = 1) {
  const booking = await bookingWithToken(deps, id, token);
  const result = await exportPage(deps.db, { kind: "booking", accountId: deps.account.id, bookingId: booking.id }, page, deps.account.time_zone);
  return { booking_id: booking.id, ...paged(deps, page, result) };
}

/**
 * Erases the person everywhere; an erased person is answered as it is, with `already_erased`,
 * and nothing changes (not even updated_at). The web hook event goes once, from the run that erased it.
 */
export async function erasePerson(deps: Deps, id: number) {
  const person = await ownPerson(deps, id);
  if (person.erased_at !== null) return { person: personJson(deps, person), already_erased: true, rows: {} };
  const { erased, counts } = await eraseEverywhere(deps.db, person, deps.now);
  const after = (await readPerson(deps.db, deps.account.id, id)) ?? person;
  if (erased) {
    const json = toPersonJson(after, deps.account.time_zone);
    await emitEvent(deps.env, deps.account, "person.erased", { kind: "person", id, json }, performedByOf(deps.surface), deps.now);
  }
  return { person: personJson(deps, after), already_erased: !erased, rows: counts.rows };
}
