// POST /admin/v1/accounts/import: an account's export (export.ts) written back into a deployment
// that does not hold the account, read line by line as it arrives (docs/decisions/recovery.md).
import { eq, or } from "drizzle-orm";
import { deleteAccountRows, insertStatements, runInBatches, type Row } from "../../db/account-rows";
import { dataTables, directoryTables, type DataTable } from "../../db/data-tables";
import { directoryDb } from "../../db/directory";
import { accounts, type Account } from "../../db/schema";
import { appliedMigrations, directoryD1, isShardName, shardD1 } from "../../db/shards";
import type { Env } from "../../env";
import { evictAccount } from "../../http/account-cache";
import { ApiError } from "../../http/errors";
import { EXPORT_FORMAT, EXPORT_VERSION, type ExportHeader } from "./export";
import { chooseShard, claimIdRange } from "./shards";

/** The most an import reads: the Workers platform takes request bodies up to 100 MB. */
const IMPORT_MAX_BYTES = 96 * 1024 * 1024;
/** One row as a line: larger is not an export of ours (a booking's row is a few KiB). */
const MAX_LINE_BYTES = 1024 * 1024;
/** Rows gathered per table before they are written: one D1 batch's worth. */
const ROWS_PER_FLUSH = 500;

const bad = (lineNo: number, problem: string) => ApiError.invalid("base", `line ${lineNo}: ${problem}`);

/** The body's lines, each with its number; bounded per line and in all. */
async function* linesOf(body: ReadableStream<Uint8Array>): AsyncGenerator<{ text: string; no: number }> {
  const decoder = new TextDecoder();
  let buffered = "";
  let read = 0;
  let no = 0;
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    read += chunk.byteLength;
    if (read > IMPORT_MAX_BYTES)
      throw new ApiError(413, {
        error: `An import is at most ${IMPORT_MAX_BYTES / 1024 / 1024} MiB: restore a larger account with wrangler (docs/decisions/recovery.md).`,
      });
    buffered += decoder.decode(chunk, { stream: true });
    let end = buffered.indexOf("\n");
    while (end >= 0) {
      no += 1;
      const text = buffered.slice(0, end).trim();
      buffered = buffered.slice(end + 1);
      if (text) yield { text, no };
      end = buffered.indexOf("\n");
    }
    if (buffered.length > MAX_LINE_BYTES) throw bad(no + 1, `longer than ${MAX_LINE_BYTES} bytes`);
  }
  buffered += decoder.decode();
  if (buffered.trim()) yield { text: buffered.trim(), no: no + 1 };
}

function parseLine(text: string, no: number): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    if (value && typeof value === "object" && !Array.isArray(value)) return value as Record<string, unknown>;
  } catch {
    /* answered below */
  }
  throw bad(no, "is not a JSON object");
}

function checkHeader(value: Record<string, unknown>): ExportHeader {
  if (value.format !== EXPORT_FORMAT) throw bad(1, `is not the header of an account export (format "${EXPORT_FORMAT}")`);
  if (value.version !== EXPORT_VERSION) throw bad(1, `export version ${JSON.stringify(value.version)} is not one this deployment reads (${EXPORT_VERSION})`);
  if (!Number.isSafeInteger(value.account_id) || !Number.isSafeInteger(value.migrations) || typeof value.shard !== "string") {
    throw bad(1, "needs account_id, shard and migrations");
  }
  return value as unknown as ExportHeader;
}

const tablesByName = new Map([...directoryTables, ...dataTables].map((t) => [t.name, t]));

/** A row as the database takes it: known columns only, scalar values, and the account's own. */
function checkRow(table: DataTable, row: unknown, accountId: number, no: number): Row {
  if (!row || typeof row !== "object" || Array.isArray(row)) throw bad(no, "row is not an object");
  for (const [column, value] of Object.entries(row)) {
    if (!table.columns.includes(column))
      throw bad(no, `${table.name} has no column ${column} here: apply this release's migrations, or import into the release that exported it`);
    if (value !== null && typeof value !== "string" && typeof value !== "number") throw bad(no, `${table.name}.${column} is not a value a column holds`);
  }
  const owner = table.name === "accounts" ? (row as Row).id : (row as Row).account_id;
  if (owner !== accountId) throw bad(no, `the row is not account ${accountId}'s`);
  return row as Row;
}

export interface ImportReport {
  shard: string;
  /** Rows written, by table. */
  rows: Record<string, number>;
}

/** Refuses an account the directory already has, and what the directory keeps unique. */
async function assertAbsent(env: Env, account: Row): Promise<void> {
  const directory = directoryDb(env);
  const taken = await directory.query.accounts.findFirst({
    where: or(eq(accounts.id, Number(account.id)), eq(accounts.subdomain, String(account.subdomain))),
    columns: { id: true },
  });
  if (taken?.id === account.id)
    throw new ApiError(409, { error: `Account ${account.id} exists here: an import only restores an account this deployment does not hold.` });
  if (taken) throw ApiError.invalid("subdomain", "has already been taken");
}

/** How long an import may take before the deletion pass takes its claim for an abandoned one. */
const CLAIM_LIFETIME_MS = 86_400_000;

/** The D1 failure of a UNIQUE index as the operator's answer: the account, or a row, is already there. */
const uniqueClash = (error: unknown): ApiError | null =>
  /UNIQUE constraint failed/i.test(String(error))
    ? new ApiError(409, {
        error: `The target already holds a row the export names (${String(error).replace(/^.*UNIQUE constraint failed: /s, "")}); nothing was imported.`,
      })
    : null;

/**
 * Claims the account in the directory first, closed (so it answers as no account, and a second
 * import of it meets the id taken) and due for deletion a day later (so an import cut off by the
 * platform is cleaned up by the deletion pass). Then writes the export's data rows to the target
 * shard as they arrive, and opens the account with its keys only once all of it is in. Any
 * failure deletes what was written of it: the import can be sent again.
 */
export async function importAccount(
  env: Env,
  body: ReadableStream<Uint8Array> | null,
  requestedShard: string | undefined,
  now: number,
): Promise<{ account: Account; report: ImportReport }> {
  if (!body) throw ApiError.invalid("base", "send the export as the request body");
  const lines = linesOf(body);
  const first = await lines.next();
  if (first.done) throw ApiError.invalid("base", "the body is empty: send an account's export");
  const header = checkHeader(parseLine(first.value.text, first.value.no));
  const second = await lines.next();
  const accountLine = second.done ? null : parseLine(second.value.text, second.value.no);
  if (accountLine?.table !== "accounts") throw bad(2, "must be the account's row");
  const accountRow = checkRow(tablesByName.get("accounts")!, accountLine?.row, header.account_id, 2);
  await assertAbsent(env, accountRow);

  const shard = await chooseShard(env, requestedShard ?? (isShardName(env, header.shard) ? header.shard : undefined));
  const d1 = shardD1(env, shard);
  if ((await appliedMigrations(d1)) < header.migrations)
    throw ApiError.invalid("shard", `has fewer migrations than the export needs (${header.migrations}): apply drizzle/ to it first`);
  const directory = directoryD1(env);
  const claim = { ...accountRow, shard, closed_at: now, delete_at: now + CLAIM_LIFETIME_MS };
  await directory.batch(insertStatements(directory, "accounts", [claim])).catch((error: unknown) => {
    throw uniqueClash(error) ?? error;
  });

  const counts: Record<string, number> = {};
  const apiKeys: Row[] = [];
  // Rows of one table with one set of columns, gathered until a flush writes them.
  const pending: { table: string; signature: string; rows: Row[] } = { table: "", signature: "", rows: [] };
  const flush = async () => {
    if (pending.rows.length) await runInBatches(d1, insertStatements(d1, pending.table, pending.rows));
    pending.rows = [];
  };
  try {
    await claimIdRange(env, shard);
    // Rows of the account left on the target by an import that failed part-way are no one's data.
    await deleteAccountRows(d1, header.account_id);
    let ended = false;
    for await (const { text, no } of lines) {
      const value = parseLine(text, no);
      if (value.end === true) {
        const declared = (value.rows ?? {}) as Record<string, number>;
        const mismatch = Object.keys({ ...declared, ...counts }).find((t) => t !== "accounts" && (declared[t] ?? 0) !== (counts[t] ?? 0));
        if (mismatch) throw bad(no, `the trailer counts ${declared[mismatch] ?? 0} rows of ${mismatch}, the file holds ${counts[mismatch] ?? 0}`);
        ended = true;
        break;
      }
      const table = typeof value.table === "string" ? tablesByName.get(value.table) : undefined;
      if (!table || table.name === "accounts") throw bad(no, `names no table an export holds: ${JSON.stringify(value.table)}`);
      const row = checkRow(table, value.row, header.account_id, no);
      counts[table.name] = (counts[table.name] ?? 0) + 1;
      if (table.name === "api_keys") {
        apiKeys.push(row);
        continue;
      }
      // One multi-row insert takes rows with the same columns only.
      const signature = `${table.name}|${Object.keys(row).join(",")}`;
      if (pending.signature !== signature || pending.rows.length >= ROWS_PER_FLUSH) {
        await flush();
        Object.assign(pending, { table: table.name, signature });
      }
      pending.rows.push(row);
    }
    if (!ended) throw ApiError.invalid("base", "the export ends without its trailer line: it was cut short, nothing was imported");
    await flush();
    // The account comes back open, with its keys; the operator closes it again if need be.
    await directory.batch([
      ...insertStatements(directory, "api_keys", apiKeys),
      directory.prepare("UPDATE accounts SET closed_at = NULL, delete_at = NULL WHERE id = ?").bind(header.account_id),
    ]);
  } catch (error) {
    await deleteAccountRows(d1, header.account_id);
    await directory.prepare("DELETE FROM accounts WHERE id = ?").bind(header.account_id).run();
    if (error instanceof ApiError) throw error;
    throw uniqueClash(error) ?? error;
  }
  evictAccount(header.account_id);
  const account = await directoryDb(env).query.accounts.findFirst({ where: eq(accounts.id, header.account_id) });
  counts.accounts = 1;
  return { account: account!, report: { shard, rows: counts } };
}
