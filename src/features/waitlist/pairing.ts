// What pairs an offer's hold with its entry (docs/decisions/waitlist.md, issue 30), stated once as
// the SQL that finds where it broke, for the tests and the writes bench to check after any race.
// A visitor's or the key's hold is owned by its secret; an offer's hold (waitlist_entry_id set) is
// owned while its entry is `offered` with exactly that hold. A live offer hold without that is a
// seat held for nobody; an offered entry whose hold was released is an offer of nothing.

/** Ids of the account's live offer holds whose entry is not offered with them, and of its offered entries whose hold was released. */
export function unpairedOffersSql(accountId: number, now: number): string {
  const account = Math.trunc(accountId);
  const at = Math.trunc(now);
  return `SELECT 'hold' AS kind, h.id AS id FROM slot_holds h
            WHERE h.account_id = ${account} AND h.waitlist_entry_id IS NOT NULL AND h.ended_at IS NULL AND h.expires_at > ${at}
              AND NOT EXISTS (SELECT 1 FROM waitlist_entries e WHERE e.id = h.waitlist_entry_id AND e.account_id = h.account_id
                                AND e.state = 'offered' AND e.hold_id = h.id)
          UNION ALL
          SELECT 'entry' AS kind, e.id AS id FROM waitlist_entries e JOIN slot_holds h ON h.id = e.hold_id AND h.account_id = e.account_id
            WHERE e.account_id = ${account} AND e.state = 'offered' AND h.ended_by = 'released'`;
}
