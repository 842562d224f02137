// A typed client falls out of the document: openapi-typescript generates the types, and a small
// openapi-fetch program compiles against them (and one with a wrong field does not).
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import ts from "typescript";
import { beforeAll, describe, expect, it } from "vitest";
import { openApiDocument } from "../../../src/openapi/document";

// Inside node_modules so the program resolves openapi-fetch as an integrator's project would.
const DIR = path.join(import.meta.dirname, "../../../node_modules/.cache/typed-client-test");

function compile(name: string, program: string): string[] {
  const file = path.join(DIR, `${name}.ts`);
  writeFileSync(file, program);
  const host = ts.createProgram([file], {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2022.d.ts", "lib.dom.d.ts"],
    types: [],
    skipLibCheck: true,
  });
  return ts.getPreEmitDiagnostics(host).map((d) => ts.flattenDiagnosticMessageText(d.messageText, "\n"));
}

const header = `import createClient from "openapi-fetch";
import type { paths } from "./api";
const client = createClient<paths>({ baseUrl: "http://127.0.0.1:8787", headers: { Authorization: "Bearer KEY" } });
`;

beforeAll(async () => {
  mkdirSync(DIR, { recursive: true });
  writeFileSync(path.join(DIR, "api.d.ts"), astToString(await openapiTS(structuredClone(openApiDocument()) as any)));
}, 60_000);

describe("a client generated with openapi-typescript", () => {
  it("compiles a program that books and reads back with openapi-fetch", () => {
    const errors = compile(
      "ok",
      `${header}
export async function book(): Promise<string> {
  const { data, error } = await client.POST("/api/v1/bookings", {
    body: { booking: { resource_id: 1, booked_from: "2030-01-07 10:00", booked_to: "2030-01-07 11:00" } },
    params: { header: { "Idempotency-Key": "k-1" } },
  });
  if (error) throw new Error(JSON.stringify(error));
  const state: "confirmed" | "awaiting_verification" | string = data.booking.state;
  const { data: slots } = await client.GET("/api/v1/services/{id}/slots", { params: { path: { id: 1 }, query: { from: "2030-01-07" } } });
  return \`\${state} \${slots?.[0]?.slot.timestamp ?? "none"}\`;
}
`,
    );
    expect(errors).toEqual([]);
  }, 60_000);

  it("rejects a program that reads a field the API does not answer", () => {
    const errors = compile(
      "wrong",
      `${header}
export async function title() {
  const { data } = await client.GET("/api/v1/bookings/{id}", { params: { path: { id: 1 } } });
  return data?.booking.no_such_field;
}
`,
    );
    expect(errors.join("\n")).toContain("no_such_field");
  }, 60_000);
});
