// Request helpers for integration tests: every call goes through the real Worker entry.
import { exports } from "cloudflare:workers";
import { env } from "cloudflare:test";
import { contractViolation } from "./openapi";

export const ADMIN_TOKEN = "test-admin-token";
const ORIGIN = "http://api.test";
const USER_AGENT = "booking-tests/1.0";

interface ApiResponse<T = any> {
  status: number;
  headers: Headers;
  body: T;
}

export async function send(method: string, url: string, init: { headers?: Record<string, string>; body?: BodyInit | null } = {}): Promise<ApiResponse> {
  const res = await exports.default.fetch(
    new Request(url.startsWith("http") ? url : `${ORIGIN}${url}`, {
      method,
      headers: { "user-agent": USER_AGENT, ...init.headers },
      body: init.body ?? null,
    }),
  );
  const text = await res.text();
  let body: unknown = text;
  try {
    body = text ? JSON.parse(text) : null;
  } catch {
    /* non-JSON bodies stay text */
  }
  // Every answer of a documented route is checked against the OpenAPI document (src/openapi).
  const violation = contractViolation(method, url, res.status, res.headers.get("content-type"), body);
  if (violation) throw new Error(`OpenAPI contract: ${violation}`);
  return { status: res.status, headers: res.headers, body };
}

/** JSON client for one API key on the private API. */
export function client(apiKey: string, base = "/api/v1") {
  const auth = { authorization: `Bearer ${apiKey}` };
  const json =
    (method: string) =>
    (path: string, payload?: unknown, headers: Record<string, string> = {}) =>
      send(method, `${base}${path}`, {
        headers: { ...auth, "content-type": "application/json", ...headers },
        body: payload === undefined ? null : JSON.stringify(payload),
      });
  return {
    apiKey,
    get: (path: string, headers: Record<string, string> = {}) => send("GET", `${base}${path}`, { headers: { ...auth, ...headers } }),
    post: json("POST"),
    put: json("PUT"),
    delete: json("DELETE"),
    /** Form post with bracket names: `form("POST", "/resources", "resource[title]=Room")`. */
    form: (method: string, path: string, formBody: string) =>
      send(method, `${base}${path}`, {
        headers: { ...auth, "content-type": "application/x-www-form-urlencoded" },
        body: formBody,
      }),
  };
}

export type Client = ReturnType<typeof client>;

let counter = 0;
/** A fresh tenant through the operator API; returns its private-API client and account. */
export async function newAccount(attributes: Record<string, unknown> = {}) {
  counter += 1;
  const subdomain = `acct${counter}${Math.random().toString(36).slice(2, 8)}`;
  const res = await send("POST", "/admin/v1/accounts", {
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
    body: JSON.stringify({
      account: {
        subdomain,
        name: `Account ${counter}`,
        email: `owner${counter}@example.com`,
        time_zone: "Europe/Oslo",
        country_code: "NO",
        locale: "en",
        ...attributes,
      },
    }),
  });
  if (res.status !== 200) throw new Error(`account create failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { api: client(res.body.api_key), account: res.body.account, webhookSecret: res.body.webhook_secret as string };
}

/** The public booking site of an account: Host `<subdomain>.localhost`. */
export function publicSite(subdomain: string) {
  const origin = `http://${subdomain}.localhost`;
  return {
    origin,
    get: (path: string, headers: Record<string, string> = {}) => send("GET", `${origin}${path}`, { headers }),
    request: (method: string, path: string, headers: Record<string, string> = {}) => send(method, `${origin}${path}`, { headers }),
    post: (path: string, payload: unknown) => send("POST", `${origin}${path}`, { headers: { "content-type": "application/json" }, body: JSON.stringify(payload) }),
    put: (path: string, payload: unknown, headers: Record<string, string> = {}) =>
      send("PUT", `${origin}${path}`, { headers: { "content-type": "application/json", ...headers }, body: JSON.stringify(payload) }),
  };
}

export const operator = {
  post: (path: string, payload?: unknown) =>
    send("POST", `/admin/v1${path}`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: payload === undefined ? null : JSON.stringify(payload),
    }),
  put: (path: string, payload: unknown) =>
    send("PUT", `/admin/v1${path}`, {
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, "content-type": "application/json" },
      body: JSON.stringify(payload),
    }),
  get: (path: string) => send("GET", `/admin/v1${path}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }),
  delete: (path: string) => send("DELETE", `/admin/v1${path}`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } }),
};

export { env };
