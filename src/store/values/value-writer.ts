/** Encodes storable values into a growing buffer in the value codec's format (value-format.ts). */
import { SearchError } from '../../util/errors.js';
import { fitsI64, INITIAL_CAPACITY, MAX_DEPTH, SHORT_STRING, Tag, varintSize } from './value-format.js';

/** Appends values to a growing buffer; `finish()` returns a copy of the bytes written. */
export class ValueWriter {
  buf = Buffer.allocUnsafe(INITIAL_CAPACITY);
  pos = 0;
  /**
   * A view of `buf`'s memory for its 64-bit writes: DataView#setBigInt64 is a builtin, where
   * Buffer#writeBigInt64LE splits the value with BigInt arithmetic in JS (a /bulk body's op record
   * has one per document). Made at the first such write (most writers never make one), dropped with `buf`.
   */
  #view: DataView | null = null;

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
    this.#view = null;
  }

  byte(b: number): void {
    this.ensure(1);
    this.buf[this.pos++] = b;
  }

  varint(n: number): void {
    this.ensure(5);
    while (n >= 0x80) {
      this.buf[this.pos++] = (n & 0x7f) | 0x80;
      n >>>= 7;
    }
    this.buf[this.pos++] = n;
  }

  /**
   * Eight bytes little-endian through the DataView (#view): Buffer#writeBigInt64LE splits its value with
   * BigInt operations that each allocate (15 MB of garbage over a 126k-row import, one id per op record)
   * and throws RangeError outside 64 bits, as this does.
   */
  i64(v: bigint): void {
    if (!fitsI64(v)) throw new RangeError(`The value of "value" is out of range. Received ${v}n`);
    this.ensure(8);
    const buf = this.buf;
    (this.#view ??= new DataView(buf.buffer, buf.byteOffset, buf.byteLength)).setBigInt64(this.pos, v, true);
    this.pos += 8;
  }

  /** A length-prefixed UTF-8 string: encoded in place, then shifted if the prefix was over-reserved. */
  str(s: string): void {
    if (s.length <= SHORT_STRING && this.ascii(s)) return;
    const max = s.length * 3;
    const reserved = varintSize(max);
    this.ensure(reserved + max);
    const start = this.pos + reserved;
    const len = this.buf.write(s, start, 'utf8');
    const need = varintSize(len);
    if (need < reserved) this.buf.copyWithin(this.pos + need, start, start + len);
    this.varint(len);
    this.pos += len;
  }

  /** Short ASCII strings byte by byte: cheaper than a call into Buffer#write. False if not ASCII. */
  private ascii(s: string): boolean {
    const n = s.length;
    this.ensure(n + 1);
    const buf = this.buf;
    const at = this.pos + 1;
    for (let i = 0; i < n; i++) {
      const c = s.charCodeAt(i);
      if (c >= 0x80) return false;
      buf[at + i] = c;
    }
    buf[this.pos] = n; // n <= SHORT_STRING < 0x80: a one-byte varint
    this.pos = at + n;
    return true;
  }

  value(v: unknown, depth = 0): void {
    switch (typeof v) {
      case 'number': return this.number(v);
      case 'string': this.byte(Tag.STR); return this.str(v);
      case 'bigint': return this.bigint(v);
      case 'boolean': return this.byte(v ? Tag.TRUE : Tag.FALSE);
      case 'undefined': return this.byte(Tag.UNDEF);
      case 'object': return this.object(v, depth);
      default: throw new SearchError('BAD_VALUE', `cannot store a value of type ${typeof v}`);
    }
  }

  /** A copy of the bytes written. */
  finish(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.pos));
  }

  /** The bytes written, without copying: valid until the next write or reset. */
  view(): Buffer {
    return this.buf.subarray(0, this.pos);
  }

  reset(): this {
    this.pos = 0;
    return this;
  }

  private number(v: number): void {
    if (Number.isInteger(v) && v >= -0x80000000 && v <= 0x7fffffff && !Object.is(v, -0)) {
      this.byte(Tag.INT);
      this.varint(((v << 1) ^ (v >> 31)) >>> 0);
      return;
    }
    this.byte(Tag.F64);
    this.ensure(8);
    this.buf.writeDoubleLE(v, this.pos);
    this.pos += 8;
  }

  private bigint(v: bigint): void {
    if (fitsI64(v)) {
      this.byte(Tag.I64);
      return this.i64(v);
    }
    this.byte(Tag.BIGSTR);
    this.str(v.toString());
  }

  private object(v: object | null, depth: number): void {
    if (v === null) return this.byte(Tag.NULL);
    if (depth >= MAX_DEPTH) throw new SearchError('BAD_VALUE', 'value nested too deeply to store');
    if (v instanceof Uint8Array) {
      this.byte(Tag.BYTES);
      this.varint(v.length);
      this.ensure(v.length);
      this.buf.set(v, this.pos);
      this.pos += v.length;
      return;
    }
    if (Array.isArray(v)) return this.array(v, depth);
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) {
      throw new SearchError('BAD_VALUE', `cannot store an object of class ${proto?.constructor?.name}`);
    }
    const o = v as Record<string, unknown>;
    const keys = Object.keys(o);
    let count = 0;
    for (const k of keys) if (o[k] !== undefined) count++;
    this.byte(Tag.OBJ);
    this.varint(count);
    for (const k of keys) {
      const x = o[k];
      if (x === undefined) continue;
      this.str(k);
      this.value(x, depth + 1);
    }
  }

  private array(v: unknown[], depth: number): void {
    if (v.length > 0 && v.every((x) => typeof x === 'bigint' && fitsI64(x))) {
      this.byte(Tag.I64ARR);
      this.varint(v.length);
      for (const x of v as bigint[]) this.i64(x);
      return;
    }
    this.byte(Tag.ARR);
    this.varint(v.length);
    for (const x of v) this.value(x, depth + 1);
  }
}
