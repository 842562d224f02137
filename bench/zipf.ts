// Seeded randomness for the fleet bench: the same seed gives the same accounts and the same
// sequence of visits, so runs before and after a change ask the same questions.

export type Random = () => number;

/** mulberry32: small, fast, and good enough to spread traffic; not for anything secret. */
export function seededRandom(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
}

export const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)];

/**
 * Ranks 1..n drawn with P(k) ∝ 1 / k^s: a few shops get much of the traffic, most get a little.
 * Sampled by binary search over the cumulative weights.
 */
export function zipf(random: Random, n: number, s: number): () => number {
  const cumulative = new Float64Array(n);
  let total = 0;
  for (let k = 1; k <= n; k += 1) cumulative[k - 1] = total += 1 / k ** s;
  return () => {
    const target = random() * total;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (cumulative[mid] < target) lo = mid + 1;
      else hi = mid;
    }
    return lo + 1;
  };
}

/** The share of draws the most popular rank gets: how skewed the traffic is. */
export const topShare = (n: number, s: number) => 1 / Array.from({ length: n }, (_, i) => 1 / (i + 1) ** s).reduce((a, b) => a + b, 0);
