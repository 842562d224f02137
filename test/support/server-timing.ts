// What an answer says it cost in its Server-Timing header (src/http/server-timing.ts).

/**
 * The Worker's own costs, or with `prefix` "beside-database-" those of the NearDatabase object that
 * answered (http/near-database.ts), where they are NaN when no object did.
 */
export const costOf = (headers: Headers, prefix = "") => {
  const timing = headers.get("server-timing") ?? "";
  const count = (name: string, unit: string) => Number(new RegExp(`(?:^|,\\s*)${prefix}${name};desc="(\\d+) ${unit}"`).exec(timing)?.[1]);
  const waits = new RegExp(`(?:^|,\\s*)${prefix}waits;desc="(\\d+) in sequence: (\\d+) d1, (\\d+) do"`).exec(timing);
  const besideDatabase = /(?:^|,\s*)beside-database-waits;desc="(\d+) in sequence/.exec(timing);
  return {
    roundTrips: count("d1", "round trips"),
    rows: count("d1-rows", "rows read"),
    doCalls: count("do", "calls"),
    /** The longest chain of waits one after another (src/db/request-scope.ts `sequentialWaits`), and its D1 and DO waits. */
    waits: Number(waits?.[1]),
    d1Waits: Number(waits?.[2]),
    doWaits: Number(waits?.[3]),
    /** The NearDatabase object's own waits in sequence when it answered (short hops), else undefined. */
    besideDatabaseWaits: besideDatabase ? Number(besideDatabase[1]) : undefined,
  };
};

/** "hit" or "miss" when the answer consulted the isolate's answer cache, else undefined. */
export const cacheOutcomeOf = (headers: Headers) => /(?:^|,\s*)cache;desc="(hit|miss)"/.exec(headers.get("server-timing") ?? "")?.[1];
