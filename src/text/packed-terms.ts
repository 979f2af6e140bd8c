/**
 * A field's index input without a string or a number object per word: term numbers (of one pipeline's
 * TermNumbers) and positions side by side in typed-array chunks shared by many fields, which the
 * inverter reads directly (src/index/segment/doc-inverter.ts). Made by the scanner's plain path.
 */
import type { PackedTerms, TermNumbering } from '../index/types.js';
import { ownString } from '../util/own-strings.js';
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
  readonly #byName = new Map<string, number>();

  get full(): boolean {
    return this.names.length >= MAX_TERM_NUMBERS;
  }

  find(term: string): number | undefined {
    return this.#byName.get(term);
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
   * binary search in the old order (a few compares each, not a pass over every name), then one copy.
   */
  #orderNew(n: number): void {
    const names = this.names;
    const fresh = new Uint32Array(n - this.#ordered);
    for (let i = 0; i < fresh.length; i++) fresh[i] = this.#ordered + i;
    const sorted = Array.from(fresh).sort((a, b) => (names[a] < names[b] ? -1 : 1));
    const old = this.#order;
    const oldN = this.#ordered;
    const cap = old.length >= n ? old.length : Math.max(n + (n >> 1), 1024);
    // two arrays in turn: the merge reads the old order while it writes the new one
    const order = this.#spare.length >= n ? this.#spare : new Uint32Array(cap);
    let src = 0;
    let dst = 0;
    for (const f of sorted) {
      const name = names[f];
      let lo = src;
      let hi = oldN;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if (names[old[mid]] < name) lo = mid + 1;
        else hi = mid;
      }
      order.set(old.subarray(src, lo), dst);
      dst += lo - src;
      src = lo;
      order[dst++] = f;
    }
    order.set(old.subarray(src, oldN), dst);
    const rank = this.#rank.length >= n ? this.#rank : new Uint32Array(cap);
    for (let i = 0; i < n; i++) rank[order[i]] = i;
    this.#spare = old;
    this.#order = order;
    this.#rank = rank;
    this.#ordered = n;
  }

  numberOf(term: string): number {
    let n = this.#byName.get(term);
    if (n === undefined) {
      n = this.names.length;
      const own = ownString(term);
      this.#byName.set(own, n);
      this.names.push(own);
    }
    return n;
  }
}

/** A field packed as numbers; `terms` and `positions` are made only for a reader that asks for them. */
export class PackedField implements IndexedField {
  #terms: string[] | null = null;
  #positions: number[] | null = null;

  constructor(readonly packed: PackedTerms, readonly length: number) {}

  get terms(): string[] {
    const { numbering: { names }, nums, from, to } = this.packed;
    if (!this.#terms) {
      const t: string[] = [];
      for (let i = from; i < to; i++) t.push(names[nums[i]]);
      this.#terms = t;
    }
    return this.#terms;
  }

  get positions(): number[] {
    const { positions, from, to } = this.packed;
    return (this.#positions ??= Array.from(positions.subarray(from, to)));
  }
}

/**
 * Appends (number, position) pairs to the current chunk: begin() with an upper bound of the field's
 * entries, push() each, finish() the field. A full chunk is left to the fields that point into it.
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

  push(num: number, pos: number): void {
    this.nums[this.used] = num;
    this.positions[this.used++] = pos;
  }

  finish(numbering: TermNumbering, length: number): PackedField {
    return new PackedField({ numbering, nums: this.nums, positions: this.positions, from: this.#from, to: this.used }, length);
  }
}
