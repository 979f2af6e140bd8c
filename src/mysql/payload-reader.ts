/** Reads fields of one MySQL packet payload; reading past its end throws a ProtocolError. */

/** A malformed packet: the connection answers with an ERR and carries on or closes. */
export class ProtocolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ProtocolError';
  }
}

export class PayloadReader {
  pos: number;
  constructor(readonly buf: Buffer, pos = 0) {
    this.pos = pos;
  }

  get remaining(): number {
    return this.buf.length - this.pos;
  }

  #need(n: number): void {
    if (this.pos + n > this.buf.length) throw new ProtocolError('packet too short');
  }

  u8(): number {
    this.#need(1);
    return this.buf[this.pos++]!;
  }

  u16(): number {
    this.#need(2);
    const v = this.buf.readUInt16LE(this.pos);
    this.pos += 2;
    return v;
  }

  u32(): number {
    this.#need(4);
    const v = this.buf.readUInt32LE(this.pos);
    this.pos += 4;
    return v;
  }

  u64(): bigint {
    this.#need(8);
    const v = this.buf.readBigUInt64LE(this.pos);
    this.pos += 8;
    return v;
  }

  /** A length-encoded integer; null for the NULL marker 0xfb. */
  lenenc(): number | null {
    const first = this.u8();
    if (first < 0xfb) return first;
    if (first === 0xfb) return null;
    if (first === 0xfc) return this.u16();
    if (first === 0xfd) {
      this.#need(3);
      const v = this.buf.readUIntLE(this.pos, 3);
      this.pos += 3;
      return v;
    }
    if (first === 0xfe) {
      const v = this.u64();
      if (v > BigInt(Number.MAX_SAFE_INTEGER)) throw new ProtocolError('length out of range');
      return Number(v);
    }
    throw new ProtocolError('bad length prefix');
  }

  bytes(n: number): Buffer {
    this.#need(n);
    const b = this.buf.subarray(this.pos, this.pos + n);
    this.pos += n;
    return b;
  }

  /** A length-encoded byte string. */
  lenencBytes(): Buffer {
    return this.bytes(this.lenenc() ?? 0);
  }

  /** A NUL-terminated string; the rest of the payload when the NUL is missing. */
  nulText(): string {
    const end = this.buf.indexOf(0, this.pos);
    const stop = end < 0 ? this.buf.length : end;
    const s = this.buf.toString('utf8', this.pos, stop);
    this.pos = end < 0 ? stop : stop + 1;
    return s;
  }

  rest(): Buffer {
    const b = this.buf.subarray(this.pos);
    this.pos = this.buf.length;
    return b;
  }
}
