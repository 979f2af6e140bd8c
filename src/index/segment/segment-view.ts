/**
 * A read-only view of a placed segment from another thread (the merge thread): the blob read in the
 * core's shared memory where the owning thread placed it, the deleted rows from a snapshot. Host
 * columns (string, json, mva) are not here: attr() gives null for them.
 */
import type { MergePart } from './segment-merger.js';
import type { AttrValue, IndexSchema } from '../types.js';
import { COL_F32, COL_I64, COL_U32, H, TERM_INFO_WORDS } from './segment-layout.js';

export class SegmentView implements MergePart {
  readonly rows: number;
  readonly #u32: Uint32Array;
  readonly #i64: BigInt64Array;
  readonly #f32: Float32Array;
  readonly #colType: number[] = [];
  readonly #colAt: number[] = [];
  readonly #termTable: number;
  readonly #fieldLen: number;
  readonly #numFields: number;

  constructor(
    memory: ArrayBufferLike,
    schema: IndexSchema,
    readonly blobPtr: number,
    readonly terms: readonly string[],
    private readonly deleted: Uint8Array,
  ) {
    this.#u32 = new Uint32Array(memory);
    this.#i64 = new BigInt64Array(memory);
    this.#f32 = new Float32Array(memory);
    const hdr = blobPtr >>> 2;
    this.rows = this.#u32[hdr + H.rows];
    this.#numFields = schema.fields.length;
    this.#termTable = (blobPtr + this.#u32[hdr + H.termTable]) >>> 2;
    this.#fieldLen = (blobPtr + this.#u32[hdr + H.fieldLen]) >>> 2;
    const cols = this.#u32[hdr + H.cols];
    const table = (blobPtr + this.#u32[hdr + H.colTable]) >>> 2;
    for (let c = 0; c < cols; c++) {
      this.#colType.push(this.#u32[table + 2 * c]);
      this.#colAt.push(blobPtr + this.#u32[table + 2 * c + 1]);
    }
  }

  words(): Uint32Array { return this.#u32; }

  isDeleted(row: number): boolean {
    return ((this.deleted[row >>> 3] >>> (row & 7)) & 1) === 1;
  }

  #col(c: number, row: number): number | bigint | null {
    const p = this.#colAt[c];
    switch (this.#colType[c]) {
      case COL_U32: return this.#u32[(p >>> 2) + row];
      case COL_I64: return this.#i64[(p >>> 3) + row];
      case COL_F32: return this.#f32[(p >>> 2) + row];
      default: return null;
    }
  }

  docId(row: number): bigint { return this.#col(0, row) as bigint; }

  attr(a: number, row: number): AttrValue { return this.#col(a + 1, row); }

  copyFieldLengths(row: number, out: Uint32Array, at: number): void {
    const from = this.#fieldLen + row * this.#numFields;
    for (let f = 0; f < this.#numFields; f++) out[at + f] = this.#u32[from + f];
  }

  docFreq(t: number): number { return this.#u32[this.#termTable + t * TERM_INFO_WORDS]; }

  hitCount(t: number): number { return this.#u32[this.#termTable + t * TERM_INFO_WORDS + 1]; }
}
