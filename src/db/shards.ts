// Shard names and their D1 bindings: `DB` (which also holds the tenant directory) and
// `DB_SHARD_1`, `DB_SHARD_2`, … An account's data lives on the shard its directory row names
// (docs/scaling.md); every feature reaches its database through here, never through env.DB.
import type { Env } from "../env";

/** The shard that holds the directory (accounts, api_keys) and the data of the accounts placed on it. */
export const DIRECTORY_SHARD = "DB";

const SHARD_NAME = /^DB(_SHARD_[1-9][0-9]{0,3})?$/;

/** Ids of shard n's own rows start above n × this, so an account keeps its ids when it moves. */
export const ID_RANGE = 1_000_000_000_000;

const isD1 = (value: unknown): value is D1Database =>
  typeof value === "object" && value !== null && typeof (value as D1Database).prepare === "function" && typeof (value as D1Database).batch === "function";

const namesByEnv = new WeakMap<object, string[]>();

/** Every shard the environment binds, `DB` first, then by number. */
export function shardNames(env: object): string[] {
  let names = namesByEnv.get(env);
  if (!names) {
    names = Object.keys(env)
      .filter((name) => isShardName(env, name))
      .sort((a, b) => shardIndex(a) - shardIndex(b));
    namesByEnv.set(env, names);
  }
  return names;
}

const bindingsByEnv = new WeakMap<object, Readonly<Record<string, D1Database>>>();

/** Each shard's D1 binding by name, built once per environment (every request needs it). */
export function shardBindings(env: object): Readonly<Record<string, D1Database>> {
  let bindings = bindingsByEnv.get(env);
  if (!bindings) {
    bindings = Object.freeze(Object.fromEntries(shardNames(env).map((name) => [name, (env as Record<string, D1Database>)[name]])));
    bindingsByEnv.set(env, bindings);
  }
  return bindings;
}

export const isShardName = (env: object, name: string): boolean => SHARD_NAME.test(name) && isD1((env as Record<string, unknown>)[name]);

/** The D1 binding of a shard; an unknown name is a fault (a directory row naming no binding). */
export function shardD1(env: Env, shard: string): D1Database {
  if (!isShardName(env, shard)) throw new Error(`no D1 binding for shard ${JSON.stringify(shard)}`);
  return (env as unknown as Record<string, D1Database>)[shard];
}

/** The database of an account's data: its shard's binding. */
export const accountD1 = ({ env, account }: { env: Env; account: { shard: string } }): D1Database => shardD1(env, account.shard);

/** The tenant directory: accounts and their API keys. */
export const directoryD1 = (env: Env): D1Database => env.DB;

/**
 * Migrations applied to a shard's database (wrangler's d1_migrations); -1 when never migrated.
 * Any other failure (the database does not answer) is thrown, not taken for "never migrated".
 */
export async function appliedMigrations(d1: D1Database): Promise<number> {
  try {
    return (await d1.prepare("SELECT count(*) AS n FROM d1_migrations").first<number>("n")) ?? 0;
  } catch (error) {
    if (/no such table/i.test(String(error))) return -1;
    throw error;
  }
}

/** 0 for DB, n for DB_SHARD_n. */
export function shardIndex(shard: string): number {
  const match = /^DB_SHARD_(\d+)$/.exec(shard);
  return match ? Number(match[1]) : 0;
}

/** The ids a shard allocates for its own rows: (start, end]. */
export const idRangeOf = (shard: string) => ({ start: shardIndex(shard) * ID_RANGE, end: (shardIndex(shard) + 1) * ID_RANGE });
