import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PacketFramer, PacketTooLargeError } from '../../../src/mysql/packet-framer.js';
import { MAX_PAYLOAD, OK_REPLY_BYTES, PacketWriter } from '../../../src/mysql/packet-writer.js';
import { writeOk } from '../../../src/mysql/responses.js';
import { PayloadReader, ProtocolError } from '../../../src/mysql/payload-reader.js';

describe('PacketWriter', () => {
  it('frames packets with length and consecutive sequence ids in one buffer', () => {
    const w = new PacketWriter(1);
    w.begin().u8(0).end();
    w.begin().text('abc').end();
    expect([...w.finish()]).toEqual([1, 0, 0, 1, 0, 3, 0, 0, 2, 97, 98, 99]);
    expect(w.seq).toBe(3);
  });

  it('holds the largest OK packet in OK_REPLY_BYTES, and grows past a small first size with the same bytes', () => {
    const ok = new PacketWriter(1, OK_REPLY_BYTES);
    writeOk(ok, 0xffff, Number.MAX_SAFE_INTEGER, -1n, 0xffff);
    expect(ok.finish().length).toBe(OK_REPLY_BYTES);
    const small = new PacketWriter(1, 4);
    const big = new PacketWriter(1);
    for (const w of [small, big]) w.begin().text('x'.repeat(5000)).lenenc(1n << 40n).end().begin().u8(7).end();
    expect(small.finish().equals(big.finish())).toBe(true);
  });

  it('wraps sequence ids at 256', () => {
    const w = new PacketWriter(255);
    w.begin().end().begin().end();
    expect([...w.finish()]).toEqual([0, 0, 0, 255, 0, 0, 0, 0]);
  });

  it('writes length-encoded integers that the reader reads back', () => {
    fc.assert(fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (n) => {
      const w = new PacketWriter();
      w.begin().lenenc(n).end();
      expect(new PayloadReader(w.finish(), 4).lenenc()).toBe(n);
    }));
  });

  it('writes a negative length-encoded integer as unsigned 64-bit, never as a one-byte 0xff marker', () => {
    const w = new PacketWriter();
    w.begin().lenenc(-1n).lenenc(-5).end();
    const payload = w.finish().subarray(4);
    expect(payload.length).toBe(18);
    expect([payload[0], payload[9]]).toEqual([0xfe, 0xfe]);
    expect(payload.readBigUInt64LE(1)).toBe((1n << 64n) - 1n);
    expect(payload.readBigUInt64LE(10)).toBe((1n << 64n) - 5n);
  });

  it('splits a payload of 16M or more into continuation packets that the framer joins', () => {
    const big = Buffer.alloc(MAX_PAYLOAD + 10, 7);
    const w = new PacketWriter(0);
    w.begin().bytes(big).end();
    const out = w.finish();
    expect(out.readUIntLE(0, 3)).toBe(MAX_PAYLOAD);
    expect(out.readUIntLE(4 + MAX_PAYLOAD, 3)).toBe(10);
    expect(out[4 + MAX_PAYLOAD + 3]).toBe(1);
    const f = new PacketFramer();
    f.push(out);
    const p = f.next()!;
    expect(p.payload.length).toBe(big.length);
    expect(p.seq).toBe(1);
  });

  it('ends an exact 16M payload with an empty packet', () => {
    const w = new PacketWriter(0);
    w.begin().bytes(Buffer.alloc(MAX_PAYLOAD)).end();
    const out = w.finish();
    expect(out.length).toBe(MAX_PAYLOAD + 8);
    expect(out.readUIntLE(MAX_PAYLOAD + 4, 3)).toBe(0);
  });
});

describe('PacketFramer', () => {
  it('returns packets only when complete, whatever the chunking', () => {
    fc.assert(fc.property(fc.array(fc.uint8Array({ maxLength: 300 }), { maxLength: 8 }), fc.integer({ min: 1, max: 50 }), (payloads, step) => {
      const w = new PacketWriter(0);
      for (const p of payloads) w.begin().bytes(p).end();
      const bytes = Buffer.from(w.finish());
      const f = new PacketFramer();
      const got: Buffer[] = [];
      for (let i = 0; i < bytes.length; i += step) {
        f.push(bytes.subarray(i, i + step));
        for (let p = f.next(); p; p = f.next()) got.push(Buffer.from(p.payload));
      }
      expect(got.map((b) => [...b])).toEqual(payloads.map((p) => [...p]));
    }));
  });

  it('joins a 1 MB request sent in 1 KB chunks, counting what is pending', () => {
    const body = Buffer.alloc(1 << 20);
    for (let i = 0; i < body.length; i++) body[i] = (i * 31) & 0xff;
    const w = new PacketWriter(0);
    w.begin().bytes(body).end();
    w.begin().bytes(Buffer.from('next')).end();
    const bytes = Buffer.from(w.finish());
    const f = new PacketFramer();
    let got: Buffer | undefined;
    for (let i = 0; i < bytes.length - 8; i += 1024) {
      f.push(bytes.subarray(i, Math.min(i + 1024, bytes.length - 8)));
      const p = f.next();
      if (p) got = Buffer.from(p.payload);
    }
    expect(got?.equals(body)).toBe(true);
    expect(f.pending).toBe(bytes.length - 8 - (body.length + 4));
    f.push(bytes.subarray(bytes.length - 8));
    expect(f.next()?.payload.toString()).toBe('next');
    expect(f.pending).toBe(0);
  });

  it('refuses a packet over the limit as soon as its header arrives', () => {
    const f = new PacketFramer(100);
    f.push(Buffer.from([101, 0, 0, 3]));
    expect(() => f.next()).toThrow(PacketTooLargeError);
    expect(() => f.next()).toThrow('request packet too large (length=101, max_packet_size=100)');
  });
});

describe('PayloadReader', () => {
  it('reads strings and refuses to read past the end', () => {
    const r = new PayloadReader(Buffer.from('ab\0\x03xyzq'));
    expect(r.nulText()).toBe('ab');
    expect(r.lenencBytes().toString()).toBe('xyz');
    expect(r.remaining).toBe(1);
    expect(() => r.u32()).toThrow(ProtocolError);
  });
});

describe('binary result rows', () => {
  it('encode NULLs in the bitmap (offset 2) and typed values after it', async () => {
    const { writeBinaryResultSet } = await import('../../../src/mysql/responses.js');
    const w = new PacketWriter(1);
    writeBinaryResultSet(w, {
      kind: 'rows',
      columns: [{ name: 'id', kind: 'bigint' }, { name: 'n', kind: 'uint' }, { name: 'f', kind: 'float' }, { name: 's', kind: 'string' }, { name: 'j', kind: 'json' }],
      rows: [[5n, 7, 1.5, 'ab', null]],
    }, 2, 2);
    const f = new PacketFramer();
    f.push(Buffer.from(w.finish()));
    const packets: Buffer[] = [];
    for (let p = f.next(); p; p = f.next()) packets.push(Buffer.from(p.payload));
    expect(packets).toHaveLength(9); // count, 5 columns, EOF, row, EOF
    const row = packets[7]!;
    expect(row[0]).toBe(0);
    expect(row[1]).toBe(0b0100_0000); // column 4 (j) is NULL: bit 4 + 2
    const r = new PayloadReader(row, 2); // header byte, one bitmap byte
    expect(r.u64()).toBe(5n);
    expect(r.u32()).toBe(7);
    expect(r.bytes(4).readFloatLE(0)).toBe(1.5);
    expect(r.lenencBytes().toString()).toBe('ab');
    expect(r.remaining).toBe(0);
  });
});
