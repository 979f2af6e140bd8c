/** Lookups in a segment's dictionary, sorted in UTF-16 code unit order (JS `<`, as the inverter sorts it). */

/** First index in sorted `terms` whose value is >= `key`. */
export function lowerBound(terms: readonly string[], key: string): number {
  let lo = 0;
  let hi = terms.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (terms[mid]! < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Index of `key` in sorted, distinct `terms`, or -1. */
export function indexOfSorted(terms: readonly string[], key: string): number {
  const i = lowerBound(terms, key);
  return i < terms.length && terms[i] === key ? i : -1;
}
