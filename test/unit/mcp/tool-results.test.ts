// A tool call's outcomes as MCP results (features/mcp/server.ts, results.ts): the answer as
// structured content, a refusal in the API's sentences, and anything else as "system error"
// with its detail in the log only.
import { afterEach, describe, expect, it, vi } from "vitest";
import * as z from "zod";
import { ApiError } from "../../../src/http/errors";
import { callTool, type Endpoint } from "../../../src/features/mcp/server";
import { defineTool, type ToolContext } from "../../../src/features/mcp/tool";

const context = {} as ToolContext;
const endpointWith = (run: () => Promise<Record<string, unknown>>): Endpoint => ({
  tools: [defineTool({ name: "probe", title: "Probe", description: "", input: z.object({ n: z.number().int() }), output: z.object({ ok: z.boolean() }), run })],
  instructions: "",
  context,
  requestId: "req-1",
});

afterEach(() => vi.restoreAllMocks());

describe("a tool call's result", () => {
  it("answers the tool's answer as structured content and as its JSON text", async () => {
    const result = await callTool(
      endpointWith(async () => ({ ok: true })),
      "probe",
      { n: 1 },
    );
    expect(result).toEqual({ content: [{ type: "text", text: '{"ok":true}' }], structuredContent: { ok: true } });
  });

  it("answers a refusal with the API's sentences, nested attributes dotted, and the REST body", async () => {
    const refusal = new ApiError(400, { booked_from: ["can't be blank"], person_attributes: { email: ["can't be blank", "is invalid"] } });
    const result = await callTool(
      endpointWith(async () => {
        throw refusal;
      }),
      "probe",
      { n: 1 },
    );
    expect(result.isError).toBe(true);
    expect(result.content[0]).toEqual({ type: "text", text: "booked_from can't be blank\nperson_attributes.email can't be blank\nperson_attributes.email is invalid" });
    expect(JSON.parse((result.content[1] as { text: string }).text)).toEqual({ status: 400, error: refusal.body });
  });

  it("says when to retry a refusal that carries Retry-After", async () => {
    const refusal = new ApiError(429, { error: "Too many held times." }, { "Retry-After": "42" });
    const result = await callTool(
      endpointWith(async () => {
        throw refusal;
      }),
      "probe",
      { n: 1 },
    );
    expect(result.content[0]).toEqual({ type: "text", text: "Too many held times.\nRetry after 42 seconds." });
  });

  it("refuses bad input before the tool runs, in the API's words", async () => {
    const run = vi.fn(async () => ({ ok: true }));
    const result = await callTool(endpointWith(run), "probe", { n: "one" });
    expect(result.isError).toBe(true);
    expect((result.content[0] as { text: string }).text).toMatch(/^n /);
    expect(run).not.toHaveBeenCalled();
  });

  it("answers any other failure as 'system error', never its message or stack, and logs them with the request id", async () => {
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const result = await callTool(
      endpointWith(async () => {
        throw new Error("D1_ERROR: no such column secret_hash at queries.ts:12");
      }),
      "probe",
      { n: 1 },
    );
    expect(result).toEqual({ isError: true, content: [{ type: "text", text: "system error" }] });
    expect(log).toHaveBeenCalledOnce();
    expect(JSON.parse(log.mock.calls[0][0] as string)).toMatchObject({ request_id: "req-1", tool: "probe", error: expect.stringContaining("no such column") });
  });

  it("answers an unknown tool with a JSON-RPC error naming it", async () => {
    await expect(
      callTool(
        endpointWith(async () => ({ ok: true })),
        "nope",
        {},
      ),
    ).rejects.toThrow(/There is no tool nope/);
  });
});
