// Wraps objects by kind, as the spec shapes every answer: `{"booking": {...}}` and
// `[{"booking": {...}}, ...]`.
export const wrap = <T>(kind: string, object: T) => ({ [kind]: object });

export const wrapList = <T>(kind: string, objects: readonly T[]) => objects.map((o) => ({ [kind]: o }));
