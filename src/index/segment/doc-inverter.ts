/**
 * Inverts a batch of documents into a flat PostingsTable: one pass collects the token stream,
 * a counting sort by term (in sorted term order) groups it, so a batch allocates a handful of
 * typed arrays whatever its vocabulary. hitpos = field << 24 | fieldEnd << 23 | pos; fieldEnd
 * marks a field's last position. invertFields (invert-fields.ts) fills the same stream from fields
 * tokenized as they are collected; the stream, its term ids and the grouping are exported for it.
 */
import type { AttrValue, DocInput, FieldTokens, IndexSchema, PackedTerms, TermNumbering } from '../types.js';
import type { InvertedBatch } from './segment-builder.js';
import type { PostingsTable } from './postings-encoder.js';
import { FIELD_END_BIT, FIELD_SHIFT, POS_MASK } from './segment-layout.js';
import { isReservedTerm } from '../spz-terms.js';
import { AUTO_PAIRS, type PairSettings } from './segment-pairs.js';
import { withPairs } from './pair-builder.js';
// the batch's working arrays, reused from batch to batch
import { scratchWords as words } from './inversion-scratch.js';

/** Sorts each row's hits within [from, to) (fields handed over with positions out of order). */
function sortRowHits(rows: Uint32Array, hits: Uint32Array, from: number, to: number): void {
  let i = from;
  while (i < to) {
    let j = i + 1;
    while (j < to && rows[j] === rows[i]) j++;
    hits.subarray(i, j).sort();
    i = j;
  }
}

export interface TokenStream {
  /**
   * Stream id and hit word of each token, in row order; row r's tokens are [rowFrom[r], rowFrom[r + 1]).
   * `count` is each stream id's token count (zeroed up to the token count: ids are at most that many).
   */
  names: string[]; tid: Uint32Array; thit: Uint32Array; rowFrom: Uint32Array; count: Uint32Array; n: number;
  /** The fast numbering's number of each stream id (while no term has come by name). */
  nums: number[];
  /** The numbering whose numbers map to stream ids through slotOf (the batch's first packed field's). */
  fast: TermNumbering | null;
  /**
   * Stream ids by name, made only once a term arrives by name (a plain field, another numbering):
   * until then every name is the fast numbering's and its number finds its id.
   */
  dict: Map<string, number> | null;
  /** A field gave its terms as strings (cut from a statement, maybe): the builder copies the terms out. */
  strings: boolean;
}

/**
 * Batch slots of a packed numbering's terms: valid where stamp[num] is this batch's epoch, so the
 * arrays are never cleared (one inversion at a time: they are module state, and inversion is sync).
 */
let slotOf = new Int32Array(0);
let stamp = new Uint32Array(0);
let epoch = 0;

/** The stream's id of `name`, added at the end when new. */
export function streamId(s: TokenStream, name: string): number {
  let dict = s.dict;
  if (!dict) {
    dict = s.dict = new Map();
    s.names.forEach((n, id) => dict!.set(n, id));
  }
  let id = dict.get(name);
  if (id === undefined) {
    id = s.names.length;
    dict.set(name, id);
    s.names.push(name);
  }
  return id;
}

/** The stream id of the fast numbering's number `num`, new at the end unless seen in this batch. */
export function fastId(s: TokenStream, names: readonly string[], num: number): number {
  if (stamp[num] === epoch) return slotOf[num];
  stamp[num] = epoch;
  if (s.dict) return (slotOf[num] = streamId(s, names[num]));
  s.names.push(names[num]);
  s.nums.push(num);
  return (slotOf[num] = s.names.length - 1);
}

export function tokenCount(ft: FieldTokens): number {
  return ft.packed ? ft.packed.to - ft.packed.from : ft.terms.length;
}

/** The hit word of a position: field, field-end flag, position. */
export function hitWord(f: number, pos: number, end: boolean): number {
  return ((f << FIELD_SHIFT) | (end ? FIELD_END_BIT : 0) | (pos & POS_MASK)) >>> 0;
}

/**
 * Where a field's end hits start among its tokens [from, to) in the order they were made: Manticore's
 * indexer marks the last hit and, going back, every hit whose position is not below the last one's
 * (ProcessCollectedHits' "set end marker for all tail hits"). With positions ascending that is every
 * token at the greatest position; where a negative phrase_boundary_step took positions back, the last
 * token's position decides and the run can hold higher ones ('run run the, a, dog' at 1 2 1: all three).
 * `end` replaces the last token's position as the run's floor: a final blended token's (Manticore takes
 * the lower of the two), or a trailing mark's that comes after the tokens (then none of them is an end).
 */
export function fieldEndFrom(positions: ArrayLike<number>, from: number, to: number, end = to > from ? positions[to - 1] & POS_MASK : 0): number {
  if (to <= from) return to;
  let i = to - 1;
  while (i >= from && (positions[i] & POS_MASK) >= end) i--;
  return i + 1;
}

/**
 * A packed field into the stream: numbers of the batch's fast numbering map to stream ids through
 * slotOf (no Map look-up while the whole batch is packed by it); another numbering's by name.
 */
function collectPacked(s: TokenStream, p: PackedTerms, f: number): void {
  const { numbering, nums, packedPositions: positions, from, to } = p;
  const names = numbering.names;
  const fast = numbering === s.fast;
  const endFrom = fieldEndFrom(positions, from, to);
  const { tid, thit, count } = s;
  let n = s.n;
  for (let i = from; i < to; i++) {
    const num = nums[i];
    const id = fast ? fastId(s, names, num) : streamId(s, names[num]);
    count[id]++;
    tid[n] = id;
    thit[n++] = hitWord(f, positions[i], i >= endFrom);
  }
  s.n = n;
}

/** The numbering whose numbers map through slotOf this batch (the first packed field's), arrays sized. */
function fastNumbering(docs: DocInput[]): TermNumbering | null {
  for (const d of docs) for (const ft of d.fields) {
    if (!ft?.packed) continue;
    const numbering = ft.packed.numbering;
    // room for the numbering to grow a while (growSlots doubles): it adds terms between batches
    if (numbering.names.length) ensureSlot(numbering.names.length - 1);
    nextEpoch();
    return numbering;
  }
  return null;
}

function collectTokens(schema: IndexSchema, docs: DocInput[], b: InvertedBatch): TokenStream {
  const numFields = schema.fields.length;
  let tokens = 0;
  // indexed loops: this runs once a batch, mostly before V8 optimizes it, where for-of allocates an
  // iterator result per element (9 MB over a gcide build)
  for (let r = 0; r < docs.length; r++) {
    const fields = docs[r].fields;
    for (let f = 0; f < fields.length; f++) tokens += fields[f] ? tokenCount(fields[f]) : 0;
  }
  const s: TokenStream = {
    names: [], nums: [], tid: words('tid', tokens), thit: words('thit', tokens), rowFrom: words('rowFrom', docs.length + 1),
    count: words('count', tokens).fill(0), n: 0, fast: fastNumbering(docs), dict: null, strings: false,
  };
  for (let row = 0; row < docs.length; row++) {
    const doc = docs[row];
    s.rowFrom[row] = s.n;
    b.docIds[row] = BigInt.asIntN(64, doc.docId);
    for (let a = 0; a < schema.attrs.length; a++) b.attrs[a][row] = doc.attrs[a] ?? null;
    for (let f = 0; f < numFields; f++) {
      const ft = doc.fields[f];
      if (!ft) continue;
      b.fieldLens[row * numFields + f] = ft.length;
      collectField(s, ft, f);
    }
  }
  s.rowFrom[docs.length] = s.n;
  return s;
}

/** A field's tokens into the stream (room for them made). */
export function collectField(s: TokenStream, ft: FieldTokens, f: number): void {
  if (ft.packed) {
    collectPacked(s, ft.packed, f);
    return;
  }
  s.strings = true;
  const n = ft.terms.length;
  const { positions } = ft;
  // the text's own entries, in text order: the tail rule over them; sentence, paragraph and zone mark
  // terms and exact forms come after them (field-extras.ts), not where the text had them: those end the
  // field where their position is not below the end's (the same hits as the tail rule wherever
  // positions ascend, which is all but a negative phrase_boundary_step's)
  const words = Math.min(ft.extrasFrom ?? n, n);
  // the last hit's position (a trailing mark's where it is past the last word's: exact forms stand at
  // their words'), or a final blended token's where lower (Manticore's end floor)
  let end = words > 0 ? positions[words - 1] & POS_MASK : 0;
  for (let i = words; i < n; i++) if ((positions[i] & POS_MASK) > end && isReservedTerm(ft.terms[i])) end = positions[i] & POS_MASK;
  if (ft.blendEnd !== undefined && ft.blendEnd < end) end = ft.blendEnd;
  const endFrom = fieldEndFrom(positions, 0, words, end);
  for (let i = 0; i < n; i++) {
    const id = streamId(s, ft.terms[i]);
    s.count[id]++;
    s.tid[s.n] = id;
    s.thit[s.n++] = hitWord(f, positions[i], i < words ? i >= endFrom : (positions[i] & POS_MASK) >= end);
  }
}

/**
 * The batch's terms in sorted order (into `terms`, empty, appended to: a packed array, one elements kind
 * whichever way it was made), and each stream id's place among them (into `rank`). Terms all of the fast
 * numbering are ordered by its name order (read off it, no string compared); others by the default
 * sort, which compares UTF-16 code units as `<` does.
 */
function sortTerms(s: TokenStream, terms: string[], rank: Uint32Array): void {
  const { dict, fast } = s;
  if (dict || !fast) {
    for (const name of s.names) terms.push(name);
    terms.sort();
    if (dict) rankByName(terms, dict, rank);
    return;
  }
  const { order, rank: nameRank } = fast.nameOrder();
  // the batch's names marked at their places in name order, then read off in that order: two passes
  // over the numbering's names (a byte each) where sorting the batch's places was m log m compares
  if (present.length < order.length) present = new Uint8Array(order.length + (order.length >> 1));
  markPresent(present, nameRank, s.nums);
  placeTerms(terms, rank, present, order, fast.names);
}

/** Per place in the fast numbering's name order: 1 where the batch holds that name (zeroed again by placeTerms). */
let present = new Uint8Array(0);

/*
 * The grouping's loops, each in a function of its own whose loop is all it runs and which returns no
 * new object: a batch runs each once, V8 optimizes it on the stack (OSR) part way through its loop, and
 * whatever followed the loop in the same function (a later loop, a call, an object literal) had never
 * run, so that code deoptimized on reaching it, in every later batch too (the on-stack code is kept
 * and entered again), and the function was compiled again and again (findPairs, groupByPair, sortTerms
 * 5-8 times in a gcide import). The objects are made by the callers, which have no loop.
 */

/** rank[dict(term)] = its place in sorted `terms`. */
function rankByName(terms: string[], dict: Map<string, number>, rank: Uint32Array): void {
  for (let r = 0; r < terms.length; r++) rank[dict.get(terms[r])!] = r;
}

/** present[place]: 1 at each stream id's term's place in the fast numbering's name order. */
function markPresent(present: Uint8Array, nameRank: Uint32Array, nums: number[]): void {
  for (let id = 0; id < nums.length; id++) present[nameRank[nums[id]]] = 1;
}

/** The batch's terms in name order (`present`'s marks, cleared on the way) appended to `terms`, each stream id's place into `rank`. */
function placeTerms(terms: string[], rank: Uint32Array, present: Uint8Array, order: Uint32Array, names: readonly string[]): void {
  for (let p = 0, r = 0; p < order.length; p++) {
    if (present[p] === 0) continue;
    present[p] = 0;
    const num = order[p];
    rank[slotOf[num]] = r++;
    terms.push(names[num]);
  }
}

/**
 * Groups the stream by term, terms in sorted order: a counting sort whose counts were taken while
 * collecting, each token placed at its stream id's next slot (an id's slots are its term's), row by
 * row, so rows stay ascending.
 */
export function groupByTerm(s: TokenStream): { table: PostingsTable; rank: Uint32Array } {
  const m = s.names.length;
  const terms: string[] = [];
  const rank = words('rank', m);
  sortTerms(s, terms, rank);
  const posStart = words('posStart', m + 1);
  termStarts(posStart, s.count, rank);
  const hitRows = words('hitRows', s.n);
  const positions = words('positions', s.n);
  placeTokens(s.tid, s.thit, s.count, s.rowFrom, hitRows, positions);
  const rowStart = words('rowStart', m + 1);
  const rows = words('rows', s.n);
  const tfs = words('tfs', s.n);
  const k = termRows(posStart, hitRows, positions, rowStart, rows, tfs);
  rowStart[m] = k;
  const table = { terms, rowStart, rows: rows.subarray(0, k), tfs: tfs.subarray(0, k), posStart, positions, termsOwned: !s.strings };
  return { table, rank };
}

/** Where each sorted term's hits start (into posStart, m + 1 words); each stream id's count becomes its next slot. */
function termStarts(posStart: Uint32Array, count: Uint32Array, rank: Uint32Array): void {
  const m = rank.length;
  posStart[0] = 0;
  for (let id = 0; id < m; id++) posStart[rank[id] + 1] = count[id];
  prefixSums(posStart, m);
  nextSlots(count, posStart, rank);
}

/** a[t + 1] += a[t] for t < m. */
function prefixSums(a: Uint32Array, m: number): void {
  for (let t = 0; t < m; t++) a[t + 1] += a[t];
}

/** Each stream id's first slot: its term's start. */
function nextSlots(count: Uint32Array, posStart: Uint32Array, rank: Uint32Array): void {
  for (let id = 0; id < rank.length; id++) count[id] = posStart[rank[id]];
}

/** Each token's row and hit word at its stream id's next slot (`fill` holds the slots). */
function placeTokens(tid: Uint32Array, thit: Uint32Array, fill: Uint32Array, rowFrom: Uint32Array, hitRows: Uint32Array, positions: Uint32Array): void {
  for (let row = 0, i = 0; row < rowFrom.length - 1; row++) {
    for (const end = rowFrom[row + 1]; i < end; i++) {
      const at = fill[tid[i]]++;
      hitRows[at] = row;
      positions[at] = thit[i];
    }
  }
}

/**
 * Each term's rows and term frequencies from its hits (a row's hits sorted where they came out of
 * order), into rowStart (its first m of m + 1 words: the caller sets the last), rows and tfs; returns the rows' count.
 */
function termRows(posStart: Uint32Array, hitRows: Uint32Array, positions: Uint32Array, rowStart: Uint32Array, rows: Uint32Array,
  tfs: Uint32Array): number {
  const m = rowStart.length - 1;
  let k = 0;
  for (let t = 0; t < m; t++) {
    rowStart[t] = k;
    const a = posStart[t];
    const b = posStart[t + 1];
    let unsorted = false;
    for (let i = a; i < b; i++) {
      if (i === a || hitRows[i] !== hitRows[i - 1]) {
        rows[k] = hitRows[i];
        tfs[k++] = 1;
      } else {
        tfs[k - 1]++;
        if (positions[i] < positions[i - 1]) unsorted = true;
      }
    }
    if (unsorted) sortRowHits(hitRows, positions, a, b);
  }
  return k;
}

/** slotOf and stamp with room for number `num` (growSlots when short). */
export function ensureSlot(num: number): void {
  if (num >= slotOf.length) growSlots(num + 1);
}

/** Starts a batch's slots: stamps of batches before never match. */
export function nextEpoch(): void {
  epoch = (epoch + 1) >>> 0 || 1;
}

/** slotOf and stamp with room for `n` numbers, this batch's slots kept (the numbering grew while it was collected). */
function growSlots(n: number): void {
  const size = Math.max(n * 2, 1024);
  const grownSlots = new Int32Array(size);
  const grownStamps = new Uint32Array(size);
  grownSlots.set(slotOf);
  grownStamps.set(stamp);
  slotOf = grownSlots;
  stamp = grownStamps;
}

/** Inverts `docs`, with the pair postings `pairs` asks for (segment-pairs.ts). */
export function invertDocs(schema: IndexSchema, docs: DocInput[], pairs: PairSettings = schema.pairs ?? AUTO_PAIRS): InvertedBatch {
  const numFields = schema.fields.length;
  const batch: InvertedBatch = {
    rows: docs.length, numFields, postings: null as unknown as PostingsTable,
    fieldLens: new Uint32Array(docs.length * numFields), docIds: new BigInt64Array(docs.length),
    attrs: schema.attrs.map(() => new Array<AttrValue>(docs.length)),
  };
  const s = collectTokens(schema, docs, batch);
  const { table, rank } = groupByTerm(s);
  batch.postings = table;
  if (pairs.mode !== 'none') batch.postings = withPairs(table, { tid: s.tid, rank, hit: s.thit, rowFrom: s.rowFrom, rows: docs.length }, pairs);
  return batch;
}
