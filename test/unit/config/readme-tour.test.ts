// The README tour as `npm run tour` extracts it: runnable bash, ids from answers, no fixed port.
// (`npm run tour` itself runs it against wrangler dev; this keeps the cheap checks in `npm test`.)
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
// @ts-expect-error: a plain .mjs script without types
import { tourBlocks, tourScript } from "../../../scripts/tour.mjs";

const root = path.resolve(import.meta.dirname, "../../..");
const blocks: string[] = tourBlocks(readFileSync(path.join(root, "README.md"), "utf8"));
const tour = blocks.join("\n");

describe("the README tour", () => {
  it("sets the port, the key and the mail inbox once, in its first block, and the runner fills them in", () => {
    expect(blocks[0]).toMatch(/^PORT=8787\b/m);
    expect(blocks[0]).toMatch(/^KEY=bk_\.\.\./m);
    expect(blocks[0]).toMatch(/^INBOX=http:\/\/127\.0\.0\.1:1080\b/m);
    const script: string = tourScript(blocks, { port: 4321, key: "bk_real", inbox: "http://127.0.0.1:5555" });
    expect(script).toMatch(/^PORT=4321\s/m);
    expect(script).toMatch(/^KEY=bk_real\s/m);
    expect(script).toMatch(/^INBOX=http:\/\/127\.0\.0\.1:5555\s/m);
  });

  it("names no fixed port, no other key variable and no hard-coded ids", () => {
    expect(tour).not.toMatch(/:8787/);
    expect(tour).not.toContain("$API_KEY");
    expect(tour).not.toMatch(/\/(bookings|people|resources|categories|services)\/\d+/);
    expect(tour).not.toContain("<collection_id>");
  });

  it("is valid bash", () => {
    const check = spawnSync("bash", ["-n"], { input: tourScript(blocks, { port: 1, key: "bk_x" }), encoding: "utf8" });
    expect(check.stderr).toBe("");
    expect(check.status).toBe(0);
  });
});
