/** Lookups in a segment's dictionary, sorted in UTF-16 code unit order (JS `<`, as the inverter sorts it). */

/**
 * `terms` appended one by one to `into` (a packed array: made by [] and push). A dictionary that came
 * through postMessage is HOLEY_ELEMENTS (V8's deserializer makes every dense array holey), one built
 * on this thread PACKED_ELEMENTS: the readers of both (lowerBound here, the merge's union, pair-fill)
 * met two array maps, were deoptimized ("wrong map") and compiled again. Received dictionaries are
 * copied through this, so every segment's terms are of one kind.
 */
export function appendTerms(into: string[], terms: readonly string[]): string[] {
  for (let i = 0; i < terms.length; i++) into.push(terms[i]);
  return into;
}

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
