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

/** A word's postings in one part, decoded into PairFiller's arena: rows [from, from + n) of its arrays. */
interface DecodedWord {
  from: number;
  n: number;
}

/**
 * The first index in [from, end) of sorted `rows` whose row is >= `target` (end if none): steps of
 * 1, 2, 4, ... then a binary search in the last step (Bentley and Yao's galloping search).
 */
export function gallop(rows: Uint32Array, from: number, end: number, target: number): number {
  let lo = from;
  let hi = from;
  let step = 1;
  while (hi < end && rows[hi] < target) {
    lo = hi + 1;
    hi += step;
    step <<= 1;
  }
  if (hi > end) hi = end;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (rows[mid] < target) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Decoded hits PairFiller keeps across one merge's pairs (4 bytes each, plus a row, a tf and a hit start per row). */
const CACHE_HITS = 1 << 22;

/**
 * Builds a part's missing pair postings. A frequent word stands in many pairs (each mid word's with
 * it, both ways round), and a part lacking several of them decoded it again for each: 1.6x the merge
 * CPU of gcide 100k once mid words were paired. So each part's decoded words are kept for the merge's
 * later pairs, up to CACHE_HITS hits (then dropped all at once: pairs come sorted by first word).
 * They are kept in one arena (a FlatPostings appended to), not in typed arrays of their own (each an
 * allocation off the V8 heap), and the two words' rows are intersected by galloping: a merge of ten
 * 1000-row gcide segments 129 -> 115 ms CPU (bench/merge-ab.bench.ts).
 */
export class PairFiller {
  private readonly cache = new Map<MergePart, Map<number, DecodedWord>>();
  /** The decoded words, one after another; its nRows and nHits are the arena's use. */
  private readonly arena = new FlatPostings();
  /** Where each arena row's hits start in arena.hits. */
  private hitStart = new Uint32Array(0);

  /** `cacheHits`: the arena's hits before it is emptied (tests make it tiny). */
  constructor(private readonly cacheHits = CACHE_HITS) {}

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
    // the arena is emptied before the pair's words are decoded, never between them (a's rows stay valid)
    let words = this.cache.get(seg);
    const need = (t: number) => (words?.has(t) ? 0 : seg.hitCount(t));
    if (this.arena.nHits + need(ta) + need(tb) > this.cacheHits) {
      this.cache.clear();
      this.arena.nRows = 0;
      this.arena.nHits = 0;
      words = undefined;
    }
    if (!words) this.cache.set(seg, (words = new Map()));
    const a = this.decode(words, seg, u32, ta, map);
    const b = this.decode(words, seg, u32, tb, map);
    out.reserve(Math.min(a.n, b.n), seg.hitCount(ta)); // the most it can take: a row, a hit of the first word's each
    const { rows, tfs, hits } = this.arena;
    const starts = this.hitStart;
    const aEnd = a.from + a.n;
    const bEnd = b.from + b.n;
    let i = a.from;
    let j = b.from;
    while (i < aEnd && j < bEnd) {
      const ra = rows[i];
      const rb = rows[j];
      // gallop, not step: a pair's words are mostly a frequent one and a rarer one
      if (ra < rb) { i = gallop(rows, i + 1, aEnd, rb); continue; }
      if (rb < ra) { j = gallop(rows, j + 1, bEnd, ra); continue; }
      const ha = starts[i];
      const endA = ha + tfs[i];
      const endB = starts[j] + tfs[j];
      let tf = 0;
      let k = starts[j];
      let last = -1;
      for (let h = ha; h < endA; h++) {
        const key = (hits[h] & ~FIELD_END_BIT) >>> 0;
        if (key === last) continue;
        while (k < endB && ((hits[k] & ~FIELD_END_BIT) >>> 0) <= key) k++;
        if (k < endB && ((hits[k] & ~FIELD_END_BIT) >>> 0) === key + 1) {
          out.hits[out.nHits + tf++] = key;
          last = key;
        }
      }
      if (tf > 0) {
        out.rows[out.nRows] = ra;
        out.tfs[out.nRows++] = tf;
        out.nHits += tf;
      }
      i++;
      j++;
    }
  }

  /** Term `t` of `seg` decoded into the arena, rows renumbered by `map` (one map per part in a merge), kept for later pairs. */
  private decode(words: Map<number, DecodedWord>, seg: MergePart, u32: Uint32Array, t: number, map: Int32Array): DecodedWord {
    const kept = words.get(t);
    if (kept) return kept;
    const arena = this.arena;
    const from = arena.nRows;
    const h0 = arena.nHits;
    arena.append(seg, u32, t, map);
    if (this.hitStart.length < arena.rows.length) {
      const grown = new Uint32Array(arena.rows.length);
      grown.set(this.hitStart.subarray(0, from));
      this.hitStart = grown;
    }
    for (let r = from, h = h0; r < arena.nRows; r++) { this.hitStart[r] = h; h += arena.tfs[r]; }
    const word = { from, n: arena.nRows - from };
    words.set(t, word);
    return word;
  }
}
