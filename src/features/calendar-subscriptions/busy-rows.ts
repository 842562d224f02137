// A feed's busy intervals as the rows stored for its subscription: merged where they overlap or
// touch (any busy interval takes the whole resource, so which event made it busy changes nothing
// here), and written by difference, so a fetch that changes nothing writes nothing and bumps no
// version, and a change on one day misses only the answers that cover it.

export interface Span {
  from: number;
  to: number;
}

/** Sorted, overlapping and touching spans joined; empty spans dropped. */
export function mergeSpans(spans: readonly Span[]): Span[] {
  const sorted = spans.filter((s) => s.to > s.from).sort((a, b) => a.from - b.from || a.to - b.to);
  const merged: Span[] = [];
  for (const span of sorted) {
    const last = merged[merged.length - 1];
    if (last && span.from <= last.to) last.to = Math.max(last.to, span.to);
    else merged.push({ from: span.from, to: span.to });
  }
  return merged;
}

/** The rows to delete (by id) and the spans to insert so that `stored` becomes `wanted`. */
export function spanChanges(stored: readonly (Span & { id: number })[], wanted: readonly Span[]): { remove: number[]; add: Span[] } {
  const key = (s: Span) => `${s.from}:${s.to}`;
  const want = new Set(wanted.map(key));
  const have = new Set(stored.map(key));
  return {
    remove: stored.filter((s) => !want.has(key(s))).map((s) => s.id),
    add: wanted.filter((s) => !have.has(key(s))),
  };
}
