/**
 * Levenshtein distance over code points by the full table, or `max + 1` as soon as it must exceed `max`:
 * CALL AUTOCOMPLETE's test of a completion's ends, and the model CALL SUGGEST's trie walk
 * (src/engine/exec/suggest-walk.ts) is checked against.
 */
export function editDistance(a: string[], b: string[], max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const v = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      cur.push(v);
      if (v < best) best = v;
    }
    if (best > max) return max + 1;
    prev = cur;
  }
  return prev[b.length]!;
}
