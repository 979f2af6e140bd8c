/**
 * DocMap: docId -> (segment slot, row) for an RT index, in typed arrays: open addressing with linear
 * probing, keys as the two signed 32-bit halves of the id (read straight from a segment's id column,
 * no BigInt per row). 16 bytes a slot at a load of at most 1/2..3/4 instead of the Map of BigInt
 * keys and {seg, row} objects it replaces (about 100 bytes a document: 100 MiB of JS heap at 1M).
 * Deletion shifts the following entries back (Knuth's algorithm R), so there are no tombstones.
 */

/** Load factor above which the table doubles. */
const MAX_LOAD = 0.75;
const MIN_CAPACITY = 1024;
/** Rows whose home entries repointRows reads ahead of probing them. */
const TOUCH_BATCH = 64;

export class DocMap {
  /**
   * Entry i at 4i: id low half, id high half, segment slot + 1 (0 = empty), row. One array, the
   * fields side by side: a probe reads one cache line, not four (four arrays made re-pointing a merge's
   * 1.6M rows cost ~100 ns a row, each probe a miss in each array).
   */
  #t = new Int32Array(4 * MIN_CAPACITY);
  #mask = MIN_CAPACITY - 1;
  #size = 0;

  /** repointRows' reads ahead are kept here, so the compiler cannot drop them as unused. */
  #touched = 0;

  get size(): number { return this.#size; }

  /** Bytes held by the table's array (what a memory report counts). */
  get bytes(): number { return this.#t.byteLength; }

  static #home(lo: number, hi: number, mask: number): number {
    let h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b);
    h ^= h >>> 15;
    h = Math.imul(h, 0xc2b2ae35);
    return (h ^ (h >>> 13)) & mask;
  }

  /** The entry holding the id, or -1; valid until the next set() or delete(). */
  find(lo: number, hi: number): number {
    const mask = this.#mask, t = this.#t;
    for (let i = DocMap.#home(lo, hi, mask); ; i = (i + 1) & mask) {
      if (t[4 * i + 2] === 0) return -1;
      if (t[4 * i] === lo && t[4 * i + 1] === hi) return i;
    }
  }

  /** Segment slot of entry `e` (a find() result). */
  segmentAt(e: number): number { return this.#t[4 * e + 2] - 1; }

  rowAt(e: number): number { return this.#t[4 * e + 3] >>> 0; }

  /**
   * Re-points, for rows `from` to `to` of a segment whose ids are `ids` (halves side by side), each
   * present entry whose (slot, row) `lands(slot, row, at)` says is the segment's row `at`, to (`seg`,
   * `at`): a merged segment's rows after a merge swap (segment-slots.ts). Never adds or removes.
   */
  repointRows(ids: Int32Array, from: number, to: number, seg: number, lands: (slot: number, row: number, at: number) => boolean): void {
    const mask = this.#mask, t = this.#t;
    for (let b = from; b < to; b += TOUCH_BATCH) {
      const end = Math.min(to, b + TOUCH_BATCH);
      // first read each row's home entry, independent loads the CPU overlaps (the table is far
      // bigger than the caches, each home a miss), then probe: the homes are cached by then
      let touched = 0;
      for (let row = b; row < end; row++) touched |= t[4 * DocMap.#home(ids[2 * row], ids[2 * row + 1], mask) + 2];
      this.#touched = touched;
      for (let row = b; row < end; row++) {
        const e = this.find(ids[2 * row], ids[2 * row + 1]);
        if (e < 0) continue;
        const slot = t[4 * e + 2] - 1;
        if (slot !== seg && lands(slot, t[4 * e + 3] >>> 0, row)) { t[4 * e + 2] = seg + 1; t[4 * e + 3] = row; }
      }
    }
  }

  /** Sets (or re-points) the id's segment slot and row. */
  set(lo: number, hi: number, seg: number, row: number): void {
    if ((this.#size + 1) > (this.#mask + 1) * MAX_LOAD) this.#grow();
    this.#put(lo, hi, seg, row);
  }

  #put(lo: number, hi: number, seg: number, row: number): void {
    const mask = this.#mask, t = this.#t;
    let i = DocMap.#home(lo, hi, mask);
    while (t[4 * i + 2] !== 0 && !(t[4 * i] === lo && t[4 * i + 1] === hi)) i = (i + 1) & mask;
    if (t[4 * i + 2] === 0) this.#size++;
    t[4 * i] = lo;
    t[4 * i + 1] = hi;
    t[4 * i + 2] = seg + 1;
    t[4 * i + 3] = row;
  }

  /** Removes the id; false when absent. */
  delete(lo: number, hi: number): boolean {
    let i = this.find(lo, hi);
    if (i < 0) return false;
    const mask = this.#mask, t = this.#t;
    // shift back every entry of the probe run that the hole would cut off from its home
    for (let j = (i + 1) & mask; t[4 * j + 2] !== 0; j = (j + 1) & mask) {
      const home = DocMap.#home(t[4 * j], t[4 * j + 1], mask);
      if (((j - home) & mask) >= ((j - i) & mask)) {
        t.copyWithin(4 * i, 4 * j, 4 * j + 4);
        i = j;
      }
    }
    t[4 * i + 2] = 0;
    this.#size--;
    return true;
  }

  clear(): void {
    this.#t = new Int32Array(4 * MIN_CAPACITY);
    this.#mask = MIN_CAPACITY - 1;
    this.#size = 0;
  }

  #grow(): void {
    const old = this.#t;
    const cap = 2 * (this.#mask + 1);
    this.#t = new Int32Array(4 * cap);
    this.#mask = cap - 1;
    this.#size = 0;
    for (let i = 0; i < old.length; i += 4) if (old[i + 2] !== 0) this.#put(old[i], old[i + 1], old[i + 2] - 1, old[i + 3]);
  }
}

/** The low and high signed 32-bit halves of a 64-bit id, as a segment's id column holds them. */
export function idHalves(id: bigint): [number, number] {
  // an id within 2^53 splits in double arithmetic, exactly: no BigInt made (three BigInt operations,
  // each a heap number, cost a /search request's id look-ups about 1% of its protocol-thread CPU)
  const n = Number(id);
  if (Number.isSafeInteger(n)) {
    const hi = Math.floor(n / 4294967296);
    return [(n - hi * 4294967296) | 0, hi | 0];
  }
  return [Number(BigInt.asIntN(32, id)), Number(BigInt.asIntN(32, id >> 32n))];
}
