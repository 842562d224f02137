// One request of a bench server's private API with an account's key, answered as status and JSON:
// the mixes that need each answer (a hold's secret, a booking's checkout) rather than a load figure.
import { USER_AGENT } from "./wrangler-dev";

export type PrivateCall = (method: string, path: string, body?: unknown) => Promise<{ status: number; body: Record<string, any> }>;

export const privateApi =
  (port: number, key: string): PrivateCall =>
  async (method, path, body) => {
    const res = await fetch(`http://127.0.0.1:${port}/api/v1${path}`, {
      method,
      headers: { "user-agent": USER_AGENT, authorization: `Bearer ${key}`, ...(body ? { "content-type": "application/json" } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, body: (await res.json()) as Record<string, any> };
  };
