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

export class DocMap {
  #lo = new Int32Array(MIN_CAPACITY);
  #hi = new Int32Array(MIN_CAPACITY);
  /** Segment slot + 1; 0 = empty. */
  #seg = new Int32Array(MIN_CAPACITY);
  #row = new Uint32Array(MIN_CAPACITY);
  #mask = MIN_CAPACITY - 1;
  #size = 0;

  get size(): number { return this.#size; }

  /** Bytes held by the table's arrays (what a memory report counts). */
  get bytes(): number { return this.#lo.length * 16; }

  static #home(lo: number, hi: number, mask: number): number {
    let h = Math.imul(lo ^ Math.imul(hi, 0x9e3779b1), 0x85ebca6b);
    h ^= h >>> 15;
    h = Math.imul(h, 0xc2b2ae35);
    return (h ^ (h >>> 13)) & mask;
  }

  /** The entry holding the id, or -1; valid until the next set() or delete(). */
  find(lo: number, hi: number): number {
    const mask = this.#mask;
    for (let i = DocMap.#home(lo, hi, mask); ; i = (i + 1) & mask) {
      if (this.#seg[i] === 0) return -1;
      if (this.#lo[i] === lo && this.#hi[i] === hi) return i;
    }
  }

  /** Segment slot of entry `e` (a find() result). */
  segmentAt(e: number): number { return this.#seg[e] - 1; }

  rowAt(e: number): number { return this.#row[e]; }

  /** Sets (or re-points) the id's segment slot and row. */
  set(lo: number, hi: number, seg: number, row: number): void {
    if ((this.#size + 1) > this.#lo.length * MAX_LOAD) this.#grow();
    const mask = this.#mask;
    let i = DocMap.#home(lo, hi, mask);
    while (this.#seg[i] !== 0 && !(this.#lo[i] === lo && this.#hi[i] === hi)) i = (i + 1) & mask;
    if (this.#seg[i] === 0) this.#size++;
    this.#lo[i] = lo;
    this.#hi[i] = hi;
    this.#seg[i] = seg + 1;
    this.#row[i] = row;
  }

  /**
   * Points ids[2i], ids[2i + 1] (id halves) at (slot `seg`, row i) for every i not marked in `skip`:
   * a merged segment's rows in one call, the probe loop inlined (a merge swap re-points 100ks of rows).
   */
  setRows(ids: Int32Array, seg: number, skip?: Uint8Array): void {
    const n = ids.length >>> 1;
    for (let row = 0; row < n; row++) {
      if (skip && skip[row]) continue;
      if ((this.#size + 1) > this.#lo.length * MAX_LOAD) this.#grow();
      const lo = ids[2 * row], hi = ids[2 * row + 1];
      const mask = this.#mask, los = this.#lo, his = this.#hi, segs = this.#seg;
      let i = DocMap.#home(lo, hi, mask);
      while (segs[i] !== 0 && !(los[i] === lo && his[i] === hi)) i = (i + 1) & mask;
      if (segs[i] === 0) { this.#size++; los[i] = lo; his[i] = hi; }
      segs[i] = seg + 1;
      this.#row[i] = row;
    }
  }

  /** Removes the id; false when absent. */
  delete(lo: number, hi: number): boolean {
    let i = this.find(lo, hi);
    if (i < 0) return false;
    const mask = this.#mask;
    // shift back every entry of the probe run that the hole would cut off from its home
    for (let j = (i + 1) & mask; this.#seg[j] !== 0; j = (j + 1) & mask) {
      const home = DocMap.#home(this.#lo[j], this.#hi[j], mask);
      if (((j - home) & mask) >= ((j - i) & mask)) {
        this.#lo[i] = this.#lo[j];
        this.#hi[i] = this.#hi[j];
        this.#seg[i] = this.#seg[j];
        this.#row[i] = this.#row[j];
        i = j;
      }
    }
    this.#seg[i] = 0;
    this.#size--;
    return true;
  }

  clear(): void {
    const fresh = new DocMap();
    this.#lo = fresh.#lo; this.#hi = fresh.#hi; this.#seg = fresh.#seg; this.#row = fresh.#row;
    this.#mask = fresh.#mask;
    this.#size = 0;
  }

  #grow(): void {
    const [lo, hi, seg, row] = [this.#lo, this.#hi, this.#seg, this.#row];
    const cap = lo.length * 2;
    this.#lo = new Int32Array(cap);
    this.#hi = new Int32Array(cap);
    this.#seg = new Int32Array(cap);
    this.#row = new Uint32Array(cap);
    this.#mask = cap - 1;
    this.#size = 0;
    for (let i = 0; i < lo.length; i++) if (seg[i] !== 0) this.set(lo[i], hi[i], seg[i] - 1, row[i]);
  }
}

/** The low and high signed 32-bit halves of a 64-bit id, as a segment's id column holds them. */
export function idHalves(id: bigint): [number, number] {
  return [Number(BigInt.asIntN(32, id)), Number(BigInt.asIntN(32, id >> 32n))];
}
