// The order and cursor of `since` listings (docs/decisions/sync.md): rows by (updated_at, id), and
// a next page that starts after the last row read instead of at an offset, so rows that change
// between two page reads can appear twice but never fall between pages.
import { asc, desc, sql, type AnyColumn, type SQL } from "drizzle-orm";
import * as z from "zod";

export type SyncDirection = "asc" | "desc";

/** Where the previous page of a sync listing ended: its last row's `updated_at` (ms) and id. */
export interface SyncCursor {
  updatedAt: number;
  id: number;
}

const CURSOR_TEXT = /^(\d{1,15})\.(\d{1,15})$/;

/** The `cursor` query parameter, as the `Link: rel="next"` of a sync listing writes it. */
export const syncCursor = () =>
  z
    .string()
    .trim()
    .regex(CURSOR_TEXT, "is not a cursor: pass on the value from the Link header's next page")
    .transform((text): SyncCursor => {
      const [, updatedAt, id] = CURSOR_TEXT.exec(text)!;
      return { updatedAt: Number(updatedAt), id: Number(id) };
    });

export const formatSyncCursor = (row: { updated_at: number; id: number }) => `${row.updated_at}.${row.id}`;

export interface SyncColumns {
  updatedAt: AnyColumn;
  id: AnyColumn;
}

export const syncOrder = ({ updatedAt, id }: SyncColumns, direction: SyncDirection): SQL[] =>
  direction === "asc" ? [asc(updatedAt), asc(id)] : [desc(updatedAt), desc(id)];

/** Rows after the cursor in the listing's direction; row values use the (account, updated_at) index. */
export const afterSyncCursor = ({ updatedAt, id }: SyncColumns, cursor: SyncCursor, direction: SyncDirection): SQL =>
  direction === "asc" ? sql`(${updatedAt}, ${id}) > (${cursor.updatedAt}, ${cursor.id})` : sql`(${updatedAt}, ${id}) < (${cursor.updatedAt}, ${cursor.id})`;

/**
 * `updated_at` at or after `since`. Inclusive because answers show seconds: a client passing back
 * the `updated_at` it saw must still get the other changes of that same second.
 */
export const changedSince = (updatedAt: AnyColumn, since: number): SQL => sql`${updatedAt} >= ${since}`;
