/** Decodes values written by ValueWriter (format in value-format.ts). */
import { corrupt, SHORT_STRING, Tag } from './value-format.js';

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
