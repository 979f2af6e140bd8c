/**
 * A string column as a u32 rank per row under a collation, derived once per segment and collation and kept
 * with the segment until the attribute changes (Segment.derived): strings equal under the collation share
 * a rank, ranks follow its order, 0 is null. ORDER BY reads the ranks as its core sort key, host filters
 * compare ranks instead of strings, grouping folds them in the core. Null when the column holds a value
 * of another kind (the callers then read the values).
 */
import type { Segment } from './segment.js';
import { binaryCompare, type Collation } from '../../util/collation.js';

export interface StringRanks {
  /** Core address of the u32 rank of each row. */
  ptr: number;
  /** By rank: the first string of the segment with that rank (null for 0). */
  strings: (string | null)[];
  /** By rank - 1: the collation's folded keys, in binary order (a literal's rank by binary search). */
  folded: string[];
}

export function stringRanks(seg: Segment, a: number, coll: Collation): StringRanks | null {
  const host = seg.hostCols[a];
  if (!host) return null;
  return seg.derived<StringRanks | null>(`string-ranks:${a}:${coll.name}`, a, () => {
    // folded key -> the first string of the segment with it
    const distinct = new Map<string, string>();
    for (let r = 0; r < seg.rows; r++) {
      const v = host[r];
      if (typeof v === 'string') { const k = coll.fold(v); if (!distinct.has(k)) distinct.set(k, v); }
      else if (v !== null && v !== undefined) return { ptrs: [], data: null };
    }
    // folded keys in binary (code point) order are the collation's order
    const folded = [...distinct.keys()].sort(binaryCompare);
    const rank = new Map(folded.map((s, i) => [s, i + 1]));
    const ptr = seg.core.alloc(Math.max(seg.rows, 4) * 4);
    const u32 = seg.core.u32;
    const base = ptr >>> 2;
    for (let r = 0; r < seg.rows; r++) {
      const v = host[r];
      u32[base + r] = typeof v === 'string' ? rank.get(coll.exact ? v : coll.fold(v))! : 0;
    }
    return { ptrs: [ptr], data: { ptr, strings: [null, ...folded.map((k) => distinct.get(k)!)], folded } };
  }).data;
}

/** The index of the first folded key >= `key` (`after`: > `key`) in `folded`. */
export function rankBound(folded: string[], key: string, after: boolean): number {
  let lo = 0, hi = folded.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = binaryCompare(folded[mid]!, key);
    if (c < 0 || (after && c === 0)) lo = mid + 1; else hi = mid;
  }
  return lo;
}
