/** Exact binary codec for stored values: bigint stays bigint, number stays number, 64-bit included. */
import { SearchError } from '../util/errors.js';

/*
 * Layout: one tag byte, then the payload. Lengths and counts are unsigned LEB128 varints.
 *   NULL | UNDEF | FALSE | TRUE
 *   INT    zigzag varint      a number that is an integer in int32 range (and not -0)
 *   F64    8 bytes LE         any other number
 *   I64    8 bytes LE         a bigint in signed 64-bit range
 *   BIGSTR len, ascii         a wider bigint, as decimal text
 *   STR    len, utf8
 *   I64ARR n, n x 8 bytes LE  a bigint[] whose items all fit 64 bits (mva/mva64 values)
 *   ARR    n, n values
 *   OBJ    n, n x (key: len, utf8; value)
 *   BYTES  len, raw           a Uint8Array
 */
const enum Tag { NULL, UNDEF, FALSE, TRUE, INT, F64, I64, BIGSTR, STR, I64ARR, ARR, OBJ, BYTES }

const I64_MIN = -(1n << 63n);
const I64_MAX = (1n << 63n) - 1n;
/** First buffer size of an encoder; it doubles as needed. */
const INITIAL_CAPACITY = 512;
/** Strings up to this many chars are tried as ASCII in JS (must stay below 0x80). */
const SHORT_STRING = 64;
/** Objects nested deeper than this are refused (a cycle would otherwise recurse forever). */
const MAX_DEPTH = 64;

export function fitsI64(v: bigint): boolean {
  return v >= I64_MIN && v <= I64_MAX;
}

/** Appends values to a growing buffer; `finish()` returns a copy of the bytes written. */
export class ValueWriter {
  buf = Buffer.allocUnsafe(INITIAL_CAPACITY);
  pos = 0;

  ensure(n: number): void {
    if (this.pos + n <= this.buf.length) return;
    let size = this.buf.length * 2;
    while (size < this.pos + n) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.buf.copy(next, 0, 0, this.pos);
    this.buf = next;
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

  i64(v: bigint): void {
    this.ensure(8);
    this.buf.writeBigInt64LE(v, this.pos);
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

function varintSize(n: number): number {
  return n < 0x80 ? 1 : n < 0x4000 ? 2 : n < 0x200000 ? 3 : n < 0x10000000 ? 4 : 5;
}

/** Reads values written by ValueWriter from a buffer, starting at `pos`. */
export class ValueReader {
  constructor(readonly buf: Buffer, public pos = 0) {}

  varint(): number {
    let n = 0;
    let shift = 0;
    for (;;) {
      const b = this.buf[this.pos++];
      if (b === undefined) throw corrupt();
      n += (b & 0x7f) * 2 ** shift;
      if (b < 0x80) return n;
      shift += 7;
    }
  }

  i64(): bigint {
    const v = this.buf.readBigInt64LE(this.pos);
    this.pos += 8;
    return v;
  }

  str(): string {
    const len = this.varint();
    const end = this.pos + len;
    if (end > this.buf.length) throw corrupt();
    const s = len <= SHORT_STRING ? this.shortStr(end) : this.buf.toString('utf8', this.pos, end);
    this.pos = end;
    return s;
  }

  /** Short strings decoded in JS when ASCII: cheaper than a call into Buffer#toString. */
  private shortStr(end: number): string {
    const buf = this.buf;
    let s = '';
    for (let i = this.pos; i < end; i++) {
      const c = buf[i];
      if (c >= 0x80) return buf.toString('utf8', this.pos, end);
      s += String.fromCharCode(c);
    }
    return s;
  }

  value(): unknown {
    const tag = this.buf[this.pos++];
    switch (tag) {
      case Tag.NULL: return null;
      case Tag.UNDEF: return undefined;
      case Tag.FALSE: return false;
      case Tag.TRUE: return true;
      case Tag.INT: { const z = this.varint(); return (z >>> 1) ^ -(z & 1); }
      case Tag.F64: { const v = this.buf.readDoubleLE(this.pos); this.pos += 8; return v; }
      case Tag.I64: return this.i64();
      case Tag.BIGSTR: return BigInt(this.str());
      case Tag.STR: return this.str();
      case Tag.I64ARR: return this.i64Array();
      case Tag.ARR: return this.array();
      case Tag.OBJ: return this.object();
      case Tag.BYTES: return this.bytes();
      default: throw corrupt();
    }
  }

  private i64Array(): bigint[] {
    const n = this.varint();
    const out = new Array<bigint>(n);
    for (let i = 0; i < n; i++) out[i] = this.i64();
    return out;
  }

  private array(): unknown[] {
    const n = this.varint();
    const out = new Array<unknown>(n);
    for (let i = 0; i < n; i++) out[i] = this.value();
    return out;
  }

  private object(): Record<string, unknown> {
    const n = this.varint();
    const out: Record<string, unknown> = {};
    for (let i = 0; i < n; i++) {
      const k = this.str();
      const v = this.value();
      // A plain assignment to "__proto__" would set the prototype instead of a property.
      if (k === '__proto__') Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
      else out[k] = v;
    }
    return out;
  }

  private bytes(): Uint8Array {
    const len = this.varint();
    if (this.pos + len > this.buf.length) throw corrupt();
    const out = new Uint8Array(this.buf.subarray(this.pos, this.pos + len));
    this.pos += len;
    return out;
  }
}

function corrupt(): SearchError {
  return new SearchError('INTERNAL', 'store: corrupt value encoding');
}

/** One value to bytes. */
export function encodeValue(v: unknown): Buffer {
  // One writer reused across calls; a re-entrant call (from a getter) gets its own.
  const w = sharedWriter ?? new ValueWriter();
  sharedWriter = undefined;
  try {
    w.reset().value(v);
    return w.finish();
  } finally {
    sharedWriter = w;
  }
}
let sharedWriter: ValueWriter | undefined = new ValueWriter();

/** Bytes written by encodeValue back to the value. */
export function decodeValue(buf: Buffer): unknown {
  const r = new ValueReader(buf);
  const v = r.value();
  if (r.pos !== buf.length) throw corrupt();
  return v;
}
