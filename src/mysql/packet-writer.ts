/** Builds a whole response (one or more MySQL packets) in one buffer, so it leaves in one socket write. */
import { keepShape } from '../util/shape-keeper.js';

/** Largest payload of one packet; a longer payload continues in the next packet. */
export const MAX_PAYLOAD = 0xffffff;
/**
 * First size of the growable buffer: OK and ERR replies and small result sets fit. Under half of
 * Buffer.poolSize, so it is a slice of Node's shared pool: at 4096 every command (every INSERT's OK)
 * allocated an ArrayBuffer of its own, native memory the GC must track and free.
 */
const INITIAL_BYTES = 2048;
const HEADER_BYTES = 4;

/** An OK packet's most bytes: header 4, 0x00, two length-encoded integers of up to 9, status and warnings 2 each. */
export const OK_REPLY_BYTES = 27;

export class PacketWriter {
  #buf: Buffer;
  #len = 0;
  #start = -1;
  /** Sequence id of the next packet; wraps at 256. */
  seq: number;

  /** `size`: the buffer's first size (it grows as needed). */
  constructor(seq = 0, size = INITIAL_BYTES) {
    this.seq = seq;
    this.#buf = Buffer.allocUnsafe(size);
  }

  get length(): number {
    return this.#len;
  }

  #ensure(extra: number): void {
    if (this.#len + extra <= this.#buf.length) return;
    let size = this.#buf.length * 2;
    while (size < this.#len + extra) size *= 2;
    const next = Buffer.allocUnsafe(size);
    this.#buf.copy(next, 0, 0, this.#len);
    this.#buf = next;
  }

  /** Starts a packet: the header is written by end(), once the payload length is known. */
  begin(): this {
    if (this.#start >= 0) throw new Error('packet already open');
    this.#ensure(HEADER_BYTES);
    this.#start = this.#len;
    this.#len += HEADER_BYTES;
    return this;
  }

  /** Closes the open packet; a payload of 16M or more is split into continuation packets. */
  end(): this {
    const start = this.#start;
    if (start < 0) throw new Error('no open packet');
    this.#start = -1;
    const size = this.#len - start - HEADER_BYTES;
    if (size < MAX_PAYLOAD) {
      this.#writeHeader(start, size);
      return this;
    }
    const payload = Buffer.from(this.#buf.subarray(start + HEADER_BYTES, this.#len));
    this.#len = start;
    for (let off = 0; ; off += MAX_PAYLOAD) {
      const part = payload.subarray(off, off + MAX_PAYLOAD);
      this.#ensure(HEADER_BYTES + part.length);
      this.#writeHeader(this.#len, part.length);
      this.#len += HEADER_BYTES;
      part.copy(this.#buf, this.#len);
      this.#len += part.length;
      if (part.length < MAX_PAYLOAD) return this;
    }
  }

  #writeHeader(at: number, size: number): void {
    this.#buf.writeUIntLE(size, at, 3);
    this.#buf[at + 3] = this.seq;
    this.seq = (this.seq + 1) & 0xff;
  }

  u8(v: number): this {
    this.#ensure(1);
    this.#buf[this.#len++] = v & 0xff;
    return this;
  }

  u16(v: number): this {
    this.#ensure(2);
    this.#buf.writeUInt16LE(v & 0xffff, this.#len);
    this.#len += 2;
    return this;
  }

  u32(v: number): this {
    this.#ensure(4);
    this.#buf.writeUInt32LE(v >>> 0, this.#len);
    this.#len += 4;
    return this;
  }

  u64(v: bigint): this {
    this.#ensure(8);
    this.#buf.writeBigUInt64LE(BigInt.asUintN(64, v), this.#len);
    this.#len += 8;
    return this;
  }

  /**
   * A length-encoded integer, unsigned 64-bit: a negative value (a negative id stored by a quarry before
   * INSERT refused them, as an OK packet's last insert id) is written as its two's complement in 9 bytes,
   * as MySQL's unsigned field holds it; written as one byte it was 0xff, an ERR marker, and broke the packet.
   */
  lenenc(v: number | bigint): this {
    // the usual small count or id: no BigInt made
    if (typeof v === 'number' && v >= 0 && v < 251 && (v | 0) === v) return this.u8(v);
    const n = BigInt.asUintN(64, BigInt(v));
    if (n < 251n) return this.u8(Number(n));
    if (n < 0x10000n) return this.u8(0xfc).u16(Number(n));
    if (n < 0x1000000n) {
      this.u8(0xfd);
      this.#ensure(3);
      this.#buf.writeUIntLE(Number(n), this.#len, 3);
      this.#len += 3;
      return this;
    }
    return this.u8(0xfe).u64(n);
  }

  bytes(b: Uint8Array): this {
    this.#ensure(b.length);
    this.#buf.set(b, this.#len);
    this.#len += b.length;
    return this;
  }

  /** UTF-8 text without a length. */
  text(s: string): this {
    const max = Buffer.byteLength(s);
    this.#ensure(max);
    this.#len += this.#buf.write(s, this.#len, 'utf8');
    return this;
  }

  /** A length-encoded string. */
  lenencText(s: string): this {
    return this.lenenc(Buffer.byteLength(s)).text(s);
  }

  /** A NUL-terminated string. */
  nulText(s: string): this {
    return this.text(s).u8(0);
  }

  /** The finished bytes (a view: do not keep the writer writing afterwards). */
  finish(): Buffer {
    if (this.#start >= 0) throw new Error('packet still open');
    return this.#buf.subarray(0, this.#len);
  }
}

// the writer's map kept between bursts of commands (util/shape-keeper.ts): its methods and the reply
// paths inlining them were compiled again after each idle collection; an empty buffer, no pool slice
keepShape(new PacketWriter(0, 0));
