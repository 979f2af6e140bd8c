/**
 * Pair terms in merges (segment-pairs.ts says what they are). A part may lack a pair term another part
 * holds: its batch found no occurrence, or one of the words fell short of the frequency that pairs it
 * there. Dropping the pair from the merged segment (it would be short of that part's occurrences)
 * lost most pairs of big segments, whose parts are many; instead the lacking part's occurrences are
 * built from its two words' positions during the merge, so the merged segment holds every pair any
 * part held, complete.
 */
import { FlatPostings } from './flat-postings.js';
import type { MergePart } from './segment-merger.js';
import { FIELD_END_BIT } from './segment-layout.js';
import { isPairTerm, PAIR_HEAD } from './segment-pairs.js';
import { indexOfSorted } from './sorted-terms.js';

/**
 * Per pair term of the merged dictionary `all` (pair terms sort first): the parts that lack it, in
 * part order; pairs every part holds are absent. `to[s]` maps part s's term numbers into `all`.
 */
export function lackingParts(all: readonly string[], to: Int32Array[]): Map<number, number[]> {
  let pairs = 0;
  while (pairs < all.length && isPairTerm(all[pairs])) pairs++;
  const out = new Map<number, number[]>();
  if (pairs === 0) return out;
  const held = new Uint8Array(pairs);
  to.forEach((map, s) => {
    held.fill(0);
    for (let t = 0; t < map.length && map[t] < pairs; t++) held[map[t]] = 1;
    for (let m = 0; m < pairs; m++) {
      if (held[m]) continue;
      const parts = out.get(m);
      if (parts) parts.push(s);
      else out.set(m, [s]);
    }
  });
  return out;
}

/** Builds a part's missing pair postings; holds the two words' decoded postings (one merge's scratch). */
export class PairFiller {
  private readonly first = new FlatPostings();
  private readonly second = new FlatPostings();

  /**
   * Appends to `out` the rows of `seg` where pair term `pair` occurs, rows renumbered by `map` (deleted
   * rows dropped), one hit per occurrence at the first word's position, as a batch lists it
   * (pair-builder.ts). `u32` is seg.words().
   */
  append(out: FlatPostings, seg: MergePart, u32: Uint32Array, pair: string, map: Int32Array): void {
    const cut = pair.indexOf(PAIR_HEAD, 1);
    const ta = indexOfSorted(seg.terms, pair.slice(1, cut));
    const tb = indexOfSorted(seg.terms, pair.slice(cut + 1));
    if (ta < 0 || tb < 0) return; // a word the part lacks: no occurrence there
    const a = this.decode(this.first, seg, u32, ta, map);
    const b = this.decode(this.second, seg, u32, tb, map);
    out.reserve(Math.min(a.nRows, b.nRows), a.nHits);
    let i = 0;
    let j = 0;
    let ha = 0; // first hit of a's row i
    let hb = 0;
    while (i < a.nRows && j < b.nRows) {
      const ra = a.rows[i];
      const rb = b.rows[j];
      if (ra < rb) { ha += a.tfs[i++]; continue; }
      if (rb < ra) { hb += b.tfs[j++]; continue; }
      const endA = ha + a.tfs[i];
      const endB = hb + b.tfs[j];
      let tf = 0;
      let k = hb;
      let last = -1;
      for (let h = ha; h < endA; h++) {
        const key = (a.hits[h] & ~FIELD_END_BIT) >>> 0;
        if (key === last) continue;
        while (k < endB && ((b.hits[k] & ~FIELD_END_BIT) >>> 0) <= key) k++;
        if (k < endB && ((b.hits[k] & ~FIELD_END_BIT) >>> 0) === key + 1) {
          out.hits[out.nHits + tf++] = key;
          last = key;
        }
      }
      if (tf > 0) {
        out.rows[out.nRows] = ra;
        out.tfs[out.nRows++] = tf;
        out.nHits += tf;
      }
      ha = endA;
      hb = endB;
      i++;
      j++;
    }
  }

  /** Term `t` of `seg` decoded into `into`. */
  private decode(into: FlatPostings, seg: MergePart, u32: Uint32Array, t: number, map: Int32Array): FlatPostings {
    into.reset(seg.docFreq(t), seg.hitCount(t));
    into.append(seg, u32, t, map);
    return into;
  }
}
