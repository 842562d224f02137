// What an answer says it cost in its Server-Timing header (src/http/server-timing.ts).
export const costOf = (headers: Headers) => {
  const timing = headers.get("server-timing") ?? "";
  const count = (name: string, unit: string) => Number(new RegExp(`${name};desc="(\\d+) ${unit}"`).exec(timing)?.[1]);
  const waits = /(?:^|,\s*)waits;desc="(\d+) in sequence: (\d+) d1, (\d+) do"/.exec(timing);
  return {
    roundTrips: count("d1", "round trips"), rows: count("d1-rows", "rows read"), doCalls: count("do", "calls"),
    /** The longest chain of waits one after another (src/db/request-scope.ts `sequentialWaits`), and its D1 and DO waits. */
    waits: Number(waits?.[1]), d1Waits: Number(waits?.[2]), doWaits: Number(waits?.[3]),
  };
};

/** "hit" or "miss" when the answer consulted the isolate's answer cache, else undefined. */
export const cacheOutcomeOf = (headers: Headers) =>
  /(?:^|,\s*)cache;desc="(hit|miss)"/.exec(headers.get("server-timing") ?? "")?.[1];
