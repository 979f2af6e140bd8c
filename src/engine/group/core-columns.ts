/**
 * Host columns as the core's grouping reads them, derived once per segment and kept with it until the
 * attribute changes (Segment.derived): an MVA column as row offsets and i64 values (string columns:
 * index/segment/string-ranks.ts). Null when the column holds a value of another kind: the host then folds.
 */
import type { Segment } from '../../index/segment/segment.js';

export interface MvaColumn { offsets: number; values: number }

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
