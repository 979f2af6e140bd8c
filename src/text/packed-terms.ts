/**
 * A field's index input without a string or a number object per word: term numbers (of one pipeline's
 * TermNumbers) and positions side by side in typed-array chunks shared by many fields, which the
 * inverter reads directly (src/index/segment/doc-inverter.ts). Made by the scanner's plain path.
 */
import type { PackedTerms, TermNumbering } from '../index/types.js';
import { ownString } from '../util/own-strings.js';
import { fnvString } from '../util/fnv.js';
import type { IndexedField } from './text-pipeline.js';

/** Distinct terms one numbering holds before a new one starts (its Map then goes with its last batch). */
export const MAX_TERM_NUMBERS = 1 << 18;
/**
 * Entries of a chunk: two Uint32Arrays of 64 KiB, under the 128 KiB from which malloc (as bin/quarry.js
 * tunes it) maps every block afresh; a longer field gets a chunk of its own size.
 */
const CHUNK_ENTRIES = 1 << 14;

/**
 * Terms numbered as first seen; a number always names the same term. Names are copied in on their
 * first sight, so they share no storage with any text (segments keep them as their dictionary).
 */
export class TermNumbers implements TermNumbering {
  readonly names: string[] = [];
  /**
   * Numbers by name: an open-addressed table, not a Map, of slot pairs side by side in one array:
   * [number (-1 empty), the name's hash as i32]. A Map's table of 150k+ strings lives in the old
   * generation, so every name set into it while young went through the write barrier into the
   * remembered set that each scavenge then walks: the Map's get and set were a fifth of a gcide build
   * thread's profile. A probe reads the number and the hash from one cache line (two arrays were two
   * misses a probe once the table outgrows the caches: a new name's probe was most of numberOf).
   */
  #slots = new Int32Array(2 * 1024).fill(-1);
  /** Slot pairs in use before the table doubles (half of them: probes stay short). */
  #limit = 512;

  get full(): boolean {
    return this.names.length >= MAX_TERM_NUMBERS;
  }

  find(term: string): number | undefined {
    const n = this.#slots[this.#slotOf(term, nameHash(term))];
    return n < 0 ? undefined : n;
  }

  /** The index (of its number) of the slot pair holding `term` (hash `h`), or of the empty pair where it would go. */
  #slotOf(term: string, h: number): number {
    const slots = this.#slots;
    const mask = slots.length - 2;
    let i = (h << 1) & mask;
    for (let n = slots[i]; n >= 0; n = slots[i]) {
      if (slots[i + 1] === h && this.names[n] === term) return i;
      i = (i + 2) & mask;
    }
    return i;
  }

  /** Twice the slots, every number placed again by its kept hash. */
  #grow(): void {
    const old = this.#slots;
    const slots = new Int32Array(old.length * 2).fill(-1);
    const mask = slots.length - 2;
    for (let j = 0; j < old.length; j += 2) {
      if (old[j] < 0) continue;
      const h = old[j + 1];
      let i = (h << 1) & mask;
      while (slots[i] >= 0) i = (i + 2) & mask;
      slots[i] = old[j];
      slots[i + 1] = h;
    }
    this.#slots = slots;
    this.#limit = slots.length >> 2;
  }

  /** Numbers in name order (the first #ordered names), and each number's place in it. */
  #order = new Uint32Array(0);
  #rank = new Uint32Array(0);
  #spare = new Uint32Array(0);
  #ordered = 0;

  nameOrder(): { order: Uint32Array; rank: Uint32Array } {
    const n = this.names.length;
    if (this.#ordered < n) this.#orderNew(n);
    return { order: this.#order.subarray(0, n), rank: this.#rank.subarray(0, n) };
  }

  /**
   * Sorts the names added since the last order and merges them in: each new name's place found by
   * galloping through the old order from the last one's (a few compares each when the new names are
   * few, about one per old name when they are as many), then one copy.
   */
  #orderNew(n: number): void {
    const names = this.names;
    const sorted = sortedNumbers(names, this.#ordered, n);
    const old = this.#order;
    const oldN = this.#ordered;
    const cap = old.length >= n ? old.length : Math.max(n + (n >> 1), 1024);
    // two arrays in turn: the merge reads the old order while it writes the new one
    const order = this.#spare.length >= n ? this.#spare : new Uint32Array(cap);
    mergeOrder(names, sorted, old, oldN, order);
    const rank = this.#rank.length >= n ? this.#rank : new Uint32Array(cap);
    rankOf(order, n, rank);
    this.#spare = old;
    this.#order = order;
    this.#rank = rank;
    this.#ordered = n;
  }

  numberOf(term: string): number {
    return this.#numberOfHashed(term, nameHash(term));
  }

  /**
   * numberOf of each of `terms` into `out`, in order (the same numbers as so many numberOf calls). Their
   * hashes first, then each one's first slot read, all before any is placed, so the cache misses of a
   * large table (4 MiB at gcide's 220k names) overlap instead of following one another: one at a time,
   * that miss was most of a new name's numberOf on a bulk load's first batch.
   */
  numbersOf(terms: readonly string[], out: Int32Array): void {
    const n = terms.length;
    if (this.#hashes.length < n) this.#hashes = new Int32Array(Math.max(n, 1024));
    const hashes = this.#hashes;
    for (let k = 0; k < n; k++) hashes[k] = nameHash(terms[k]);
    const slots = this.#slots;
    const mask = slots.length - 2;
    let touched = 0;
    for (let k = 0; k < n; k++) touched += slots[(hashes[k] << 1) & mask];
    this.touched = touched;
    for (let k = 0; k < n; k++) out[k] = this.#numberOfHashed(terms[k], hashes[k]);
  }

  /** Scratch of numbersOf: the terms' hashes. */
  #hashes = new Int32Array(0);
  /** What numbersOf's reads summed to, kept so they are not optimized away. */
  touched = 0;

  #numberOfHashed(term: string, h: number): number {
    const i = this.#slotOf(term, h);
    let n = this.#slots[i];
    if (n < 0) {
      n = this.names.length;
      this.names.push(ownString(term));
      this.#slots[i] = n;
      this.#slots[i + 1] = h;
      // at most half full: probes stay short
      if (n + 1 > this.#limit) this.#grow();
    }
    return n;
  }
}

// A name numbered twice, so #slotOf's test of a hash match has type feedback from the start: in a load
// nearly every name is new and matches no slot, so the build thread's packScanned (which inlines
// numberOf) was optimized without it, and the first name seen again deoptimized it (a recompile of
// 30-100 ms). The feedback is the function's, shared by every TermNumbers; V8 makes a function's
// feedback vector only after some calls, hence the repeats, and the names are made at run time (not
// interned, as a load's are: a literal's feedback deoptimized at the first real name instead).
{
  const warm = new TermNumbers();
  for (let i = 0; i < 64; i++) warm.numberOf(`warm${i & 1}`);
}

/** A name's hash as the slots' Int32Array keeps it. */
function nameHash(s: string): number {
  return fnvString(s) | 0;
}

/**
 * Merges the new numbers `sorted` (in name order) into the first oldN of `old`, into `order`: each new
 * name's place found by galloping from where the last one went, then a binary search within the last
 * step. The loops of the name order are functions of their own: each runs once a batch, and V8
 * optimizes it on the stack; one function of all of them was deoptimized on reaching each later loop.
 */
function mergeOrder(names: readonly string[], sorted: number[], old: Uint32Array, oldN: number, order: Uint32Array): void {
  let src = 0;
  let dst = 0;
  for (let k = 0; k < sorted.length; k++) {
    const f = sorted[k];
    const name = names[f];
    let lo = src;
    let hi = src;
    for (let step = 1; hi < oldN && names[old[hi]] < name; step <<= 1) {
      lo = hi + 1;
      hi = Math.min(hi + step, oldN);
    }
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (names[old[mid]] < name) lo = mid + 1;
      else hi = mid;
    }
    while (src < lo) order[dst++] = old[src++];
    order[dst++] = f;
  }
  order.set(old.subarray(src, oldN), dst);
}

/** rank[order[i]] = i for the first n. */
function rankOf(order: Uint32Array, n: number, rank: Uint32Array): void {
  for (let i = 0; i < n; i++) rank[order[i]] = i;
}

/** Bits of each unit of a name's prefix in a sort key (a unit above 127 counts as 127, the last one keyed). */
const KEY_UNIT_BITS = 7;
const MAX_KEY_UNIT = (1 << KEY_UNIT_BITS) - 1;

/**
 * Numbers [from, to) in their names' order (UTF-16 code units, as `<` compares). Each number's key is
 * its name's first units (clamped, so a key never orders two names against their order) above the
 * number itself, in the 53 bits a double holds exactly (5 units above 18 bits of number): one numeric
 * sort of the keys orders the names by prefix, and only runs of one prefix are then sorted by
 * comparing strings (a comparator sort of the 200k new names of an import's first batch took 120 ms).
 */
function sortedNumbers(names: readonly string[], from: number, to: number): number[] {
  const numberBits = 32 - Math.clz32(to);
  const units = Math.floor((53 - numberBits) / KEY_UNIT_BITS);
  const numberMask = 2 ** numberBits;
  const keys = prefixKeys(names, from, to, units, numberMask);
  keys.sort();
  const sorted: number[] = new Array(keys.length);
  numbersOfKeys(keys, numberMask, sorted);
  sortRuns(names, keys, numberMask, sorted);
  return sorted;
}

/**
 * sorted[i] = the number of keys[i]. A loop of its own (mergeOrder's comment says why): in
 * sortedNumbers, the call after it deoptimized sortedNumbers in most batches of an import.
 */
function numbersOfKeys(keys: Float64Array, numberMask: number, sorted: number[]): void {
  for (let i = 0; i < keys.length; i++) sorted[i] = keys[i] % numberMask;
}

/** Each number's key: its name's first `units` units (clamped) above the number. */
function prefixKeys(names: readonly string[], from: number, to: number, units: number, numberMask: number): Float64Array {
  const keys = new Float64Array(to - from);
  for (let num = from; num < to; num++) {
    const name = names[num];
    let prefix = 0;
    let clamped = false;
    for (let u = 0; u < units; u++) {
      // after a clamped unit the key says nothing more: the names tie, and their strings decide
      const c: number = clamped || u >= name.length ? 0 : Math.min(name.charCodeAt(u), MAX_KEY_UNIT);
      clamped ||= c === MAX_KEY_UNIT;
      prefix = prefix * (MAX_KEY_UNIT + 1) + c;
    }
    keys[num - from] = prefix * numberMask + num;
  }
  return keys;
}

/** Sorts each run of `sorted` whose keys share a prefix by comparing the names. */
function sortRuns(names: readonly string[], keys: Float64Array, numberMask: number, sorted: number[]): void {
  const byName = (a: number, b: number) => (names[a] < names[b] ? -1 : names[a] > names[b] ? 1 : 0);
  for (let i = 0; i < keys.length;) {
    const prefix = Math.floor(keys[i] / numberMask);
    let j = i + 1;
    while (j < keys.length && Math.floor(keys[j] / numberMask) === prefix) j++;
    if (j - i > 1) {
      const run = sorted.slice(i, j).sort(byName);
      for (let k = 0; k < run.length; k++) sorted[i + k] = run[k];
    }
    i = j;
  }
}

/**
 * A field packed as numbers, its own PackedTerms (one object a field: a batch's fields live until its
 * write, so each object more is copied twice by the young-generation GC); `terms` and `positions`
 * are made only for a reader that asks for them.
 */
export class PackedField implements IndexedField, PackedTerms {
  #terms: string[] | null = null;
  #positions: number[] | null = null;

  constructor(
    readonly numbering: TermNumbering,
    readonly nums: Uint32Array,
    readonly packedPositions: Uint32Array,
    readonly from: number,
    readonly to: number,
    readonly length: number,
  ) {}

  get packed(): PackedTerms {
    return this;
  }

  get terms(): string[] {
    const { numbering: { names }, nums, from, to } = this;
    if (!this.#terms) {
      const t: string[] = [];
      for (let i = from; i < to; i++) t.push(names[nums[i]]);
      this.#terms = t;
    }
    return this.#terms;
  }

  get positions(): number[] {
    const { packedPositions, from, to } = this;
    return (this.#positions ??= Array.from(packedPositions.subarray(from, to)));
  }
}

/**
 * Appends (number, position) pairs to the current chunk: begin() with an upper bound of the field's
 * entries, the caller writes them at `used` on (FieldPacker.pack), finish() the field. A full chunk is
 * left to the fields that point into it.
 */
export class PackedWriter {
  nums = new Uint32Array(0);
  positions = new Uint32Array(0);
  used = 0;
  #from = 0;

  begin(maxEntries: number): void {
    if (this.used + maxEntries > this.nums.length) {
      const n = Math.max(CHUNK_ENTRIES, maxEntries);
      this.nums = new Uint32Array(n);
      this.positions = new Uint32Array(n);
      this.used = 0;
    }
    this.#from = this.used;
  }

  finish(numbering: TermNumbering, length: number): PackedField {
    return new PackedField(numbering, this.nums, this.positions, this.#from, this.used, length);
  }
}
