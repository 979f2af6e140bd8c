import { keepShape } from '../../util/shape-keeper.js';

/**
 * A growable little-endian byte buffer for building segment blobs. Invariant: every byte at or past
 * `length` is zero (fresh buffers are, growth copies only [0, length), and writes go to reserved
 * ranges), so reserving and padding need no fill.
 */
export class ByteWriter {
  bytes: Uint8Array;
  view: DataView;
  /** Word view of the same buffer (re-made on growth); index = byte offset / 4. */
  words32: Uint32Array;
  length = 0;

  /**
   * `capacity`: the bytes expected (a good guess saves the copies of growing by doubling, and the
   * trail of large freed buffers that malloc keeps: a merge's blob is tens of MiB).
   */
  constructor(capacity = 1 << 16) {
    this.bytes = new Uint8Array(Math.max(64, Math.ceil(capacity / 8) * 8));
    this.view = new DataView(this.bytes.buffer);
    this.words32 = new Uint32Array(this.bytes.buffer);
  }

  ensure(extra: number): void {
    const need = this.length + extra;
    if (need <= this.bytes.length) return;
    let cap = this.bytes.length;
    while (cap < need) cap = Math.ceil((cap * 1.5) / 8) * 8;
    const next = new Uint8Array(cap);
    next.set(this.bytes.subarray(0, this.length));
    this.bytes = next;
    this.view = new DataView(next.buffer);
    this.words32 = new Uint32Array(next.buffer);
  }

  /** Pads with zeros to a multiple of `n` bytes. */
  align(n: number): number {
    const pad = (n - (this.length % n)) % n;
    this.ensure(pad);
    this.length += pad;
    return this.length;
  }

  /** Reserves `n` zeroed bytes; returns their offset. */
  reserve(n: number): number {
    this.ensure(n);
    const at = this.length;
    this.length += n;
    return at;
  }

  u32(v: number): void {
    this.ensure(4);
    this.view.setUint32(this.length, v >>> 0, true);
    this.length += 4;
  }

  setU32(at: number, v: number): void {
    this.view.setUint32(at, v >>> 0, true);
  }

  words(w: Uint32Array): void {
    this.ensure(w.byteLength);
    if (this.length % 4 === 0) this.words32.set(w, this.length >>> 2);
    else this.bytes.set(new Uint8Array(w.buffer, w.byteOffset, w.byteLength), this.length);
    this.length += w.byteLength;
  }

  /**
   * The bytes written, as a view of the writer's buffer (no copy: a segment blob is copied once,
   * into the core, and a second copy of it here was a large transient allocation per merge).
   */
  finish(): Uint8Array {
    return this.bytes.subarray(0, this.length);
  }
}

// the seal's writers' map kept between seals (shape-keeper.ts)
keepShape(new ByteWriter(64));
