// A tool's answer or refusal as MCP tool results: a refusal is a tool error (`isError`) in the
// API's own sentences, so the assistant can tell the person what to change; anything else is
// "system error" (logged with the request id), never a stack.
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { ApiError } from "../../http/errors";

type Messages = string[] | { [attribute: string]: Messages };

/** `{booked_from: ["can't be blank"]}` → "booked_from can't be blank"; nested attributes are dotted. */
function sentencesOf(body: Record<string, unknown>, prefix = ""): string[] {
  if (!prefix && typeof body.error === "string") return [body.error];
  return Object.entries(body as Record<string, Messages>).flatMap(([attribute, messages]) => {
    const name = prefix ? `${prefix}.${attribute}` : attribute;
    if (!Array.isArray(messages)) return sentencesOf(messages, name);
    return messages.map((message) => (name === "base" ? message : `${name} ${message}`));
  });
}

export const answerResult = (answer: Record<string, unknown>): CallToolResult => ({
  content: [{ type: "text", text: JSON.stringify(answer) }],
  structuredContent: answer,
});

/**
 * The refusal's sentences first, for the assistant; then the REST error body with its status,
 * for a program that reads attributes (`{"status": 400, "error": {"booked_from": [...]}}`).
 */
export function refusalResult(error: ApiError): CallToolResult {
  const retry = error.headers["Retry-After"];
  const sentences = sentencesOf(error.body);
  if (retry) sentences.push(`Retry after ${retry} seconds.`);
  return {
    isError: true,
    content: [
      { type: "text", text: sentences.join("\n") },
      { type: "text", text: JSON.stringify({ status: error.status, error: error.body }) },
    ],
  };
}

export const systemErrorResult = (): CallToolResult => ({ isError: true, content: [{ type: "text", text: "system error" }] });
