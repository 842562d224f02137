// The one error type every layer throws; `onError` renders it with the spec's body shapes.
import type * as z from "zod";

type ErrorBody = Record<string, unknown>;

export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly body: ErrorBody,
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof body.error === "string" ? body.error : JSON.stringify(body));
  }

  /** 400 keyed by attribute: `{"title": ["can't be blank"]}`. */
  static invalid(attribute: string, ...messages: string[]): ApiError {
    return new ApiError(400, { [attribute]: messages });
  }

  static notFound(what = "object"): ApiError {
    return new ApiError(404, { error: `The ${what} was not found.` });
  }

  /** Zod issues to `{attribute: [messages]}`; the wrapper key (`booking`) is not part of a name. */
  static fromZod(error: z.ZodError, root?: string): ApiError {
    const fields: Record<string, string[]> = {};
    for (const { path, message } of error.issues) {
      const names = path.map(String);
      if (root && names.length === 1 && names[0] === root) {
        (fields[root] ??= []).push(`is required: wrap the attributes as {"${root}": {...}}`);
        continue;
      }
      const [head, ...rest] = names;
      const attribute = (head === root ? rest[0] : head) ?? "base";
      (fields[attribute] ??= []).push(message);
    }
    return new ApiError(400, fields);
  }
}

/** Collects several attribute errors before throwing them as one 400. */
export class ErrorCollector {
  readonly fields: Record<string, string[]> = {};
  add(attribute: string, message: string): void {
    (this.fields[attribute] ??= []).push(message);
  }
  get empty(): boolean {
    return Object.keys(this.fields).length === 0;
  }
  throwIfAny(): void {
    if (!this.empty) throw new ApiError(400, this.fields);
  }
}
