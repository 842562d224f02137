// GET /admin/v1/accounts/{id}/export: every row the account owns, on the directory and on its
// shard, as JSON lines that POST /admin/v1/accounts/import restores (docs/decisions/recovery.md).
import { pageOfRows, type PageCursor, type Row } from "../../db/account-rows";
import { dataTables, directoryTables } from "../../db/data-tables";
import { appliedMigrations, directoryD1, shardD1 } from "../../db/shards";
import type { Env } from "../../env";
import { ApiError } from "../../http/errors";

export const EXPORT_FORMAT = "booking-edge-api.account-export";
export const EXPORT_VERSION = 1;
/** Rows read per D1 statement: a page is all the export holds in memory at once. */
const ROWS_PER_PAGE = 500;

/** The first line: what the file is and what it needs of the database it goes back into. */
export interface ExportHeader {
  format: typeof EXPORT_FORMAT;
  version: typeof EXPORT_VERSION;
  account_id: number;
  shard: string;
  /** Migrations applied to the account's shard when it was exported: an import needs at least as many. */
  migrations: number;
  exported_at: string;
}

/** The last line: a file without it was cut short, and is refused whole. */
interface ExportTrailer {
  end: true;
  rows: Record<string, number>;
}

const line = (value: unknown) => `${JSON.stringify(value)}\n`;

/**
 * The account's export as a stream: a header line, one line per row (`{"table", "row"}`, raw
 * column values as the database holds them: instants in epoch ms, flags 0/1, JSON columns as
 * text), the directory's rows first, then each data table oldest first, and a trailer with the
 * count per table. Rows are read page by page while the stream is pulled, so memory holds one page.
 */
export async function exportAccount(env: Env, accountId: number, now: number): Promise<ReadableStream<Uint8Array>> {
  const directory = directoryD1(env);
  const account = await directory.prepare("SELECT shard FROM accounts WHERE id = ?").bind(accountId).first<{ shard: string }>();
  if (!account) throw ApiError.notFound("account");
  const shard = shardD1(env, account.shard);
  const header: ExportHeader = {
    format: EXPORT_FORMAT,
    version: EXPORT_VERSION,
    account_id: accountId,
    shard: account.shard,
    migrations: await appliedMigrations(shard),
    exported_at: new Date(now).toISOString(),
  };
  const sources = [...directoryTables.map((table) => ({ table, d1: directory })), ...dataTables.map((table) => ({ table, d1: shard }))];
  const counts: Record<string, number> = {};
  let source = 0;
  let cursor: PageCursor | null = null;
  const encoder = new TextEncoder();
  return new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(encoder.encode(line(header)));
    },
    async pull(controller) {
      // One page per pull: the reader's pace decides how fast D1 is read.
      while (source < sources.length) {
        const { table, d1 } = sources[source];
        const idColumn = table.name === "accounts" ? "id" : "account_id";
        const page: { rows: Row[]; next: PageCursor | null } =
          idColumn === "id"
            ? {
                rows: (
                  await d1
                    .prepare(`SELECT ${table.columns.join(", ")} FROM accounts WHERE id = ?`)
                    .bind(accountId)
                    .all<Row>()
                ).results,
                next: null,
              }
            : await pageOfRows(d1, table, accountId, cursor, ROWS_PER_PAGE);
        counts[table.name] = (counts[table.name] ?? 0) + page.rows.length;
        cursor = page.next;
        if (cursor === null) source += 1;
        if (page.rows.length) {
          controller.enqueue(encoder.encode(page.rows.map((row) => line({ table: table.name, row })).join("")));
          return;
        }
      }
      controller.enqueue(encoder.encode(line({ end: true, rows: counts } satisfies ExportTrailer)));
      controller.close();
    },
  });
}
