// Seats held at once, read back from stored rows: what the writes suites' capacity invariants compare with capacity.

export interface Row {
  resource_id: number;
  booked_from: number;
  booked_to: number;
  count: number;
}

/** The most `count` held at any instant on each resource, from the stored rows (half-open ranges). */
export function peakPerResource(rows: Row[]): Map<number, number> {
  const edges = new Map<number, [number, number][]>();
  for (const r of rows) {
    const list = edges.get(r.resource_id) ?? [];
    list.push([r.booked_from, r.count], [r.booked_to, -r.count]);
    edges.set(r.resource_id, list);
  }
  const peaks = new Map<number, number>();
  for (const [resource, list] of edges) {
    // An end and a start at the same instant do not overlap: ends first.
    list.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    let load = 0;
    let peak = 0;
    for (const [, delta] of list) peak = Math.max(peak, (load += delta));
    peaks.set(resource, peak);
  }
  return peaks;
}
