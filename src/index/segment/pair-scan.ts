/**
 * The pair scan of a batch whose eligible words fit a dense grid (pair-builder.ts: `auto` marks tens
 * to a few hundred words): a token's eligible word is its slot among them, and a pair of slots is a
 * grid cell holding whether the two pair (first word may stand first, second may stand second, their
 * tiers pair: marksPair) and the row and key of its last occurrence. One look-up a neighbour, where
 * the general scan (pair-builder.ts rowPairs, kept for grids too big) looked up both words' marks,
 * their term numbers and the pair's number before it knew the two pair at all. Session 27: a gcide
 * build's pair building (withPairs over its six 25k-row batches) 160 -> 138 ms CPU, with eligible()
 * reading only marked words' terms.
 */
import { FIELD_END_BIT } from './segment-layout.js';
import type { Emissions, PairNumbers, RowTokens } from './pair-builder.js';

/** eligible()'s mark of a word `auto` pairs only with a frequent one (its other bits: may stand first and second). */
export const MID_WORD = 4;
/** eligible()'s mark (with MID_WORD) of a word `auto` pairs only with an EVERY_ROW_WORD. */
export const LOW_WORD = 8;
/** eligible()'s mark of a frequent word in (nearly) every row (AUTO_EVERY_ROW_HITS_PER_ROW). */
export const EVERY_ROW_WORD = 16;

/** Whether `auto` marks a and b (eligible()) pair: never two mid or low words, a low one only with an every-row word. */
export function marksPair(a: number, b: number): boolean {
  if ((a & b & MID_WORD) !== 0) return false;
  return ((a | b) & LOW_WORD) === 0 || ((a | b) & EVERY_ROW_WORD) !== 0;
}

/** What the grid scan needs of the batch's eligible words besides the tokens. */
export interface PairGrid {
  /** Per stream id: its word's slot + 1, 0 for a word not eligible (e <= 1024: GRID_MAX_CELLS; half the bytes to cache). */
  slotPlus: Uint16Array;
  /** Per slot: its sorted term number. */
  slotTerm: Uint32Array;
  /** Slots (the grid is e x e cells, first word's slot major). */
  e: number;
  /** Per cell: 1 where the two words pair. */
  cellOk: Uint8Array;
  /** Per cell: the row and key of its last emission (one per occurrence); rows start at 0xffffffff. */
  lastRow: Uint32Array;
  lastKey: Uint32Array;
}

/**
 * Each row's pairs into `out`, as the general scan emits them (same pairs, numbers and order): a row's
 * eligible tokens gathered (every token written at n, only an eligible one moves n on: a third of the
 * tokens are eligible, in no pattern a CPU predicts), sorted by key where out of order, then each
 * token's neighbours at the next position looked up in the grid.
 */
export function scanGrid(out: Emissions, tokens: RowTokens, g: PairGrid, keys: Uint32Array, slots: Uint32Array,
  sortByKey: (keys: Uint32Array, ids: Uint32Array, n: number) => void): void {
  const { tid, hit, rowFrom, rows } = tokens;
  const { slotPlus, slotTerm, e, cellOk, lastRow, lastKey } = g;
  const pairs = out.pairs;
  for (let r = 0; r < rows; r++) {
    let n = 0;
    for (let i = rowFrom[r], end = rowFrom[r + 1]; i < end; i++) {
      const s = slotPlus[tid[i]];
      keys[n] = (hit[i] & ~FIELD_END_BIT) >>> 0;
      slots[n] = s - 1;
      n += -s >>> 31; // 1 where s > 0: -s has its sign bit set
    }
    if (n < 2) continue;
    let sorted = true;
    for (let i = 1; i < n && sorted; i++) sorted = keys[i] >= keys[i - 1];
    if (!sorted) sortByKey(keys.subarray(0, n), slots.subarray(0, n), n);
    for (let i = 0; i < n - 1; i++) {
      const a = slots[i] * e;
      const key = keys[i];
      const want = key + 1;
      for (let j = i + 1; j < n && keys[j] <= want; j++) {
        if (keys[j] !== want) continue;
        const cell = a + slots[j];
        if (cellOk[cell] === 0 || (lastRow[cell] === r && lastKey[cell] === key)) continue;
        lastRow[cell] = r;
        lastKey[cell] = key;
        const x = pairs.of(slotTerm[slots[i]], slotTerm[slots[j]]);
        out.pair.push(x);
        out.row.push(r);
        out.hit.push(key);
        pairs.emitted.a[x]++;
      }
    }
  }
}

/** The grid scan's tables of the eligible words `ok` (eligible()) numbered by `pairs`. */
export function pairGrid(ok: Uint8Array, pairs: PairNumbers, termOf: Uint32Array, secondOk: number): PairGrid {
  const e = pairs.e;
  const slotPlus = new Uint16Array(termOf.length);
  const slotTerm = new Uint32Array(e);
  const mark = new Uint8Array(e);
  slotsById(pairs.slot, termOf, slotPlus);
  slotTerms(ok, pairs.slot, slotTerm, mark);
  const cellOk = new Uint8Array(e * e);
  cellsOk(mark, e, secondOk, cellOk);
  return { slotPlus, slotTerm, e, cellOk, lastRow: new Uint32Array(e * e).fill(0xffffffff), lastKey: new Uint32Array(e * e) };
}

/** slotPlus[id]: stream id `id`'s word's slot + 1 (0: not eligible). */
function slotsById(slot: Int32Array, termOf: Uint32Array, slotPlus: Uint16Array): void {
  for (let id = 0; id < termOf.length; id++) slotPlus[id] = slot[termOf[id]] + 1;
}

/** Each slot's sorted term number and eligible() mark. */
function slotTerms(ok: Uint8Array, slot: Int32Array, slotTerm: Uint32Array, mark: Uint8Array): void {
  for (let t = 0; t < slot.length; t++) {
    if (slot[t] < 0) continue;
    slotTerm[slot[t]] = t;
    mark[slot[t]] = ok[t];
  }
}

/** cellOk[a * e + b]: 1 where slot a may stand first, b second, and their tiers pair (marksPair). */
function cellsOk(mark: Uint8Array, e: number, secondOk: number, cellOk: Uint8Array): void {
  for (let a = 0; a < e; a++) {
    if ((mark[a] & 1) === 0) continue;
    for (let b = 0; b < e; b++) cellOk[a * e + b] = (mark[b] & 3) >= secondOk && marksPair(mark[a], mark[b]) ? 1 : 0;
  }
}
