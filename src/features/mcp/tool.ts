// An MCP tool: a REST rule's own zod schemas for its input and its answer, and the service call
// the REST route makes (docs/decisions/mcp.md, "One source per rule").
import type * as z from "zod";
import type { Deps } from "../../env";
import { ApiError } from "../../http/errors";
import { parseSyncFirst } from "../../http/validate";
import { refuseMalformedText } from "../../http/well-formed";
import type { Holder } from "../holds/service";

/** What a tool call runs with: the caller's account and clock, as a REST request's. */
export interface ToolContext {
  deps: Deps;
  /** The booking site's origin, for the links its bookings' messages carry. */
  siteOrigin: string;
  /** Who holds a time taken through this endpoint: the visitor's address on the site, the key on the private API. */
  holder: Holder;
}

/** Hints for the assistant (MCP tool annotations): what the tool changes. */
interface Annotations {
  readOnlyHint?: boolean;
  destructiveHint?: boolean;
  idempotentHint?: boolean;
  openWorldHint?: boolean;
}

export interface McpTool {
  name: string;
  title: string;
  description: string;
  input: z.ZodObject;
  output: z.ZodObject;
  annotations: Annotations;
  /** Validates the arguments as the REST route validates its input, then runs; refusals throw `ApiError`. */
  call(context: ToolContext, args: unknown): Promise<Record<string, unknown>>;
}

interface ToolSpec<I extends z.ZodObject, O extends z.ZodObject> {
  name: string;
  title: string;
  description: string;
  input: I;
  output: O;
  /** The wrapper key the REST body has (`booking`): an attribute error names the attribute within it. */
  root?: string;
  annotations?: Annotations;
  /**
   * The answer `output` describes. Typed loosely (the serializers' types are wider than the
   * documented enums): an MCP client checks each answer against the listed outputSchema, and the
   * tests drive the SDK's client, as the REST tests check answers against the OpenAPI document.
   */
  run(context: ToolContext, input: z.output<I>): Promise<Record<string, unknown>>;
}

export function defineTool<I extends z.ZodObject, O extends z.ZodObject>(spec: ToolSpec<I, O>): McpTool {
  const { run, root, annotations = {}, ...described } = spec;
  return {
    ...described,
    annotations: { openWorldHint: false, ...annotations },
    async call(context, args) {
      const raw = args ?? {};
      refuseMalformedText(raw, { root });
      const parsed = await parseSyncFirst(spec.input, raw);
      if (!parsed.success) throw ApiError.fromZod(parsed.error, root);
      return run(context, parsed.data);
    },
  };
}
