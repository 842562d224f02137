import { beforeAll, describe, expect, it } from "vitest";
import { newAccount, send, type Client } from "../support/api";

let subdomain: string;
let api: Client;

beforeAll(async () => {
  const mine = await newAccount();
  subdomain = mine.account.subdomain;
  api = mine.api;
});

describe("CORS on the booking site", () => {
  it("answers a widget's preflight from any origin", async () => {
    const res = await send("OPTIONS", `http://${subdomain}.localhost/bookings`, {
      headers: { origin: "https://shop.example", "access-control-request-method": "POST", "access-control-request-headers": "content-type" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-methods")).toContain("POST");
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("content-type");
  });

  it("lets a widget release its visitor's slot hold: DELETE with X-Hold-Secret", async () => {
    const res = await send("OPTIONS", `http://${subdomain}.localhost/slots/holds/1`, {
      headers: { origin: "https://shop.example", "access-control-request-method": "DELETE", "access-control-request-headers": "x-hold-secret" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-methods")).toContain("DELETE");
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("x-hold-secret");
  });

  it("lets an MCP client in a browser call the booking site's /mcp after its handshake", async () => {
    const res = await send("OPTIONS", `http://${subdomain}.localhost/mcp`, {
      headers: { origin: "https://assistant.example", "access-control-request-method": "POST", "access-control-request-headers": "content-type,mcp-protocol-version" },
    });
    expect(res.status).toBe(204);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
    expect(res.headers.get("access-control-allow-headers")?.toLowerCase()).toContain("mcp-protocol-version");
  });

  it("marks public reads as readable from any origin", async () => {
    const res = await send("GET", `http://${subdomain}.localhost/services`, { headers: { origin: "https://shop.example" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });

  it("sends no CORS headers on the private API", async () => {
    const res = await send("GET", "/api/v1/services", { headers: { origin: "https://shop.example", authorization: `Bearer ${api.apiKey}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("CORS on early answers of the booking site", () => {
  it("lets a widget read a 400 answered before routing", async () => {
    const { exports } = await import("cloudflare:workers");
    const res = await exports.default.fetch(new Request(`http://${subdomain}.localhost/services`, { headers: { origin: "https://shop.example" } }));
    expect(res.status).toBe(400); // no User-Agent
    expect(res.headers.get("access-control-allow-origin")).toBe("*");
  });
});
