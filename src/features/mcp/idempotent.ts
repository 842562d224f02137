// The `book` tools' idempotency_key: the same keys, store and rules as the REST Idempotency-Key
// header (http/idempotency.ts), so a retried tool call makes one booking, and a key used for a
// REST request cannot be replayed as a tool call (the fingerprints differ: 422).
import { ApiError } from "../../http/errors";
import { claimIdempotencyKey, freeIdempotencyKey, keepIdempotentAnswer, MAX_IDEMPOTENCY_KEY_LENGTH, type StoredAnswer } from "../../http/idempotency";
import { sha256Hex } from "../../http/secrets";
import { text } from "../../http/fields";
import type { ToolContext } from "./tool";

export const idempotencyKeyInput = () =>
  text(MAX_IDEMPOTENCY_KEY_LENGTH).optional().meta({
    description:
      "Any unique text (a UUID) to make retrying safe: a call repeated with the same key within 24 hours makes no second booking and answers what the first did.",
  });

type Answer = Record<string, unknown>;

function replay(stored: StoredAnswer): Answer {
  const body = JSON.parse(stored.body) as Answer;
  if (stored.status === 200) return body;
  throw new ApiError(stored.status, body);
}

/** Runs `run` once per key: `input` is the call's validated arguments without the key. */
export async function oncePerKey(context: ToolContext, tool: string, key: string | null | undefined, input: unknown, run: () => Promise<Answer>): Promise<Answer> {
  if (!key) return run();
  const scope = context.deps;
  const stored = await claimIdempotencyKey(scope, key, await sha256Hex(`MCP ${tool}\n${JSON.stringify(input)}`));
  if (stored) return replay(stored);
  let answer: StoredAnswer;
  let result: Answer;
  try {
    result = await run();
    answer = { status: 200, body: JSON.stringify(result) };
  } catch (error) {
    // A refusal is the call's answer, as a REST 4xx is; anything else frees the key for a retry.
    if (!(error instanceof ApiError) || error.status >= 500) {
      await freeIdempotencyKey(scope, key);
      throw error;
    }
    await keepIdempotentAnswer(scope, key, { status: error.status, body: JSON.stringify(error.body) });
    throw error;
  }
  await keepIdempotentAnswer(scope, key, answer);
  return result;
}
