/**
 * Host columns (strings, MVAs) as the core's grouping reads them, derived once per segment and kept
 * with it until the attribute changes (Segment.derived): a string column as a u32 rank per row (ranks
 * follow the collation's order, strings equal under it sharing one rank, so they compare and group as
 * searchd's collation has them; 0 is null), an MVA column as row
 * offsets and i64 values. Null when the column holds a value of another kind: the host then folds.
 */
import type { Segment } from '../../index/segment/segment.js';
import { binaryCompare, type Collation } from '../../util/collation.js';

export interface StringRanks { ptr: number; strings: (string | null)[] }
export interface MvaColumn { offsets: number; values: number }

export function stringRanks(seg: Segment, a: number, coll: Collation): StringRanks | null {
  const host = seg.hostCols[a];
  if (!host) return null;
  return seg.derived<StringRanks | null>(`string-ranks:${a}:${coll.name}`, a, () => {
    // folded key -> the first string of the segment with it (what `strings` shows for the rank)
    const distinct = new Map<string, string>();
    for (let r = 0; r < seg.rows; r++) {
      const v = host[r];
      if (typeof v === 'string') { const k = coll.fold(v); if (!distinct.has(k)) distinct.set(k, v); }
      else if (v !== null && v !== undefined) return { ptrs: [], data: null };
    }
    // folded keys in binary (code point) order are the collation's order
    const sorted = [...distinct.keys()].sort(binaryCompare);
    const rank = new Map(sorted.map((s, i) => [s, i + 1]));
    const ptr = seg.core.alloc(Math.max(seg.rows, 1) * 4);
    const u32 = seg.core.u32;
    const base = ptr >>> 2;
    for (let r = 0; r < seg.rows; r++) {
      const v = host[r];
      u32[base + r] = typeof v === 'string' ? rank.get(coll.fold(v))! : 0;
    }
    return { ptrs: [ptr], data: { ptr, strings: [null, ...sorted.map((k) => distinct.get(k)!)] } };
  }).data;
}

export function mvaColumn(seg: Segment, a: number): MvaColumn | null {
  const host = seg.hostCols[a];
  if (!host) return null;
  return seg.derived<MvaColumn | null>(`mva:${a}`, a, () => {
    let total = 0;
    for (let r = 0; r < seg.rows; r++) {
      const v = host[r];
      if (!Array.isArray(v) || v.some((x) => typeof x !== 'bigint' || BigInt.asIntN(64, x) !== x)) return { ptrs: [], data: null };
      total += v.length;
    }
    const offsets = seg.core.alloc((seg.rows + 1) * 4);
    const values = seg.core.alloc(Math.max(total, 1) * 8);
    const u32 = seg.core.u32;
    const i64 = seg.core.i64;
    let at = 0;
    for (let r = 0; r < seg.rows; r++) {
      u32[(offsets >>> 2) + r] = at;
      for (const x of host[r] as bigint[]) i64[(values >>> 3) + at++] = x;
    }
    u32[(offsets >>> 2) + seg.rows] = at;
    return { ptrs: [offsets, values], data: { offsets, values } };
  }).data;
}
