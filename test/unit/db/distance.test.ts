// How far the isolate measures its database (src/db/distance.ts): the quickest round trip of the
// last minute or so decides whether writes go beside the database.
import { beforeEach, describe, expect, it } from "vitest";
import { databaseSeemsFar, FAR_ROUND_TRIP_MS, forgetDistance, noteRoundTrip } from "../../../src/db/distance";

const MINUTE = 60_000;

beforeEach(() => forgetDistance());

describe("the database's distance, as this isolate measures it", () => {
  it("is far until measured: a hop beside the database is never wrong", () => {
    expect(databaseSeemsFar(0)).toBe(true);
  });

  it("is near after a quick round trip, and far after only slow ones", () => {
    noteRoundTrip(1.5, 1_000);
    expect(databaseSeemsFar(1_000)).toBe(false);
    forgetDistance();
    noteRoundTrip(FAR_ROUND_TRIP_MS, 1_000);
    noteRoundTrip(52, 2_000);
    expect(databaseSeemsFar(2_000)).toBe(true);
  });

  it("takes the quickest round trip, so load that slows some of them changes nothing", () => {
    for (let i = 0; i < 20; i++) noteRoundTrip(i === 7 ? 2 : 40 + i, 1_000 + i * 100);
    expect(databaseSeemsFar(3_000)).toBe(false);
  });

  it("keeps a quick round trip across the next window, then forgets it", () => {
    noteRoundTrip(2, 0);
    noteRoundTrip(50, MINUTE + 10);
    expect(databaseSeemsFar(MINUTE + 20)).toBe(false);
    noteRoundTrip(50, 2 * MINUTE + 20);
    expect(databaseSeemsFar(2 * MINUTE + 30)).toBe(true);
  });

  it("is far again when nothing was measured for two minutes", () => {
    noteRoundTrip(2, 0);
    expect(databaseSeemsFar(MINUTE)).toBe(false);
    expect(databaseSeemsFar(2 * MINUTE + 1)).toBe(true);
  });
});
