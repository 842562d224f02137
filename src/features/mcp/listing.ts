// tools/list: each tool's input and output as JSON Schema, converted from its zod schemas once
// per isolate (the conversion walks every schema; every client's connect lists the tools).
import * as z from "zod";
import type { McpTool } from "./tool";

type JsonSchema = { type: "object"; [key: string]: unknown };

interface ListedTool {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  outputSchema: JsonSchema;
  annotations: McpTool["annotations"] & { title: string };
}

const listed = new WeakMap<McpTool, ListedTool>();

/**
 * An assistant carries every listed schema in its context, so what says nothing is left out: the
 * safe-integer bounds zod gives every `.int()`, and the answers' examples (their fields are
 * described; the inputs keep theirs, which show the formats to send).
 */
function compact(io: "input" | "output") {
  return ({ jsonSchema }: { jsonSchema: Record<string, unknown> }) => {
    if (jsonSchema.maximum === Number.MAX_SAFE_INTEGER) delete jsonSchema.maximum;
    if (jsonSchema.minimum === Number.MIN_SAFE_INTEGER) delete jsonSchema.minimum;
    if (io === "output") delete jsonSchema.examples;
  };
}

/**
 * What a client may send (`io: "input"`: "10" and 10 are both an id, as in a form) and what the
 * tool answers. A rule JSON Schema cannot say (a refinement) is checked when the tool runs.
 * Draft 7, as the SDK's own McpServer lists its tools: clients that validate with a draft-7
 * validator (ajv's default) cannot compile a 2020-12 schema, and newer clients read draft 7 too.
 */
const jsonSchemaOf = (schema: z.ZodType, io: "input" | "output") =>
  z.toJSONSchema(schema, { io, target: "draft-7", unrepresentable: "any", override: compact(io) }) as JsonSchema;

function listingOf(tool: McpTool): ListedTool {
  let entry = listed.get(tool);
  if (!entry) {
    entry = {
      name: tool.name,
      title: tool.title,
      description: tool.description,
      inputSchema: jsonSchemaOf(tool.input, "input"),
      outputSchema: jsonSchemaOf(tool.output, "output"),
      annotations: { title: tool.title, ...tool.annotations },
    };
    listed.set(tool, entry);
  }
  return entry;
}

export const toolListing = (tools: readonly McpTool[]) => tools.map(listingOf);
