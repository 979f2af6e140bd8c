/**
 * The binary API's byte layer (Sphinx/Manticore searchd protocol): every integer is big-endian,
 * a string is a u32 length and its bytes. A reader that runs past its buffer records the fact
 * instead of throwing, so a handler can answer "invalid or truncated request" as searchd does.
 */

/** Commands a client or master sends (searchd's SEARCHD_COMMAND_*). */
export const Cmd = { SEARCH: 0, EXCERPT: 1, UPDATE: 2, KEYWORDS: 3, PERSIST: 4, STATUS: 5, FLUSHATTRS: 7, SPHINXQL: 8, PING: 9 } as const;

/** Reply statuses (SEARCHD_OK ... SEARCHD_WARNING). */
export const Status = { OK: 0, ERROR: 1, RETRY: 2, WARNING: 3 } as const;

/**
 * The command versions quarry answers with: Sphinx 2.2.11's, except SEARCH, read up to Manticore's
 * 0x128 (clients only warn when a reply's version is older than theirs).
 */
export const ServedVersion: Record<number, number> = {
  [Cmd.SEARCH]: 0x128, [Cmd.EXCERPT]: 0x104, [Cmd.UPDATE]: 0x103, [Cmd.KEYWORDS]: 0x100,
  [Cmd.STATUS]: 0x101, [Cmd.FLUSHATTRS]: 0x100, [Cmd.SPHINXQL]: 0x100, [Cmd.PING]: 0x100,
};

export class ApiReader {
  private pos = 0;
  truncated = false;
  constructor(private readonly buf: Buffer) {}

  private take(n: number): number {
    const at = this.pos;
    if (at + n > this.buf.length) {
      this.truncated = true;
      this.pos = this.buf.length;
      return -1;
    }
    this.pos += n;
    return at;
  }

  u8(): number { const at = this.take(1); return at < 0 ? 0 : this.buf.readUInt8(at); }
  u32(): number { const at = this.take(4); return at < 0 ? 0 : this.buf.readUInt32BE(at); }
  i32(): number { const at = this.take(4); return at < 0 ? 0 : this.buf.readInt32BE(at); }
  u64(): bigint { const at = this.take(8); return at < 0 ? 0n : this.buf.readBigUInt64BE(at); }
  i64(): bigint { const at = this.take(8); return at < 0 ? 0n : this.buf.readBigInt64BE(at); }
  f32(): number { const at = this.take(4); return at < 0 ? 0 : this.buf.readFloatBE(at); }

  str(): string {
    const n = this.u32();
    if (n > this.buf.length) { this.truncated = true; return ''; }
    const at = this.take(n);
    return at < 0 ? '' : this.buf.toString('utf8', at, at + n);
  }

  /** A u32 count, refused (truncated) when it cannot fit in what is left at `unit` bytes each. */
  count(unit: number): number {
    const n = this.u32();
    if (n * unit > this.buf.length - this.pos) { this.truncated = true; return 0; }
    return n;
  }

  get remaining(): number { return this.buf.length - this.pos; }
}

export class ApiWriter {
  private parts: Buffer[] = [];

  u8(v: number): this { const b = Buffer.alloc(1); b.writeUInt8(v & 0xff); this.parts.push(b); return this; }
  u16(v: number): this { const b = Buffer.alloc(2); b.writeUInt16BE(v & 0xffff); this.parts.push(b); return this; }
  u32(v: number): this { const b = Buffer.alloc(4); b.writeUInt32BE(v >>> 0); this.parts.push(b); return this; }
  u64(v: bigint): this { const b = Buffer.alloc(8); b.writeBigUInt64BE(BigInt.asUintN(64, v)); this.parts.push(b); return this; }
  f32(v: number): this { const b = Buffer.alloc(4); b.writeFloatBE(v); this.parts.push(b); return this; }
  str(s: string): this {
    const bytes = Buffer.from(s, 'utf8');
    this.u32(bytes.length);
    this.parts.push(bytes);
    return this;
  }
  bytes(): Buffer { return Buffer.concat(this.parts); }
}

/** One reply: header (status, version, length) and body, in one buffer so it goes out in one write. */
export function reply(status: number, version: number, body: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt16BE(status, 0);
  head.writeUInt16BE(version, 2);
  head.writeUInt32BE(body.length, 4);
  return Buffer.concat([head, body]);
}

/** searchd's error reply: status ERROR and the message as a string. */
export function errorReply(version: number, message: string): Buffer {
  return reply(Status.ERROR, version, new ApiWriter().str(message).bytes());
}
