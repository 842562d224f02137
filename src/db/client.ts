// One Drizzle handle per D1 binding, built once per isolate: building it (schema relations)
// on every request cost a third of a trivial request's CPU in the benchmark's profile.
import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";
import type { Db } from "../env";

const handles = new WeakMap<D1Database, Db>();

export function openDb(d1: D1Database): Db {
  let db = handles.get(d1);
  if (!db) {
    db = drizzle(d1, { schema });
    handles.set(d1, db);
  }
  return db;
}
