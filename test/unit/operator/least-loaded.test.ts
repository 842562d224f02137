import { describe, expect, it } from "vitest";
import { leastLoaded } from "../../../src/features/operator/shards";

describe("leastLoaded", () => {
  it("picks the shard with the fewest accounts", () =>
    expect(
      leastLoaded(
        ["DB", "DB_SHARD_1", "DB_SHARD_2"],
        new Map([
          ["DB", 40],
          ["DB_SHARD_1", 12],
          ["DB_SHARD_2", 30],
        ]),
      ),
    ).toBe("DB_SHARD_1"));
  it("counts a shard without accounts as empty", () => expect(leastLoaded(["DB", "DB_SHARD_1"], new Map([["DB", 3]]))).toBe("DB_SHARD_1"));
  it("breaks a tie for the lowest-numbered shard, not the order given", () =>
    expect(
      leastLoaded(
        ["DB_SHARD_2", "DB_SHARD_1", "DB"],
        new Map([
          ["DB", 5],
          ["DB_SHARD_1", 5],
          ["DB_SHARD_2", 5],
        ]),
      ),
    ).toBe("DB"));
});
