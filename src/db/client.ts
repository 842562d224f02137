// One Drizzle handle per request over the D1 binding.
import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";
import type { Db } from "../env";

export const openDb = (d1: D1Database): Db => drizzle(d1, { schema });
