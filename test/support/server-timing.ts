// What an answer says it cost in its Server-Timing header (src/http/server-timing.ts).
export const costOf = (headers: Headers) => {
  const timing = headers.get("server-timing") ?? "";
  const count = (name: string, unit: string) => Number(new RegExp(`${name};desc="(\\d+) ${unit}"`).exec(timing)?.[1]);
  return { roundTrips: count("d1", "round trips"), rows: count("d1-rows", "rows read"), doCalls: count("do", "calls") };
};

/** "hit" or "miss" when the answer consulted the isolate's answer cache, else undefined. */
export const cacheOutcomeOf = (headers: Headers) =>
  /(?:^|,\s*)cache;desc="(hit|miss)"/.exec(headers.get("server-timing") ?? "")?.[1];
