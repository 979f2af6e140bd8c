// TextSink and ByteSink receive the same pieces: ByteSink's bytes are the UTF-8 of TextSink's text,
// whatever the mix of short ASCII, non-ASCII, long texts and kept byte fragments, across the
// growth of its buffer and from one reply to the next.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyBytes, ByteSink, TextSink } from '../../../src/http/reply-sink.js';

type Piece = { text: string } | { bytes: string } | { kept: string };
const piece: fc.Arbitrary<Piece> = fc.oneof(
  fc.string({ maxLength: 80 }).map((text) => ({ text })),
  fc.string({ unit: 'grapheme', maxLength: 80 }).map((text) => ({ text })),
  fc.string({ unit: 'grapheme', maxLength: 200 }).map((bytes) => ({ bytes })),
  fc.constantFrom('x'.repeat(70_000), 'é'.repeat(40_000)).map((text) => ({ text })),
  fc.string({ unit: 'grapheme', maxLength: 200 }).map((kept) => ({ kept })),
);

/** The pieces through TextSink, and through a ByteSink over a small buffer from `start` on (it grows). */
function feed(pieces: Piece[], start = 0): { text: string; bytes: Buffer } {
  const t = new TextSink();
  const b = new ByteSink(Buffer.alloc(start + 8, 0x2a), start);
  const kept: Array<[Buffer, Buffer]> = [];
  for (const p of pieces) {
    if ('text' in p) { t.text(p.text); b.text(p.text); } else if ('bytes' in p) { const u = Buffer.from(p.bytes, 'utf8'); t.bytes(u); b.bytes(u); } else {
      // textKept writes the text and hands back its bytes, a copy the sink's later writes leave alone
      const fromText = t.textKept(p.kept), fromBytes = b.textKept(p.kept);
      kept.push([fromText, Buffer.from(p.kept, 'utf8')], [fromBytes, Buffer.from(p.kept, 'utf8')]);
    }
  }
  for (const [got, want] of kept) expect(got.equals(want)).toBe(true);
  expect(b.buffer.subarray(0, start).equals(Buffer.alloc(start, 0x2a))).toBe(true); // what precedes is kept, also when grown
  return { text: t.out, bytes: b.buffer.subarray(start, b.end) };
}

describe('ByteSink', () => {
  it('writes the UTF-8 of what TextSink joins', () => {
    fc.assert(fc.property(fc.array(piece, { maxLength: 12 }), fc.nat({ max: 600 }), (pieces, start) => {
      const { text, bytes } = feed(pieces, start);
      expect(bytes.equals(Buffer.from(text, 'utf8'))).toBe(true);
    }), { numRuns: 300 });
  });

  it('bodyBytes gives each body its own bytes: the next one does not overwrite them', () => {
    const first = bodyBytes((out) => out.text('{"a":"été"}'));
    bodyBytes((out) => out.text('another, longer reply'));
    expect(first.toString('utf8')).toBe('{"a":"été"}');
  });

  it('writes a lone surrogate as UTF-8 text of it does (EF BF BD)', () => {
    expect(feed([{ text: 'a\ud800b' }]).bytes.equals(Buffer.from('a\ud800b', 'utf8'))).toBe(true);
  });

  it('keptSince copies what was written since mark, in both sinks, and later writes leave the copy alone', () => {
    for (const sink of [new TextSink(), new ByteSink(Buffer.alloc(4), 2)]) {
      sink.text('head,');
      const at = sink.mark();
      sink.text('"é":1');
      sink.bytes(Buffer.from(',"x":"😀"'));
      const kept = sink.keptSince(at);
      sink.text('x'.repeat(5000)); // grows the ByteSink's buffer
      expect(kept.toString('utf8')).toBe('"é":1,"x":"😀"');
    }
  });
});
