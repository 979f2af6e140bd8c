/**
 * The candidate search of CALL SUGGEST / QSUGGEST: the terms of a sorted dictionary within `maxEdits`
 * Levenshtein edits of a word, found by walking the dictionary as a trie. Consecutive sorted terms share
 * their common prefix, so each term computes only the edit-distance rows past what it shares with the
 * one before; a prefix whose row is already over the limit (rows never get better as a prefix grows) or
 * longer than any answer can be skips every term under it by a binary search. A call costs the prefixes
 * near the word, not the whole dictionary (the scan before this read every term of every segment).
 * Distances are over code points (Levenshtein; src/util/edit-distance.ts is the model it is checked against).
 */
/** A dictionary term a user could have meant: not an `=exact` form nor an internal marker. */
export const isWordTerm = (t: string): boolean => t !== '' && t[0] !== '=' && t.charCodeAt(0) >= 0x20;

/** First index after `i` whose term does not start with `prefix` (terms[i] does; those that do follow it). */
function endOfPrefix(terms: readonly string[], i: number, prefix: string): number {
  let lo = i + 1;
  let step = 1;
  while (lo + step - 1 < terms.length && terms[lo + step - 1]?.startsWith(prefix)) {
    lo += step;
    step *= 2;
  }
  let hi = Math.min(terms.length, lo + step - 1);
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (terms[mid]?.startsWith(prefix)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Calls `found(i, distance)` for each term of `terms` (sorted in code unit order, as a segment's
 * dictionary) that is a word term, differs from `word` (code points) by fewer than `deltaLen` code
 * points in length and is within `maxEdits` edits of it; in dictionary order.
 */
export function walkSuggestions(
  terms: readonly string[], word: readonly number[], maxEdits: number, deltaLen: number,
  found: (i: number, distance: number) => void,
): void {
  const n = word.length;
  if (maxEdits < 0 || deltaLen <= 0) return;
  const maxDepth = n + Math.min(deltaLen - 1, maxEdits);
  const width = n + 1;
  const rows = new Int32Array((maxDepth + 1) * width);
  for (let j = 0; j <= n; j++) rows[j] = j;
  /** Code unit offset after each depth of the current path (unitEnd[0] = 0). */
  const unitEnd = new Int32Array(maxDepth + 2);
  let path = ''; // the term whose rows 0..depth are in `rows`
  let depth = 0;
  let i = 0;
  while (i < terms.length) {
    const t = terms[i]!;
    if (t === undefined || !isWordTerm(t)) { i++; continue; } // undefined: a hole of a page's partly loaded dictionary
    // rows shared with the path: the deepest depth whose code units are a common prefix
    const limit = Math.min(unitEnd[depth]!, t.length);
    let lcp = 0;
    while (lcp < limit && t.charCodeAt(lcp) === path.charCodeAt(lcp)) lcp++;
    let d = depth;
    while (unitEnd[d]! > lcp) d--;
    let off = unitEnd[d]!;
    let skipTo = -1;
    while (off < t.length) {
      if (d === maxDepth) { skipTo = endOfPrefix(terms, i, t.slice(0, off + 1)); break; } // longer than any answer
      const cp = t.codePointAt(off)!;
      off += cp > 0xffff ? 2 : 1;
      const prev = d * width;
      d++;
      const cur = d * width;
      rows[cur] = d;
      let best = d;
      for (let j = 1; j <= n; j++) {
        const v = Math.min(rows[prev + j]! + 1, rows[cur + j - 1]! + 1, rows[prev + j - 1]! + (word[j - 1] === cp ? 0 : 1));
        rows[cur + j] = v;
        if (v < best) best = v;
      }
      unitEnd[d] = off;
      if (best > maxEdits) { skipTo = endOfPrefix(terms, i, t.slice(0, off)); d--; break; }
    }
    path = t;
    depth = d;
    if (skipTo >= 0) { i = skipTo; continue; }
    // d is the term's length in code points
    if (Math.abs(d - n) < deltaLen) {
      const distance = rows[d * width + n]!;
      if (distance <= maxEdits) found(i, distance);
    }
    i++;
  }
}
