// writeReply writes node:http's head and the UTF-8 body in one write, and never reuses a buffer a
// socket still holds.
import { describe, expect, it } from 'vitest';
import { connectionTail, writeReply } from '../../../../src/http/lean/reply-bytes.js';

class FakeSocket {
  writes: Buffer[] = [];
  /** Bytes "queued": non-zero makes the last write the socket's. */
  writableLength = 0;
  write(b: Buffer): boolean { this.writes.push(b); return true; }
}

const DATE = /\r\nDate: [A-Z][a-z]{2}, \d\d [A-Z][a-z]{2} \d{4} \d\d:\d\d:\d\d GMT\r\n/;

describe('writeReply', () => {
  it('writes status, Content-Type, Content-Length in bytes, Date and the connection headers, then the body', () => {
    const s = new FakeSocket();
    writeReply(s, 404, 'application/json; charset=UTF-8', '{"a":"été ✓ 😀"}', connectionTail(false, 65_000));
    expect(s.writes).toHaveLength(1);
    const text = s.writes[0]!.toString('utf8');
    expect(text).toMatch(DATE);
    expect(text.replace(DATE, '\r\nDate: -\r\n')).toBe('HTTP/1.1 404 Not Found\r\nContent-Type: application/json; charset=UTF-8\r\n' +
      'Content-Length: 22\r\nDate: -\r\nConnection: keep-alive\r\nKeep-Alive: timeout=65\r\n\r\n{"a":"été ✓ 😀"}');
  });

  it('says close, and leaves Keep-Alive out without a keep-alive timeout', () => {
    expect(connectionTail(true, 65_000)).toBe('\r\nConnection: close\r\n\r\n');
    expect(connectionTail(false, 0)).toBe('\r\nConnection: keep-alive\r\n\r\n');
    expect(connectionTail(false, 1_500)).toBe('\r\nConnection: keep-alive\r\nKeep-Alive: timeout=1\r\n\r\n');
  });

  it('keeps a reply a socket still holds intact while the next is written', () => {
    const held = new FakeSocket();
    held.writableLength = 1;
    writeReply(held, 200, 'text/plain', 'first reply', '\r\n\r\n');
    const other = new FakeSocket();
    writeReply(other, 200, 'text/plain', 'second, longer reply', '\r\n\r\n');
    expect(held.writes[0]!.toString().endsWith('\r\n\r\nfirst reply')).toBe(true);
    expect(other.writes[0]!.toString().endsWith('\r\n\r\nsecond, longer reply')).toBe(true);
  });

  it('writes a reply too large for the scratch buffer whole', () => {
    const s = new FakeSocket();
    const body = `"${'é'.repeat(3_000_000)}"`;
    writeReply(s, 200, 'application/json', body, '\r\n\r\n');
    const text = s.writes[0]!.toString('utf8');
    expect(text).toContain(`Content-Length: ${Buffer.byteLength(body)}\r\n`);
    expect(text.endsWith(`\r\n\r\n${body}`)).toBe(true);
  });

  it('runs a body writer into its buffer, small or grown past the scratch buffer, and keeps a held buffer intact', () => {
    const bodies = [Buffer.from('{"a":"été 😀"}', 'utf8'), Buffer.from(`"${'é'.repeat(3_000_000)}"`, 'utf8'), Buffer.from('x'.repeat(100_000))];
    const sockets: FakeSocket[] = [];
    for (const body of bodies) {
      const s = new FakeSocket();
      s.writableLength = 1; // every reply stays the socket's: the next must not write over it
      writeReply(s, 200, 'application/json', (out) => { out.text('['); out.bytes(body); out.text(']'); }, '\r\n\r\n');
      sockets.push(s);
    }
    bodies.forEach((body, i) => {
      const w = sockets[i]!.writes;
      expect(w).toHaveLength(1);
      const out = w[0]!;
      expect(out.toString('latin1')).toContain(`Content-Length: ${body.length + 2}\r\n`);
      expect(out.subarray(out.length - body.length - 2).equals(Buffer.concat([Buffer.from('['), body, Buffer.from(']')]))).toBe(true);
    });
  });
});
