// The benchmark's floor route lives only in bench/floor-worker.ts: the production Worker never serves it.
import { beforeAll, describe, expect, it } from "vitest";
import { newAccount, type Client } from "../support/api";

let api: Client;

beforeAll(async () => {
  api = (await newAccount()).api;
});

describe("GET|POST /api/v1/__bench/floor", () => {
  it("answers 404 on the production Worker, for an authenticated GET", async () => {
    const res = await api.get("/__bench/floor?bytes=1000");
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "There is nothing at this path." });
  });

  it("answers 404 on the production Worker, for an authenticated POST", async () => {
    const res = await api.post("/__bench/floor?bytes=1000", { booking: {} });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ error: "There is nothing at this path." });
  });
});
