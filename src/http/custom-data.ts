// custom_data on the way out: stored strings become booleans when they look boolean and
// datetimes (account zone) when their key ends in `_at` (spec: Custom data).
import type { CustomData } from "../db/schema";
import { formatInstant, parseDateTimeInput } from "../domain/time";

export function customDataOut(data: CustomData, timeZone: string): Record<string, unknown> | null {
  if (data === null) return null;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(data)) out[key] = customValueOut(key, value, timeZone);
  return out;
}

function customValueOut(key: string, value: string, timeZone: string): unknown {
  if (value === "true") return true;
  if (value === "false") return false;
  if (key.endsWith("_at") && value !== "") {
    const instant = parseDateTimeInput(value, timeZone);
    if (instant !== null) return formatInstant(instant, timeZone);
  }
  return value;
}
