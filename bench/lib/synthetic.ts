/**
 * The seeded synthetic corpus of the core benchmarks: a Zipf(s) vocabulary of `w<rank in base 36>`
 * words, a title of 4-11 words and a body of 30-89, one uint attribute. Documents go straight to the
 * index (no text pipeline), so what is measured is the core.
 */
import type { DocInput } from '../../src/index/types.js';

/** Vocabulary size of the synthetic corpus. */
export const VOCAB = 50_000;

/** Zipf sampler over ranks 0..n-1 by inverse CDF on precomputed cumulative weights. */
export function zipf(rng: () => number, n: number, s = 1.0): () => number {
  const cdf = new Float64Array(n);
  let sum = 0;
  for (let i = 0; i < n; i++) cdf[i] = sum += 1 / (i + 1) ** s;
  return () => {
    const x = rng() * sum;
    let lo = 0;
    let hi = n - 1;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (cdf[mid] < x) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
}

/** The word of a vocabulary rank. */
export const word = (rank: number): string => `w${rank.toString(36)}`;

/** `n` documents drawn with `rng` (ids 1..n). */
export function syntheticDocs(n: number, rng: () => number): DocInput[] {
  const pick = zipf(rng, VOCAB);
  const field = (len: number) => {
    const terms = Array.from({ length: len }, () => word(pick()));
    return { terms, positions: terms.map((_, i) => i + 1), length: len };
  };
  return Array.from({ length: n }, (_, i) => ({
    docId: BigInt(i + 1),
    fields: [field(4 + Math.floor(rng() * 8)), field(30 + Math.floor(rng() * 60))],
    attrs: [Math.floor(rng() * 1000)],
  }));
}
