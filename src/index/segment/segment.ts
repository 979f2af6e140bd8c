/**
 * One immutable segment placed in the WASM core: its blob (postings + numeric columns, which
 * UPDATE writes in place), its deleted-rows bitmap, and the JS-side dictionary and host columns.
 */
import type { Core } from '../../wasm/core.js';
import type { AttrValue, IndexSchema } from '../types.js';
import type { BuiltSegment } from './segment-builder.js';
import { indexOfSorted } from './sorted-terms.js';
import { COL_F32, COL_I64, COL_NONE, COL_U32, H, TERM_INFO_WORDS } from './segment-layout.js';

let nextSegmentId = 1;

/** The views of core memory a segment reads its blob and bitmap through (see Segment.#views). */
interface MemoryViews { u8: Uint8Array; u32: Uint32Array; i64: BigInt64Array; f32: Float32Array }

function viewsOf(core: Core): MemoryViews {
  return { u8: core.u8, u32: core.u32, i64: core.i64, f32: core.f32 };
}

/** True when `terms` has no holes (a dictionary a page loads in chunks has them until it is complete). */
function isDense(terms: readonly string[]): boolean {
  for (let i = 0; i < terms.length; i++) if (terms[i] === undefined) return false;
  return true;
}

export class Segment {
  readonly id = nextSegmentId++;
  readonly core: Core;
  readonly schema: IndexSchema;
  readonly rows: number;
  readonly terms: string[];
  readonly hostCols: (AttrValue[] | null)[];
  readonly blobLen: number;
  /** Address of the blob and of the descriptor | blobPtr | deletedPtr | evaluate() takes. */
  readonly blobPtr: number;
  readonly descPtr: number;
  readonly deletedPtr: number;
  #termIds: Map<string, number> | null = null;
  /** Every dictionary entry present (no holes): termId searches `terms`; null = not checked yet. */
  #dense: boolean | null = null;
  #live: number;
  #colType: number[] = [];
  #colOff: number[] = [];
  /** Word index of the term table in core memory (fixed once placed: the planner reads it per keyword per segment). */
  readonly #termTable: number;
  /**
   * Views of core memory over the blob and the deleted bitmap, kept between calls: Core's getters
   * read WebAssembly.Memory#buffer (a call into the runtime) each time, which was most of the cost
   * of a dictionary read, a deleted-row test or a column read (per row in filters, id maps, merges).
   * Growing a non-shared memory detaches the old views (length 0: fetched again); a shared memory's
   * old views still cover this segment's memory, allocated before any later growth.
   */
  #mem: MemoryViews;
  #freed = false;
  /** Queries running on worker threads that read this segment: free() waits for the last one. */
  #pins = 0;
  #freeWhenUnpinned = false;
  #version = 0;
  /** Changes per attribute (UPDATE), so what is derived from one attribute's values knows when to rebuild. */
  #attrVersion: number[] = [];
  #derived = new Map<string, { version: number; ptrs: number[]; data: unknown }>();
  /** Derived allocations replaced while worker threads read this segment: freed once they are done. */
  #retired: number[] = [];

  constructor(core: Core, schema: IndexSchema, built: BuiltSegment, deleted?: Uint8Array) {
    this.core = core;
    this.schema = schema;
    this.terms = built.terms;
    this.hostCols = built.hostCols;
    this.blobLen = built.blob.length;
    this.blobPtr = core.place(built.blob);
    this.rows = core.u32[(this.blobPtr >>> 2) + H.rows];
    const bitmapBytes = Math.max(16, (this.rows + 7) >>> 3);
    this.deletedPtr = 0;
    try {
      this.deletedPtr = core.alloc(bitmapBytes);
      this.descPtr = core.alloc(16);
    } catch (e) {
      // near the cap (a merge's swap): what was placed goes back, else each failed attempt leaks a blob
      core.free(this.deletedPtr);
      core.free(this.blobPtr);
      throw e;
    }
    core.u8.fill(0, this.deletedPtr, this.deletedPtr + bitmapBytes);
    core.u32[this.descPtr >>> 2] = this.blobPtr;
    core.u32[(this.descPtr >>> 2) + 1] = this.deletedPtr;
    const cols = core.u32[(this.blobPtr >>> 2) + H.cols];
    const table = (this.blobPtr + core.u32[(this.blobPtr >>> 2) + H.colTable]) >>> 2;
    for (let c = 0; c < cols; c++) {
      this.#colType.push(core.u32[table + 2 * c]);
      this.#colOff.push(core.u32[table + 2 * c + 1]);
    }
    this.#mem = viewsOf(core);
    this.#termTable = (this.blobPtr + core.u32[(this.blobPtr >>> 2) + H.termTable]) >>> 2;
    this.#live = this.rows;
    if (deleted) {
      core.u8.set(deleted.subarray(0, (this.rows + 7) >>> 3), this.deletedPtr);
      let dead = 0;
      for (let r = 0; r < this.rows; r++) if (this.isDeleted(r)) dead++;
      this.#live -= dead;
    }
  }

  get live(): number { return this.#live; }

  #idsAscending: boolean | undefined;
  /**
   * Whether the ids ascend with the rows (auto ids, and merges of such segments in order): ties go to
   * the lower id, so the core's pruning may then drop a row of a bound equal to the K-th weight (it
   * comes after the K kept, with a higher id). Ids never change in a segment: read once.
   */
  get idsAscending(): boolean {
    if (this.#idsAscending === undefined) {
      const col = this.columnPtr(0) >>> 3;
      const ids = this.#views().i64;
      let ok = true;
      for (let r = 1; r < this.rows && ok; r++) ok = ids[col + r - 1] < ids[col + r];
      this.#idsAscending = ok;
    }
    return this.#idsAscending;
  }

  /** Word view of the core memory holding the blob (a merge's MergePart). */
  words(): Uint32Array { return this.#views().u32; }

  /** The kept views, fetched again when a memory growth detached them. */
  #views(): MemoryViews {
    const v = this.#mem;
    return v.u8.length !== 0 ? v : (this.#mem = viewsOf(this.core));
  }

  /** Bumped by every change to the deleted bitmap or an attribute: checkpoints keep unchanged files. */
  get version(): number { return this.#version; }

  /**
   * Term number in this segment's dictionary, or -1: a binary search of the sorted dictionary (a Map
   * of every term cost 184 ms to build for a 100k-document gcide segment, paid by the first query
   * after each merge, and held tens of MiB); a dictionary still loading (addTerms) has holes and
   * keeps a Map of what it has.
   */
  termId(term: string): number {
    this.#dense ??= !this.#termIds && isDense(this.terms);
    if (this.#dense) return indexOfSorted(this.terms, term);
    if (!this.#termIds) {
      // forEach skips the holes of a dictionary still loading (addTerms)
      const ids = new Map<string, number>();
      this.terms.forEach((t, i) => ids.set(t, i));
      this.#termIds = ids;
    }
    return this.#termIds.get(term) ?? -1;
  }

  /**
   * Fills dictionary entries `start...` of a segment opened with a partial dictionary (a page
   * fetching it in chunks; their term-table rows are written into the blob by the caller).
   */
  addTerms(start: number, list: readonly string[]): void {
    this.#dense = false;
    list.forEach((t, i) => {
      this.terms[start + i] = t;
      this.#termIds?.set(t, start + i);
    });
  }

  /** One word of term `t`'s table row (the table's place computed at construction). */
  #termInfo(t: number, word: number): number {
    return this.#views().u32[this.#termTable + t * TERM_INFO_WORDS + word];
  }

  /** Rows containing term `t` (deleted ones included, as Manticore's dictionary counts them). */
  docFreq(t: number): number { return this.#termInfo(t, 0); }
  /** Hits of term `t` over all rows. */
  hitCount(t: number): number { return this.#termInfo(t, 1); }

  isDeleted(row: number): boolean {
    return ((this.#views().u8[this.deletedPtr + (row >>> 3)] >>> (row & 7)) & 1) === 1;
  }

  /** Marks a row deleted; false when it already was. */
  markDeleted(row: number): boolean {
    if (this.isDeleted(row)) return false;
    this.#views().u8[this.deletedPtr + (row >>> 3)] |= 1 << (row & 7);
    this.#live--;
    this.#version++;
    return true;
  }

  /** The deleted-rows bitmap (a copy). */
  deletedBitmap(): Uint8Array {
    return this.core.read(this.deletedPtr, (this.rows + 7) >>> 3);
  }

  docId(row: number): bigint {
    return this.#readCol(0, row) as bigint;
  }

  /** Address of core column `c` (0 = id, attribute i = i+1), or 0 when it lives in JS. */
  columnPtr(c: number): number {
    return this.#colType[c] === COL_NONE ? 0 : this.blobPtr + this.#colOff[c];
  }

  columnType(c: number): number { return this.#colType[c] ?? COL_NONE; }

  #readCol(c: number, row: number): number | bigint {
    const p = this.blobPtr + this.#colOff[c];
    const v = this.#views();
    switch (this.#colType[c]) {
      case COL_U32: return v.u32[(p >>> 2) + row];
      case COL_I64: return v.i64[(p >>> 3) + row];
      case COL_F32: return v.f32[(p >>> 2) + row];
      default: return 0;
    }
  }

  /** Attribute `a` (schema order) of `row`. */
  attr(a: number, row: number): AttrValue {
    const host = this.hostCols[a];
    if (host) return host[row];
    return this.#readCol(a + 1, row);
  }

  /**
   * A reader of attribute `a` (-1: the document id) bound to this segment's column: no per-call
   * dispatch, for loops over many rows (grouping). Valid while core memory does not grow.
   */
  attrReader(a: number): (row: number) => AttrValue {
    if (a < 0) return (row) => this.docId(row);
    const host = this.hostCols[a];
    if (host) return (row) => host[row] ?? null;
    const p = this.blobPtr + this.#colOff[a + 1];
    switch (this.#colType[a + 1]) {
      case COL_U32: { const arr = this.core.u32; const b = p >>> 2; return (row) => arr[b + row]; }
      case COL_F32: { const arr = this.core.f32; const b = p >>> 2; return (row) => arr[b + row]; }
      case COL_I64: { const arr = this.core.i64; const b = p >>> 3; return (row) => arr[b + row]; }
      default: return () => 0;
    }
  }

  /**
   * Core memory derived from attribute `a`'s values (grouping's string ranks, MVA offsets): made by
   * `build` on first use and again after the attribute changed, freed with the segment. `build`
   * returns its allocations and what the caller keeps beside them.
   */
  derived<T>(key: string, a: number, build: () => { ptrs: number[]; data: T }): { ptrs: number[]; data: T } {
    const version = this.#attrVersion[a] ?? 0;
    const hit = this.#derived.get(key);
    if (hit && hit.version === version) return hit as { ptrs: number[]; data: T };
    if (hit) this.#retire(hit.ptrs);
    const made = build();
    this.#derived.set(key, { version, ...made });
    return made;
  }

  #retire(ptrs: number[]): void {
    if (this.#pins > 0) this.#retired.push(...ptrs);
    else for (const p of ptrs) this.core.free(p);
  }

  /** Writes attribute `a` of `row`: numeric ones in place in the blob, others in the host column. */
  setAttr(a: number, row: number, v: AttrValue): void {
    this.#version++;
    this.#attrVersion[a] = (this.#attrVersion[a] ?? 0) + 1;
    const host = this.hostCols[a];
    if (host) { host[row] = v; return; }
    const p = this.blobPtr + this.#colOff[a + 1];
    const m = this.#views();
    switch (this.#colType[a + 1]) {
      case COL_U32: m.u32[(p >>> 2) + row] = typeof v === 'bigint' ? Number(BigInt.asUintN(32, v)) : Number(v ?? 0) >>> 0; break;
      case COL_I64: m.i64[(p >>> 3) + row] = BigInt.asIntN(64, BigInt((v as number | bigint | null) ?? 0)); break;
      case COL_F32: m.f32[(p >>> 2) + row] = Number(v ?? 0); break;
    }
  }

  /** The blob with current column values (a copy), for checkpoints. */
  blobBytes(): Uint8Array {
    return this.core.read(this.blobPtr, this.blobLen);
  }

  /** Copies the blob (current column values) into `out` at `at`: a file image without a second copy. */
  copyBlobInto(out: Uint8Array, at: number, from = 0, to = this.blobLen): void {
    out.set(this.core.u8.subarray(this.blobPtr + from, this.blobPtr + to), at + from);
  }

  /** Field lengths of `row` (tokens per field). */
  fieldLengths(row: number): Uint32Array {
    const u32 = this.#views().u32;
    const off = u32[(this.blobPtr >>> 2) + H.fieldLen];
    const nf = this.schema.fields.length;
    const at = ((this.blobPtr + off) >>> 2) + row * nf;
    return u32.slice(at, at + nf);
  }

  /** Copies the field lengths of `row` into `out` at `at` (no allocation; merges copy every row's). */
  copyFieldLengths(row: number, out: Uint32Array, at: number): void {
    const u32 = this.#views().u32;
    const nf = this.schema.fields.length;
    const from = ((this.blobPtr + u32[(this.blobPtr >>> 2) + H.fieldLen]) >>> 2) + row * nf;
    for (let f = 0; f < nf; f++) out[at + f] = u32[from + f];
  }

  /** Whether a reader holds it: free() would keep its memory until the last unpin. */
  get pinned(): boolean {
    return this.#pins > 0;
  }

  /** Keeps the blob alive while a worker thread reads it (a merge may replace the segment meanwhile). */
  pin(): void {
    this.#pins++;
  }

  unpin(): void {
    if (--this.#pins > 0) return;
    for (const p of this.#retired.splice(0)) this.core.free(p);
    if (this.#freeWhenUnpinned) this.free();
  }

  /** Returns the core memory this segment holds (once no query reads it); it must not be used afterwards. */
  free(): void {
    if (this.#freed) return;
    if (this.#pins > 0) {
      this.#freeWhenUnpinned = true;
      return;
    }
    this.#freed = true;
    for (const d of this.#derived.values()) for (const p of d.ptrs) this.core.free(p);
    this.#derived.clear();
    for (const p of this.#retired.splice(0)) this.core.free(p);
    this.core.free(this.blobPtr);
    this.core.free(this.deletedPtr);
    this.core.free(this.descPtr);
  }
}
