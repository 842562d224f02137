// Fault test helpers: D1 faults injected as triggers (queue drivers and recorders: queues.ts).
import { env } from "./api";

/**
 * A D1 fault: inserts into `table` matching `when` (SQL over NEW) fail as a storage error would,
 * from inside the database, so every layer above sees a real failed write. Answers the repair.
 */
export async function injectInsertFault(name: string, table: string, when: string) {
  await env.DB.prepare(`CREATE TRIGGER ${name} BEFORE INSERT ON ${table} WHEN ${when} BEGIN SELECT RAISE(ABORT, 'injected fault ${name}'); END`).run();
  return { repair: () => env.DB.prepare(`DROP TRIGGER ${name}`).run() };
}
