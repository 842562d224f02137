// The OpenAPI document: served without a key, with its reference page, and naming exactly the
// routes the app mounts (every method and path, both ways).
import { describe, expect, it } from "vitest";
import { buildApp } from "../../src/app";
import { newAccount, send } from "../support/api";
import { contractViolation, documentedRoute } from "../support/openapi";

/** `METHOD /path/{param}` for every handler route of the app; Hono's `:id` written `{id}`. */
function appRoutes(): string[] {
  const seen = new Set<string>();
  for (const { method, path } of buildApp().routes) {
    if (!["GET", "POST", "PUT", "DELETE", "PATCH"].includes(method) || path.endsWith("*")) continue;
    seen.add(`${method} ${path.replace(/:(\w+)/g, "{$1}")}`);
  }
  return [...seen].sort();
}

/** The document's operations, with the `.json` suffix the app strips from every path taken off. */
function documentedRoutes(doc: any): string[] {
  return Object.entries<any>(doc.paths)
    .flatMap(([path, item]) =>
      Object.keys(item)
        .filter((k) => k !== "servers")
        .map((m) => `${m.toUpperCase()} ${path.replace(/\.json$/, "")}`),
    )
    .sort();
}

describe("GET /api/v1/openapi.json", () => {
  it("answers the OpenAPI 3.1 document without an API key", async () => {
    const res = await send("GET", "/api/v1/openapi.json");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("application/json");
    expect(res.body.openapi).toBe("3.1.0");
    expect(Object.keys(res.body.webhooks)).toContain("booking.created");
  });

  it("names every route the app mounts, and no route the app does not have", async () => {
    const { body: doc } = await send("GET", "/api/v1/openapi.json");
    const app = appRoutes();
    const documented = documentedRoutes(doc);
    expect(app.length).toBeGreaterThan(100);
    expect({ missingFromDocument: app.filter((r) => !documented.includes(r)) }).toEqual({ missingFromDocument: [] });
    expect({ notInApp: documented.filter((r) => !app.includes(r)) }).toEqual({ notInApp: [] });
  });

  it("matches a concrete path to its template, preferring static segments", () => {
    expect(documentedRoute("GET", "http://api.test/api/v1/bookings/upcoming?from=2030-01-01")?.path).toBe("/api/v1/bookings/upcoming");
    expect(documentedRoute("GET", "http://api.test/api/v1/bookings/12.json")?.path).toBe("/api/v1/bookings/{id}");
    expect(documentedRoute("POST", "http://acme.localhost/bookings")?.path).toBe("/bookings");
    expect(documentedRoute("GET", "http://api.test/api/v1/nothing")).toBeUndefined();
  });
});

describe("the answer check in send()", () => {
  it("passes a real answer and fails the same answer with a field the document does not name", async () => {
    const { api } = await newAccount();
    const res = await api.post("/services", { service: { title: "Cut" } });
    const url = "http://api.test/api/v1/services";
    expect(contractViolation("POST", url, 200, "application/json", res.body)).toBeNull();
    const drifted = { service: { ...res.body.service, surprise: 1 } };
    expect(contractViolation("POST", url, 200, "application/json", drifted)).toMatch(/POST \/api\/v1\/services → 200: answer does not match/);
    const retyped = { service: { ...res.body.service, price: 450 } };
    expect(contractViolation("POST", url, 200, "application/json", retyped)).toMatch(/price/);
  });

  it("fails a status the document does not give for the route, and an error body of the wrong shape", () => {
    expect(contractViolation("GET", "http://api.test/api/v1/services", 201, "application/json", [])).toMatch(/status not documented/);
    expect(contractViolation("GET", "http://api.test/api/v1/services/9", 404, "application/json", { message: "gone" })).toMatch(/does not match/);
    expect(contractViolation("GET", "http://api.test/api/v1/services/9", 404, "application/json", { error: "Not found." })).toBeNull();
  });
});

describe("GET /api/v1/docs", () => {
  it("answers the reference page without an API key: every operation of the document, under its tag", async () => {
    const res = await send("GET", "/api/v1/docs");
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toContain("text/html");
    const html = res.body as string;
    expect(html).toContain('href="/api/v1/openapi.json"');
    const document = (await send("GET", "/api/v1/openapi.json")).body as any;
    let operations = 0;
    for (const [path, item] of Object.entries(document.paths) as [string, any][]) {
      for (const method of ["get", "post", "put", "delete"]) {
        if (!item[method]) continue;
        operations += 1;
        expect(html, `${method} ${path}`).toContain(`<span class="method">${method}</span> <code>${path.replace(/&/g, "&amp;")}</code>`);
      }
    }
    expect(operations).toBeGreaterThan(80);
    for (const tag of document.tags) expect(html).toContain(`>${tag.name.replace(/&/g, "&amp;")}</h2>`);
  });

  it("runs no script and loads nothing from another host, under a CSP that allows no script", async () => {
    const res = await send("GET", "/api/v1/docs");
    const html = res.body as string;
    expect(html).not.toMatch(/<script\b/);
    expect(html).not.toMatch(/(src|href)="(https?:)?\/\//);
    const csp = res.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'none'");
    expect(csp).toContain("style-src 'self'");
    const css = await send("GET", "/api/v1/docs.css");
    expect(css.status).toBe(200);
    expect(css.headers.get("content-type")).toContain("text/css");
  });
});
