/**
 * Pair terms in merges (segment-pairs.ts says what they are). A part may lack a pair term another part
 * holds: its batch found no occurrence, or one of the words fell short of the frequency that pairs it
 * there. Dropping the pair from the merged segment (it would be short of that part's occurrences)
 * lost most pairs of big segments, whose parts are many; instead, when both words are frequent in the
 * merged segment, the lacking part's occurrences are built from its two words' positions during the
 * merge, so the merged segment keeps the pair, complete.
 */
import { FlatPostings } from './flat-postings.js';
import type { MergePart } from './segment-merger.js';
import { FIELD_END_BIT } from './segment-layout.js';
import { AUTO_HITS_PER_ROW, AUTO_MID_HITS_PER_ROW } from './pair-builder.js';
import { isPairTerm, PAIR_HEAD } from './segment-pairs.js';
import { indexOfSorted } from './sorted-terms.js';

/**
 * A pair some parts lack is kept (built in those parts) when one of its words has at least this many
 * hits per row of the merged segment and the other KEEP_MID_HITS_PER_ROW: half the shares that pair
 * words in a batch (pair-builder.ts), so words near those shares, paired in some batches and not in others, keep their pairs. Other pairs a
 * part lacks are dropped, as building them would cost the merge their words' positions in every part
 * for pairs few phrases meet (a batch's local words: a dictionary's entries of one letter).
 */
const KEEP_HITS_PER_ROW = AUTO_HITS_PER_ROW / 2;
/** The other word of a kept pair may be as rare as half the share that pairs it with a frequent word in a batch. */
const KEEP_MID_HITS_PER_ROW = AUTO_MID_HITS_PER_ROW / 2;

/**
 * The merged dictionary's pair terms (they sort first in `all`): which to drop and, for each kept pair
 * some part lacks, those parts in part order. `to[s]` maps part s's term numbers into `all`; returns
 * `all` and `to` without the dropped pairs (their map entries -1) and the lacking parts by kept term number.
 */
export function mergePairs(all: readonly string[], to: Int32Array[], segments: readonly MergePart[], rows: number):
  { all: readonly string[]; to: Int32Array[]; lacking: Map<number, number[]> } {
  let pairs = 0;
  while (pairs < all.length && isPairTerm(all[pairs])) pairs++;
  const lacking = new Map<number, number[]>();
  if (pairs === 0) return { all, to, lacking };
  const held = new Uint8Array(pairs);
  const missing = new Map<number, number[]>();
  to.forEach((map, s) => {
    held.fill(0);
    for (let t = 0; t < map.length && map[t] < pairs; t++) held[map[t]] = 1;
    for (let m = 0; m < pairs; m++) {
      if (held[m]) continue;
      const parts = missing.get(m);
      if (parts) parts.push(s);
      else missing.set(m, [s]);
    }
  });
  if (missing.size === 0) return { all, to, lacking };
  // the words' hits in the merged segment
  const hits = new Float64Array(all.length);
  to.forEach((map, s) => { for (let t = 0; t < map.length; t++) if (map[t] >= pairs) hits[map[t]] += segments[s].hitCount(t); });
  const share = (w: string) => {
    const m = indexOfSorted(all, w);
    return m >= 0 ? hits[m] / rows : 0;
  };
  // one word as frequent as a batch's frequent words (halved), the other as a mid word (halved)
  const keep = (a: number, b: number) => Math.max(a, b) >= KEEP_HITS_PER_ROW && Math.min(a, b) >= KEEP_MID_HITS_PER_ROW;
  const newIndex = new Int32Array(all.length);
  const kept: string[] = [];
  for (let m = 0; m < all.length; m++) {
    const parts = m < pairs ? missing.get(m) : undefined;
    if (parts) {
      const cut = all[m].indexOf(PAIR_HEAD, 1);
      if (!keep(share(all[m].slice(1, cut)), share(all[m].slice(cut + 1)))) { newIndex[m] = -1; continue; }
      lacking.set(kept.length, parts);
    }
    newIndex[m] = kept.length;
    kept.push(all[m]);
  }
  if (kept.length === all.length) return { all, to, lacking };
  return { all: kept, to: to.map((map) => map.map((m) => newIndex[m])), lacking };
}

/** Decoded hits PairFiller keeps across one merge's pairs (4 bytes each, plus a row and tf per row). */
const CACHE_HITS = 1 << 22;

/**
 * Builds a part's missing pair postings. A frequent word stands in many pairs (each mid word's with
 * it, both ways round), and a part lacking several of them decoded it again for each: 1.6x the merge
 * CPU of gcide 100k once mid words were paired. So each part's decoded words are kept for the merge's
 * later pairs, up to CACHE_HITS hits (then dropped all at once: pairs come sorted by first word).
 */
export class PairFiller {
  private readonly cache = new Map<MergePart, Map<number, FlatPostings>>();
  private cachedHits = 0;

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
    const a = this.decode(seg, u32, ta, map);
    const b = this.decode(seg, u32, tb, map);
    out.reserve(Math.min(a.nRows, b.nRows), a.nHits); // the most it can take: a row, a hit of the first word's each
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

  /** Term `t` of `seg` decoded, rows renumbered by `map` (one map per part in a merge), kept for later pairs. */
  private decode(seg: MergePart, u32: Uint32Array, t: number, map: Int32Array): FlatPostings {
    let words = this.cache.get(seg);
    const kept = words?.get(t);
    if (kept) return kept;
    const into = new FlatPostings();
    into.reset(seg.docFreq(t), seg.hitCount(t));
    into.append(seg, u32, t, map);
    if (this.cachedHits + into.nHits > CACHE_HITS) {
      this.cache.clear();
      this.cachedHits = 0;
      words = undefined;
    }
    if (!words) this.cache.set(seg, (words = new Map()));
    words.set(t, into);
    this.cachedHits += into.nHits;
    return into;
  }
}
