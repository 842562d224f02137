// Answers to the mistakes integrators make first: JSON sent with curl's default form type, and
// a known path asked with the wrong method.
import { beforeAll, describe, expect, it } from "vitest";
import { newAccount, send, type Client } from "../support/api";

let api: Client;
let subdomain: string;

beforeAll(async () => {
  const mine = await newAccount();
  api = mine.api;
  subdomain = mine.account.subdomain;
});

describe("a JSON body sent as application/x-www-form-urlencoded (curl -d without a type)", () => {
  it("answers 400 saying to send Content-Type: application/json, and stores nothing", async () => {
    const before = (await api.get("/people")).headers.get("total-count");
    const res = await api.form("POST", "/people", JSON.stringify({ person: { name: "Kari Nordmann" } }));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ base: [expect.stringContaining("send the header Content-Type: application/json")] });
    expect((await api.get("/people")).headers.get("total-count")).toBe(before);
  });

  it("still reads real bracket-form bodies", async () => {
    const res = await api.form("POST", "/people", "person[name]=Ola%20Nordmann");
    expect(res.status).toBe(200);
    expect(res.body.person.name).toBe("Ola Nordmann");
  });
});

describe("a known path with a method it does not serve", () => {
  it("answers 405 with Allow on the private API", async () => {
    const res = await api.delete("/client");
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, PUT, HEAD");
    expect(res.body).toEqual({ error: expect.stringContaining("DELETE is not allowed") });
  });

  it("answers 405 with Allow on a path with an id", async () => {
    const res = await api.post("/people/1", {});
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")?.split(", ").sort()).toEqual(["DELETE", "GET", "HEAD", "PUT"]);
  });

  it("answers 405 on the booking site, which only reads services", async () => {
    const res = await send("PUT", `http://${subdomain}.localhost/services`, { headers: { "content-type": "application/json" }, body: "{}" });
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("GET, HEAD");
  });

  it("keeps 404 for paths that do not exist under any method", async () => {
    expect((await api.delete("/no-such-thing")).status).toBe(404);
    expect((await api.get("/people/1/no-such-thing")).status).toBe(404);
  });
});
