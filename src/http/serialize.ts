// Output helpers shared by every serializer.
import { formatInstant } from "../domain/time";
import { ApiError } from "./errors";

/** `created_at` / `updated_at` in the account zone. */
export const timestampsOut = (row: { created_at: number; updated_at: number }, timeZone: string) => ({
  created_at: formatInstant(row.created_at, timeZone),
  updated_at: formatInstant(row.updated_at, timeZone),
});

/** The row, or 404 when the account has none with that id (another tenant's id included). */
export async function found<T>(row: Promise<T | undefined> | T | undefined, what: string): Promise<T> {
  const value = await row;
  if (value === undefined || value === null) throw ApiError.notFound(what);
  return value;
}
