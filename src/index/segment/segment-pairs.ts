/**
 * Pair postings (Manticore's bigram index, built automatically): next to its words a segment keeps
 * terms `\u0001a\u0001b` listing the rows where word b stands right after word a in the same field,
 * for pairs of words frequent in the segment. A phrase holding "a b" is evaluated over the pair's
 * rows only (the core's phrase guide, assembly/plan/node.ts N_GUIDE), so a phrase of two common
 * words reads one short list instead of checking positions on every row holding both. Answers do
 * not change: a pair only narrows the rows the phrase's own position check runs on.
 *
 * Completeness is what makes that safe: a segment holding pair term P has it on every row where
 * the pair occurs. A batch builds a pair on every occurrence once both words qualify (pairsWanted);
 * a merge keeps P only when every part holds it (mergePairFilter), so a part that did not build it
 * never leaves the merged list short. A hit per occurrence, at the first word's position: for a phrase
 * of just the two words without field limits the pair's rows are its rows and its hits give the
 * fields it occurs in, so the core counts such a phrase without reading the words' positions.
 */
import type { PostingsTable } from './postings-encoder.js';
import { FIELD_END_BIT } from './segment-layout.js';

export const PAIR_HEAD = '\u0001';

/** The pair term of word `a` followed by word `b`. */
export function pairTerm(a: string, b: string): string {
  return `${PAIR_HEAD}${a}${PAIR_HEAD}${b}`;
}

export function isPairTerm(term: string): boolean {
  return term.charCodeAt(0) === 1;
}

/**
 * Which adjacent words get a pair: `auto` (no bigram_index given) pairs words whose hits in the batch
 * reach AUTO_HITS_PER_ROW a row; Manticore's bigram_index modes pair by `freqWords` (bigram_freq_words):
 * `all` every pair, `first_freq` pairs whose first word is listed, `both_freq` both; `none` given
 * explicitly turns pairs off.
 */
export interface PairSettings {
  mode: 'auto' | 'none' | 'all' | 'first_freq' | 'both_freq';
  freqWords?: readonly string[];
}

export const AUTO_PAIRS: PairSettings = { mode: 'auto' };
/** `auto` pairs words with at least this many hits per row of the batch (about the 25 commonest words of English text)... */
const AUTO_HITS_PER_ROW = 0.25;
/** ...in batches of at least this many rows (a few rows tell nothing of frequency). */
const AUTO_MIN_ROWS = 100;

/** The pair settings of a table's `bigram_index` / `bigram_freq_words`. */
export function pairSettings(settings: Record<string, string> | undefined): PairSettings {
  const mode = (settings?.bigram_index ?? '').toLowerCase();
  const freqWords = (settings?.bigram_freq_words ?? '').split(/[\s,]+/).filter(Boolean).map((w) => w.toLowerCase());
  if (mode === 'all' || mode === 'first_freq' || mode === 'both_freq') return { mode, freqWords };
  if (mode === 'none') return { mode };
  return AUTO_PAIRS;
}

/** Words that may stand first (1) / second (2) in a pair, per sorted term number. */
function eligible(table: PostingsTable, rows: number, p: PairSettings): Uint8Array | null {
  const { terms, posStart } = table;
  const out = new Uint8Array(terms.length);
  const freq = new Set(p.freqWords);
  let any = false;
  for (let t = 0; t < terms.length; t++) {
    const term = terms[t];
    // marks, pairs and exact forms (`=word`) are never paired
    if (term.charCodeAt(0) < 0x20 || term.charCodeAt(0) === 0x3d) continue;
    let e = 0;
    if (p.mode === 'auto') e = rows >= AUTO_MIN_ROWS && posStart[t + 1] - posStart[t] >= rows * AUTO_HITS_PER_ROW ? 3 : 0;
    else if (p.mode === 'all') e = 3;
    else if (freq.has(term)) e = 3;
    else if (p.mode === 'first_freq') e = 2;
    out[t] = e;
    if (e === 3) any = true;
  }
  return any ? out : null;
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

/** Above this many cells (eligible words squared) pairs are numbered through a Map, not a dense grid. */
const GRID_MAX_CELLS = 1 << 20;

/**
 * Numbers of the pairs found, by (left, right) sorted term number. The eligible words of a batch are
 * few with `auto` (tens: the commonest words), so a pair's number is a dense grid's cell over their
 * ranks among the eligible, no hashing per occurrence; the other modes may make every word eligible,
 * and fall back to a Map keyed by left * m + right.
 */
class PairNumbers {
  readonly left = new U32List();
  readonly right = new U32List();
  /** Per pair number: the row and key of its last hit (one hit per occurrence). */
  readonly lastRow = new U32List();
  readonly lastKey = new U32List();
  private readonly grid: Int32Array | null;
  private readonly map: Map<number, number> | null;
  private readonly slot: Int32Array;
  private readonly e: number;

  constructor(ok: Uint8Array, private readonly m: number) {
    this.slot = new Int32Array(ok.length);
    let e = 0;
    for (let t = 0; t < ok.length; t++) this.slot[t] = ok[t] === 0 ? -1 : e++;
    this.e = e;
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
    }
    return x;
  }
}

/** Sorts a row's eligible tokens by key (positions out of order: fields handed over unsorted). */
function sortByKey(keys: Uint32Array, ids: Uint32Array, n: number): void {
  const order = Array.from({ length: n }, (_, i) => i).sort((x, y) => keys[x] - keys[y]);
  const k2 = order.map((i) => keys[i]);
  const i2 = order.map((i) => ids[i]);
  keys.set(k2);
  ids.set(i2);
}

/**
 * `table` with the batch's pair terms in front (they sort before every word: PAIR_HEAD is below
 * any character a word holds), or `table` itself when no pair qualifies.
 */
export function withPairs(table: PostingsTable, tokens: RowTokens, p: PairSettings): PostingsTable {
  if (p.mode === 'none' || table.terms.length === 0) return table;
  const ok = eligible(table, tokens.rows, p);
  if (!ok) return table;
  const m = table.terms.length;
  const pairs = new PairNumbers(ok, m);
  const ePair = new U32List();
  const eRow = new U32List();
  const eHit = new U32List();
  const { tid, rank: termOf, hit, rowFrom } = tokens;
  // eligibility by stream id: most tokens are skipped on one look-up
  const okId = new Uint8Array(m);
  for (let id = 0; id < m; id++) okId[id] = ok[termOf[id]];
  let longest = 0;
  for (let r = 0; r < tokens.rows; r++) longest = Math.max(longest, rowFrom[r + 1] - rowFrom[r]);
  // a row's eligible tokens: hit key (field and position, no end flag) and sorted term number
  const keys = new Uint32Array(longest);
  const ids = new Uint32Array(longest);
  const secondOk = p.mode === 'first_freq' ? 2 : 3;
  for (let r = 0; r < tokens.rows; r++) {
    let n = 0;
    let sorted = true;
    for (let i = rowFrom[r]; i < rowFrom[r + 1]; i++) {
      const id = tid[i];
      if (okId[id] === 0) continue;
      const key = (hit[i] & ~FIELD_END_BIT) >>> 0;
      if (n > 0 && key < keys[n - 1]) sorted = false;
      keys[n] = key;
      ids[n++] = termOf[id];
    }
    if (!sorted) sortByKey(keys.subarray(0, n), ids.subarray(0, n), n);
    for (let i = 0; i < n; i++) {
      if ((ok[ids[i]] & 1) === 0) continue;
      const want = keys[i] + 1;
      for (let j = i + 1; j < n && keys[j] <= want; j++) {
        if (keys[j] !== want || ok[ids[j]] < secondOk) continue;
        const x = pairs.of(ids[i], ids[j]);
        // one hit per occurrence (two tokens sharing a position make one occurrence each pair)
        if (pairs.lastRow.a[x] === r && pairs.lastKey.a[x] === keys[i]) continue;
        pairs.lastRow.a[x] = r;
        pairs.lastKey.a[x] = keys[i];
        ePair.push(x);
        eRow.push(r);
        eHit.push(keys[i]);
      }
    }
  }
  const np = pairs.left.n;
  if (np === 0) return table;
  const names: string[] = new Array(np);
  for (let x = 0; x < np; x++) names[x] = pairTerm(table.terms[pairs.left.a[x]], table.terms[pairs.right.a[x]]);
  const order = names.map((_, x) => x).sort((x, y) => (names[x] < names[y] ? -1 : names[x] > names[y] ? 1 : 0));
  if (names[order[np - 1]] >= table.terms[0]) return table; // a word below PAIR_HEAD: cannot happen with real tokenizers
  const rank = new Uint32Array(np);
  order.forEach((x, i) => { rank[x] = i; });
  // counting sort of the emissions by pair rank; emissions are in row order, so rows (and a row's
  // hits) stay ascending
  const start = new Uint32Array(np + 1);
  for (let e = 0; e < ePair.n; e++) start[rank[ePair.a[e]] + 1]++;
  for (let i = 0; i < np; i++) start[i + 1] += start[i];
  const hits = ePair.n;
  const hitRow = new Uint32Array(hits);
  const pairHits = new Uint32Array(hits);
  const fill = start.slice(0, np);
  for (let e = 0; e < hits; e++) {
    const at = fill[rank[ePair.a[e]]]++;
    hitRow[at] = eRow.a[e];
    pairHits[at] = eHit.a[e];
  }
  // rows and tfs per pair from its hits
  const k = table.rowStart[m];
  const h = table.posStart[m];
  const rows = new Uint32Array(hits + k);
  const tfs = new Uint32Array(hits + k);
  const rowStart = new Uint32Array(np + m + 1);
  let n = 0;
  for (let x = 0; x < np; x++) {
    rowStart[x] = n;
    for (let i = start[x]; i < start[x + 1]; i++) {
      if (i > start[x] && hitRow[i] === hitRow[i - 1]) tfs[n - 1]++;
      else { rows[n] = hitRow[i]; tfs[n++] = 1; }
    }
  }
  rows.set(table.rows.subarray(0, k), n);
  tfs.set(table.tfs.subarray(0, k), n);
  const positions = new Uint32Array(hits + h);
  positions.set(pairHits);
  positions.set(table.positions.subarray(0, h), hits);
  const posStart = new Uint32Array(np + m + 1);
  posStart.set(start);
  for (let t = 0; t <= m; t++) {
    rowStart[np + t] = table.rowStart[t] + n;
    posStart[np + t] = table.posStart[t] + hits;
  }
  const terms = order.map((x) => names[x]).concat(table.terms);
  return { terms, rowStart, rows: rows.subarray(0, n + k), tfs: tfs.subarray(0, n + k), posStart, positions, termsOwned: table.termsOwned };
}

/**
 * For a merge: per part, which of its terms the merged dictionary keeps. A pair term stays only when
 * every part holds it (a part without it may have occurrences it never listed); words all stay.
 * `to[s][t]` is part s's term t in the merged `all`; returns the kept terms and the maps into them
 * (-1 for a dropped pair), or the inputs when nothing is dropped.
 */
export function keepCompletePairs(all: readonly string[], to: Int32Array[]): { all: readonly string[]; to: Int32Array[] } {
  let pairs = 0;
  while (pairs < all.length && isPairTerm(all[pairs])) pairs++;
  if (pairs === 0) return { all, to };
  const holders = new Uint32Array(pairs);
  for (const map of to) for (let t = 0; t < map.length && map[t] < pairs; t++) holders[map[t]]++;
  const newIndex = new Int32Array(all.length);
  const kept: string[] = [];
  for (let m = 0; m < all.length; m++) {
    if (m < pairs && holders[m] !== to.length) { newIndex[m] = -1; continue; }
    newIndex[m] = kept.length;
    kept.push(all[m]);
  }
  if (kept.length === all.length) return { all, to };
  return { all: kept, to: to.map((map) => map.map((m) => newIndex[m])) };
}
