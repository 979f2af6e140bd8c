/**
 * Builds a batch's pair postings (segment-pairs.ts says what they are) from its inverted words and
 * token stream. Each phase is a function of its own: a batch calls them once each, so V8 optimizes
 * their loops on the stack (OSR), and one function holding every phase was deoptimized on reaching
 * each later loop (12 deopts over a gcide import).
 */
import type { PostingsTable } from './postings-encoder.js';
import { scratchWords } from './inversion-scratch.js';
import { FIELD_END_BIT } from './segment-layout.js';
import { pairTerm, type PairSettings } from './segment-pairs.js';
import { keepShape } from '../../util/shape-keeper.js';
import { EVERY_ROW_WORD, LOW_WORD, MID_WORD, marksPair, pairGrid, scanGrid } from './pair-scan.js';

/** `auto` pairs words with at least this many hits per row of the batch (about the 25 commonest words of English text)... */
export const AUTO_HITS_PER_ROW = 0.25;
/**
 * ...and each of those with a word of at least this many (the next tier, about 30 more words), but
 * not two such words with each other: a phrase of a common word and one just under AUTO_HITS_PER_ROW
 * ("the state") checked positions on every row holding both (a sixth of all rows at 2M synthetic,
 * 29 ms of CPU, 91 ms at 10M), while their pair lists a twentieth of those. Two mid words are on few
 * rows together, so their phrase is cheap unpaired.
 */
export const AUTO_MID_HITS_PER_ROW = 0.1;
/**
 * ...and a word in (nearly) every row, at least this many hits a row ("webster" in the synthetic
 * corpus, "the" in English prose), also with the words of AUTO_LOW_HITS_PER_ROW: such a word filters
 * no rows, so a phrase of it and a word under the mid tier checked positions on every row of the
 * latter ("webster such", such at 0.066 a row: 20 ms of CPU at 2M synthetic, 62 ms at 10M). Only with
 * these few words: pairing the low tier with every frequent word cost a 2M load 22% more CPU.
 */
export const AUTO_EVERY_ROW_HITS_PER_ROW = 1;
export const AUTO_LOW_HITS_PER_ROW = 0.04;
/** ...in batches of at least this many rows (a few rows tell nothing of frequency). */
const AUTO_MIN_ROWS = 100;

/** Words that may stand first (1) / second (2) in a pair, per sorted term number. */
function eligible(table: PostingsTable, rows: number, p: PairSettings): Uint8Array | null {
  const { terms, posStart } = table;
  if (p.mode === 'auto' && rows < AUTO_MIN_ROWS) return null;
  const out = new Uint8Array(terms.length);
  const freq = new Set(p.freqWords);
  let any = false;
  for (let t = 0; t < terms.length; t++) {
    let e = 0;
    if (p.mode === 'auto') e = autoMark(posStart[t + 1] - posStart[t], rows);
    else if (p.mode === 'all') e = 3;
    else if (freq.has(terms[t])) e = 3;
    else if (p.mode === 'first_freq') e = 2;
    // marks, pairs and exact forms (`=word`) are never paired; `auto` reads the term only of its few
    // marked words (most of a batch's are rare: their hit count rules them out first)
    if (e === 0) continue;
    const head = terms[t].charCodeAt(0);
    if (head < 0x20 || head === 0x3d) continue;
    out[t] = e;
    if ((e & 3) === 3 && (e & MID_WORD) === 0) any = true;
  }
  return any ? out : null;
}

/** `auto`'s eligible() mark of a word with `hits` hits over `rows` rows: 3 frequent (EVERY_ROW_WORD too), MID_WORD | 3 mid, LOW_WORD too for the low tier, 0 none. */
function autoMark(hits: number, rows: number): number {
  if (hits >= rows * AUTO_EVERY_ROW_HITS_PER_ROW) return EVERY_ROW_WORD | 3;
  if (hits >= rows * AUTO_HITS_PER_ROW) return 3;
  if (hits >= rows * AUTO_MID_HITS_PER_ROW) return MID_WORD | 3;
  return hits >= rows * AUTO_LOW_HITS_PER_ROW ? LOW_WORD | MID_WORD | 3 : 0;
}

/**
 * The batch's token stream in row order (doc-inverter.ts): stream ids and hit words; `rank` is each
 * stream id's sorted term number (looked up only for the few tokens of eligible words).
 */
export interface RowTokens { tid: Uint32Array; rank: Uint32Array; hit: Uint32Array; rowFrom: Uint32Array; rows: number }

/** Growable u32 list. */
class U32List {
  a = new Uint32Array(1024);
  n = 0;
  push(v: number): void {
    if (this.n === this.a.length) {
      const b = new Uint32Array(this.a.length * 2);
      b.set(this.a);
      this.a = b;
    }
    this.a[this.n++] = v;
  }
}

// the seal's lists' map kept between seals (shape-keeper.ts)
keepShape(new U32List());

/** Above this many cells (eligible words squared) pairs are numbered through a Map, not a dense grid. */
const GRID_MAX_CELLS = 1 << 20;

/**
 * Numbers of the pairs found, by (left, right) sorted term number. The eligible words of a batch are
 * few with `auto` (tens: the commonest words), so a pair's number is a dense grid's cell over their
 * ranks among the eligible, no hashing per occurrence; the other modes may make every word eligible,
 * and fall back to a Map keyed by left * m + right.
 */
export class PairNumbers {
  readonly left = new U32List();
  readonly right = new U32List();
  /** Per pair number: the row and key of its last hit (one hit per occurrence). */
  readonly lastRow = new U32List();
  readonly lastKey = new U32List();
  /** Per pair number: its emissions, counted as the scans emit them (groupByPair's counts). */
  readonly emitted = new U32List();
  readonly grid: Int32Array | null;
  private readonly map: Map<number, number> | null;
  /** Per sorted term number: its slot among the eligible words (-1: none); `e` of them. */
  readonly slot: Int32Array;
  readonly e: number;

  constructor(ok: Uint8Array, private readonly m: number) {
    this.slot = new Int32Array(ok.length);
    const e = (this.e = slotsOf(ok, this.slot));
    this.grid = e * e <= GRID_MAX_CELLS ? new Int32Array(e * e).fill(-1) : null;
    this.map = this.grid ? null : new Map();
  }

  /** The number of pair (l, r), new (its last row unset) when first seen. */
  of(l: number, r: number): number {
    const cell = this.grid ? this.slot[l] * this.e + this.slot[r] : l * this.m + r;
    let x = this.grid ? this.grid[cell] : this.map!.get(cell) ?? -1;
    if (x < 0) {
      x = this.left.n;
      if (this.grid) this.grid[cell] = x;
      else this.map!.set(cell, x);
      this.left.push(l);
      this.right.push(r);
      this.lastRow.push(0xffffffff);
      this.lastKey.push(0);
      this.emitted.push(0);
    }
    return x;
  }
}

// kept as the seal makes them: a dense grid (the `auto` pairs' few eligible words), no Map
keepShape(new PairNumbers(new Uint8Array(1), 1));

/** Each eligible word's rank among the eligible (-1 for others) into `slot`; returns their count. */
function slotsOf(ok: Uint8Array, slot: Int32Array): number {
  let e = 0;
  for (let t = 0; t < ok.length; t++) slot[t] = ok[t] === 0 ? -1 : e++;
  return e;
}

/** Sorts a row's eligible tokens by key (positions out of order: fields handed over unsorted). */
export function sortByKey(keys: Uint32Array, ids: Uint32Array, n: number): void {
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => keys[x] - keys[y]);
  const k2 = order.map((i) => keys[i]);
  const i2 = order.map((i) => ids[i]);
  keys.set(k2);
  ids.set(i2);
}

/** The pairs of a batch's rows, one emission per occurrence, in row order. */
export interface Emissions { pairs: PairNumbers; pair: U32List; row: U32List; hit: U32List }

/**
 * Finds every occurrence of an eligible word right after one that may stand first (`ok`: eligible()).
 * Its loops are functions of their own, as the grouping's (doc-inverter.ts says why): this one has none.
 */
function findPairs(tokens: RowTokens, ok: Uint8Array, p: PairSettings): Emissions {
  const m = tokens.rank.length;
  const out: Emissions = { pairs: new PairNumbers(ok, m), pair: new U32List(), row: new U32List(), hit: new U32List() };
  const longest = longestRow(tokens.rowFrom, tokens.rows);
  // a row's eligible tokens: hit key (field and position, no end flag) and stream id (the grid's scan: slot)
  const keys = new Uint32Array(longest + 1);
  const ids = new Uint32Array(longest + 1);
  if (out.pairs.grid) {
    scanGrid(out, tokens, pairGrid(ok, out.pairs, tokens.rank, p.mode === 'first_freq' ? 2 : 3), keys, ids, sortByKey);
    return out;
  }
  // eligibility by stream id, and 1 where eligible at all: the scan counts with it rather than branch
  // on it (about a third of the tokens are of eligible words, in no pattern a CPU predicts)
  const okId = new Uint8Array(m);
  const any = new Uint8Array(m);
  eligibleIds(ok, tokens.rank, okId, any);
  scanRows(out, tokens.tid, tokens.hit, tokens.rowFrom, tokens.rows, keys, ids, okId, any, tokens.rank, p.mode === 'first_freq' ? 2 : 3);
  return out;
}

/** okId[id]: the eligibility of stream id `id`'s term; any[id]: 1 where it is eligible at all. */
function eligibleIds(ok: Uint8Array, termOf: Uint32Array, okId: Uint8Array, any: Uint8Array): void {
  for (let id = 0; id < okId.length; id++) {
    okId[id] = ok[termOf[id]];
    any[id] = okId[id] === 0 ? 0 : 1;
  }
}

/** The most tokens of a row. */
function longestRow(rowFrom: Uint32Array, rows: number): number {
  let longest = 0;
  for (let r = 0; r < rows; r++) longest = Math.max(longest, rowFrom[r + 1] - rowFrom[r]);
  return longest;
}

/** Each row's pairs: every token is written at n, only an eligible one moves n on. */
function scanRows(out: Emissions, tid: Uint32Array, hit: Uint32Array, rowFrom: Uint32Array, rows: number, keys: Uint32Array, ids: Uint32Array,
  okId: Uint8Array, any: Uint8Array, termOf: Uint32Array, secondOk: number): void {
  for (let r = 0; r < rows; r++) {
    let n = 0;
    for (let i = rowFrom[r]; i < rowFrom[r + 1]; i++) {
      const id = tid[i];
      keys[n] = (hit[i] & ~FIELD_END_BIT) >>> 0;
      ids[n] = id;
      n += any[id];
    }
    rowPairs(out, r, keys, ids, n, okId, termOf, secondOk);
  }
}

/** One row's pairs from its `n` eligible tokens (keys, stream ids). */
function rowPairs(out: Emissions, r: number, keys: Uint32Array, ids: Uint32Array, n: number, okId: Uint8Array, termOf: Uint32Array,
  secondOk: number): void {
  let sorted = true;
  for (let i = 1; i < n && sorted; i++) sorted = keys[i] >= keys[i - 1];
  if (!sorted) sortByKey(keys.subarray(0, n), ids.subarray(0, n), n);
  const { pairs } = out;
  for (let i = 0; i < n; i++) {
    if ((okId[ids[i]] & 1) === 0) continue;
    const want = keys[i] + 1;
    for (let j = i + 1; j < n && keys[j] <= want; j++) {
      // two mid words (MID_WORD) are never paired with each other, a low one only with an every-row word
      if (keys[j] !== want || (okId[ids[j]] & 3) < secondOk || !marksPair(okId[ids[i]], okId[ids[j]])) continue;
      const x = pairs.of(termOf[ids[i]], termOf[ids[j]]);
      // one hit per occurrence (two tokens sharing a position make one occurrence each pair)
      if (pairs.lastRow.a[x] === r && pairs.lastKey.a[x] === keys[i]) continue;
      pairs.lastRow.a[x] = r;
      pairs.lastKey.a[x] = keys[i];
      out.pair.push(x);
      out.row.push(r);
      out.hit.push(keys[i]);
      pairs.emitted.a[x]++;
    }
  }
}

/** The pairs' hits grouped by pair, pairs in `rank` order: a counting sort of the emissions, so rows (and a row's hits) stay ascending. */
function groupByPair(e: Emissions, rank: Uint32Array): { start: Uint32Array; hitRow: Uint32Array; pairHits: Uint32Array } {
  const np = rank.length;
  const hits = e.pair.n;
  const start = scratchWords('pairStart', np + 1).fill(0);
  countByPair(start, rank, e.pairs.emitted.a);
  prefixSums(start, np);
  const hitRow = scratchWords('pairHitRow', hits);
  const pairHits = scratchWords('pairHits', hits);
  placeByPair(start.slice(0, np), rank, e.pair.a, e.row.a, e.hit.a, hits, hitRow, pairHits);
  return { start, hitRow, pairHits };
}

/** start[rank[x] + 1]: each pair's emissions (counted by the scan, not by a pass over the emissions). */
function countByPair(start: Uint32Array, rank: Uint32Array, emitted: Uint32Array): void {
  for (let x = 0; x < rank.length; x++) start[rank[x] + 1] = emitted[x];
}

/** a[t + 1] += a[t] for t < m. */
function prefixSums(a: Uint32Array, m: number): void {
  for (let t = 0; t < m; t++) a[t + 1] += a[t];
}

/** Each emission's row and hit at its pair's next slot (`fill`: the pairs' starts, moved on). */
function placeByPair(fill: Uint32Array, rank: Uint32Array, pair: Uint32Array, row: Uint32Array, hit: Uint32Array, hits: number,
  hitRow: Uint32Array, pairHits: Uint32Array): void {
  for (let i = 0; i < hits; i++) {
    const at = fill[rank[pair[i]]]++;
    hitRow[at] = row[i];
    pairHits[at] = hit[i];
  }
}

/** `table` with the grouped pairs (terms `pairNames`, sorted) in front. */
function prependPairs(table: PostingsTable, pairNames: string[], g: ReturnType<typeof groupByPair>): PostingsTable {
  const { start, hitRow, pairHits } = g;
  const np = pairNames.length;
  const m = table.terms.length;
  const hits = hitRow.length;
  const k = table.rowStart[m];
  const h = table.posStart[m];
  // the inversion's scratch (every word written below): fresh arrays were three more mappings of a
  // batch's size, page-faulted in each batch
  const rows = scratchWords('pairRows', hits + k);
  const tfs = scratchWords('pairTfs', hits + k);
  const rowStart = scratchWords('pairRowStart', np + m + 1);
  const n = pairRows(start, hitRow, np, rowStart, rows, tfs);
  rows.set(table.rows.subarray(0, k), n);
  tfs.set(table.tfs.subarray(0, k), n);
  const positions = scratchWords('pairPositions', hits + h);
  positions.set(pairHits);
  positions.set(table.positions.subarray(0, h), hits);
  const posStart = scratchWords('pairPosStart', np + m + 1);
  posStart.set(start);
  shiftStarts(rowStart, table.rowStart, np, m, n);
  shiftStarts(posStart, table.posStart, np, m, hits);
  // one copy by the engine (both arrays are packed, made by push: so is the result), where a push a
  // term grew the pair names' array to the batch's 50-60k terms
  const terms = pairNames.concat(table.terms);
  return { terms, rowStart, rows: rows.subarray(0, n + k), tfs: tfs.subarray(0, n + k), posStart, positions, termsOwned: table.termsOwned };
}

/** Rows and tfs per pair from its hits (rowStart's first np words); returns the rows' count. */
function pairRows(start: Uint32Array, hitRow: Uint32Array, np: number, rowStart: Uint32Array, rows: Uint32Array, tfs: Uint32Array): number {
  let n = 0;
  for (let x = 0; x < np; x++) {
    rowStart[x] = n;
    for (let i = start[x]; i < start[x + 1]; i++) {
      if (i > start[x] && hitRow[i] === hitRow[i - 1]) tfs[n - 1]++;
      else { rows[n] = hitRow[i]; tfs[n++] = 1; }
    }
  }
  return n;
}

/** out[np + t] = from[t] + by for t <= m: the words' starts after the pairs'. */
function shiftStarts(out: Uint32Array, from: Uint32Array, np: number, m: number, by: number): void {
  for (let t = 0; t <= m; t++) out[np + t] = from[t] + by;
}

/**
 * `table` with the batch's pair terms in front (they sort before every word: PAIR_HEAD is below
 * any character a word holds), or `table` itself when no pair qualifies.
 */
export function withPairs(table: PostingsTable, tokens: RowTokens, p: PairSettings): PostingsTable {
  if (p.mode === 'none' || table.terms.length === 0) return table;
  const ok = eligible(table, tokens.rows, p);
  if (!ok) return table;
  const found = findPairs(tokens, ok, p);
  const { left, right } = found.pairs;
  const np = left.n;
  if (np === 0) return table;
  const names = namesOfPairs(table.terms, left.a, right.a, np);
  const order = names.map((_, x) => x).sort((x, y) => (names[x] < names[y] ? -1 : names[x] > names[y] ? 1 : 0));
  if (names[order[np - 1]] >= table.terms[0]) return table; // a word below PAIR_HEAD: cannot happen with real tokenizers
  const rank = new Uint32Array(np);
  const sorted: string[] = [];
  rankPairs(order, names, rank, sorted);
  return prependPairs(table, sorted, groupByPair(found, rank));
}

/** The names of the np pairs (left[x], right[x]): a packed array (pushed, not a holey new Array(np)). */
function namesOfPairs(terms: readonly string[], left: Uint32Array, right: Uint32Array, np: number): string[] {
  const names: string[] = [];
  for (let x = 0; x < np; x++) names.push(pairTerm(terms[left[x]], terms[right[x]]));
  return names;
}

/** rank[x]: pair x's place in `order`; `sorted`: the names in that order. */
function rankPairs(order: number[], names: string[], rank: Uint32Array, sorted: string[]): void {
  for (let i = 0; i < order.length; i++) {
    rank[order[i]] = i;
    sorted.push(names[order[i]]);
  }
}
