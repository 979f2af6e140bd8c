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
import { AUTO_EVERY_ROW_HITS_PER_ROW, AUTO_HITS_PER_ROW, AUTO_LOW_HITS_PER_ROW, AUTO_MID_HITS_PER_ROW } from './pair-builder.js';
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
/** A pair of an every-row word (halved) keeps its other word down to half the low tier's share. */
const KEEP_EVERY_ROW_HITS_PER_ROW = AUTO_EVERY_ROW_HITS_PER_ROW / 2;
const KEEP_LOW_HITS_PER_ROW = AUTO_LOW_HITS_PER_ROW / 2;

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
  // (or an every-row word with a low-tier one, likewise halved)
  const keep = (a: number, b: number) => (Math.max(a, b) >= KEEP_HITS_PER_ROW && Math.min(a, b) >= KEEP_MID_HITS_PER_ROW)
    || (Math.max(a, b) >= KEEP_EVERY_ROW_HITS_PER_ROW && Math.min(a, b) >= KEEP_LOW_HITS_PER_ROW);
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

/** Words a part's missing pairs may hold (an entry packs position * WORDS + word into a double's 53 bits). */
export const WORDS = 1 << 20;

/** One pair's occurrences built in a part: rows (merged numbering), a tf per row, a hit per occurrence. */
interface BuiltPair {
  rows: number[];
  tfs: number[];
  hits: number[];
}

/**
 * Builds parts' missing pair postings. Each part's are built at once, the first time one is asked
 * for: the hits of every word in a pair that part lacks are decoded once, laid out by row and
 * position, and one scan over them finds every such pair's occurrences (a word at position p, the
 * other at p + 1, in one field). Intersecting the two words of each pair instead (their postings
 * kept decoded for the part's later pairs) read a frequent word's hits again for every pair it stands
 * in: the fills were half of a 100k gcide load's merge CPU. A merge of ten 1000-row gcide segments:
 * 168-176 -> 112-120 ms CPU (bench/engine/merge-ab.bench.ts), the merged segment byte for byte the same.
 */
export class PairFiller {
  /** Per part: its missing pairs' postings by merged term number, once built. */
  private readonly built: (Map<number, BuiltPair> | undefined)[];
  /** Per part: the merged term numbers of the pairs it lacks. */
  private readonly missing: number[][];
  /** Decoded words of the part being built (an arena appended to, emptied per part). */
  private readonly decoded = new FlatPostings();

  /**
   * `terms`: the merged dictionary; `lacking`: for a kept pair term (its number in `terms`) the parts
   * that lack it (mergePairs); `maps[s]`: part s's rows in the merged numbering, -1 for deleted ones.
   */
  constructor(private readonly parts: readonly MergePart[], private readonly terms: readonly string[],
    lacking: Map<number, number[]>, private readonly maps: readonly Int32Array[]) {
    this.built = parts.map(() => undefined);
    this.missing = parts.map(() => []);
    for (const [m, lackers] of lacking) for (const s of lackers) this.missing[s].push(m);
  }

  /**
   * Appends to `out` the rows of part `s` where pair term `m` occurs, one hit per occurrence at the
   * first word's position, as a batch lists it (pair-builder.ts).
   */
  append(out: FlatPostings, s: number, m: number): void {
    const pair = (this.built[s] ??= this.build(s)).get(m);
    if (!pair) return;
    out.reserve(pair.rows.length, pair.hits.length);
    for (let i = 0; i < pair.rows.length; i++) {
      out.rows[out.nRows] = pair.rows[i];
      out.tfs[out.nRows++] = pair.tfs[i];
    }
    for (const h of pair.hits) out.hits[out.nHits++] = h;
  }

  /** Every pair part `s` lacks, built in one scan of its words' hits. */
  private build(s: number): Map<number, BuiltPair> {
    const seg = this.parts[s];
    const u32 = seg.words();
    const out = new Map<number, BuiltPair>();
    // the part's words standing in its missing pairs, numbered 0.., and the pairs by their two numbers
    const wordOf = new Map<number, number>(); // the part's term number -> word number
    const termOf: number[] = [];
    const pairOf = new Map<number, number>(); // first word * WORDS + second -> merged term number
    const word = (w: string) => {
      const t = indexOfSorted(seg.terms, w);
      if (t < 0) return -1;
      let k = wordOf.get(t);
      if (k === undefined) {
        if (termOf.length === WORDS) return -1; // never met: a part's frequent and mid words are a few hundred
        wordOf.set(t, (k = termOf.length));
        termOf.push(t);
      }
      return k;
    };
    for (const m of this.missing[s]) {
      const pair = this.terms[m];
      const cut = pair.indexOf(PAIR_HEAD, 1);
      const a = word(pair.slice(1, cut));
      const b = a < 0 ? -1 : word(pair.slice(cut + 1));
      if (b >= 0) pairOf.set(a * WORDS + b, m); // else a word the part lacks: no occurrence there
    }
    if (pairOf.size === 0) return out;
    const pairs = pairTable(pairOf, termOf.length);
    // the words' hits, decoded (rows renumbered, deleted rows dropped), then counted by row
    const d = this.decoded;
    d.nRows = 0;
    d.nHits = 0;
    const rowFrom = new Uint32Array(termOf.length + 1);
    for (let k = 0; k < termOf.length; k++) {
      d.append(seg, u32, termOf[k], this.maps[s]);
      rowFrom[k + 1] = d.nRows;
    }
    if (d.nRows === 0) return out;
    let lo = d.rows[0];
    let hi = lo;
    for (let i = 0; i < d.nRows; i++) { const r = d.rows[i]; if (r < lo) lo = r; if (r > hi) hi = r; }
    const at = new Uint32Array(hi - lo + 2); // each row's first entry, by counting sort
    for (let i = 0; i < d.nRows; i++) at[d.rows[i] - lo + 1] += d.tfs[i];
    for (let r = 1; r < at.length; r++) at[r] += at[r - 1];
    // an entry: position (field and place, no field-end mark) * WORDS + word: sorted, a row's positions in order
    const entries = new Float64Array(d.nHits);
    const fill = at.slice(0, at.length - 1);
    for (let k = 0, h = 0; k < termOf.length; k++) {
      for (let i = rowFrom[k]; i < rowFrom[k + 1]; i++) {
        let e = fill[d.rows[i] - lo];
        for (const end = h + d.tfs[i]; h < end; h++) entries[e++] = ((d.hits[h] & ~FIELD_END_BIT) >>> 0) * WORDS + k;
        fill[d.rows[i] - lo] = e;
      }
    }
    for (let r = 0; r + 1 < at.length; r++) {
      const from = at[r];
      const to = at[r + 1];
      if (to - from < 2) continue;
      sortRange(entries, from, to);
      this.scanRow(entries, from, to, r + lo, pairs, out);
    }
    return out;
  }

  /**
   * Records each missing pair standing in a row (its entries, sorted, row[from, to)): a word at p, the
   * other at p + 1. An entry's word is the entry less its position * WORDS (a double's % is a call of
   * fmod), its pair found in `pairs` by the two word numbers.
   */
  private scanRow(row: Float64Array, from: number, to: number, rowId: number, pairs: PairTable, out: Map<number, BuiltPair>): void {
    // [g, n): the words at position p; [n, e): those at p + 1
    let g = from;
    while (g < to) {
      const p = Math.floor(row[g] / WORDS);
      const atP = p * WORDS;
      const atNext = atP + WORDS;
      let n = g + 1;
      while (n < to && row[n] < atNext) n++;
      let e = n;
      while (e < to && row[e] < atNext + WORDS) e++;
      for (let x = g; x < n; x++) {
        const a = row[x] - atP;
        for (let y = n; y < e; y++) {
          const b = row[y] - atNext;
          const m = pairAt(pairs, a, b);
          if (m < 0) continue;
          let pair = out.get(m);
          if (!pair) out.set(m, (pair = { rows: [], tfs: [], hits: [] }));
          const last = pair.rows.length - 1;
          if (last >= 0 && pair.rows[last] === rowId) {
            if (pair.hits[pair.hits.length - 1] === p) continue; // a word twice at one position: one occurrence
            pair.tfs[last]++;
          }
          else { pair.rows.push(rowId); pair.tfs.push(1); }
          pair.hits.push(p);
        }
      }
      g = n;
    }
  }
}

/**
 * A part's missing pairs by their two word numbers: a words x words table of merged term numbers (-1:
 * none), looked up by index where the map took a hash of a double per pair of neighbouring words; the
 * map alone when the words are too many for a table.
 */
export interface PairTable {
  table: Int32Array | null;
  words: number;
  /** First word * WORDS + second -> merged term number. */
  map: Map<number, number>;
}

/** Word pairs in a table of at most this many entries (a part's frequent and mid words are a few hundred: 4 MiB at 1024 words). */
const MAX_TABLE_ENTRIES = 1 << 20;

/** The merged term number of the pair of words `a`, `b` (numbers of the part's words), or -1. */
export function pairAt(pairs: PairTable, a: number, b: number): number {
  return pairs.table ? pairs.table[a * pairs.words + b] : pairs.map.get(a * WORDS + b) ?? -1;
}

/** The pairs of `pairOf` (first word * WORDS + second -> merged term number) over `words` words, as a table when it fits in `maxEntries`. */
export function pairTable(pairOf: Map<number, number>, words: number, maxEntries = MAX_TABLE_ENTRIES): PairTable {
  if (words * words > maxEntries) return { table: null, words, map: pairOf };
  const table = new Int32Array(words * words).fill(-1);
  for (const [key, m] of pairOf) table[Math.floor(key / WORDS) * words + (key % WORDS)] = m;
  return { table, words, map: pairOf };
}

/** Sorts a[from, to) ascending: insertion sort for a row's few entries (a subarray and its sort() per row cost more, and garbage). */
function sortRange(a: Float64Array, from: number, to: number): void {
  if (to - from > 48) {
    a.subarray(from, to).sort();
    return;
  }
  for (let i = from + 1; i < to; i++) {
    const v = a[i];
    let j = i - 1;
    while (j >= from && a[j] > v) { a[j + 1] = a[j]; j--; }
    a[j + 1] = v;
  }
}
