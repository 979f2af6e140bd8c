// TextSink and ByteSink receive the same pieces: ByteSink's bytes are the UTF-8 of TextSink's text,
// whatever the mix of short ASCII, non-ASCII, long texts and kept byte fragments, across the
// growth of its buffer and from one reply to the next.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { ByteSink, TextSink } from '../../../src/http/reply-sink.js';

type Piece = { text: string } | { bytes: string };
const piece: fc.Arbitrary<Piece> = fc.oneof(
  fc.string({ maxLength: 80 }).map((text) => ({ text })),
  fc.string({ unit: 'grapheme', maxLength: 80 }).map((text) => ({ text })),
  fc.string({ unit: 'grapheme', maxLength: 200 }).map((bytes) => ({ bytes })),
  fc.constantFrom('x'.repeat(70_000), 'é'.repeat(40_000)).map((text) => ({ text })),
);

function feed(pieces: Piece[]): { text: string; bytes: Buffer } {
  const t = new TextSink();
  const b = new ByteSink();
  for (const p of pieces) {
    if ('text' in p) { t.text(p.text); b.text(p.text); } else { const u = Buffer.from(p.bytes, 'utf8'); t.bytes(u); b.bytes(u); }
  }
  return { text: t.out, bytes: b.take() };
}

describe('ByteSink', () => {
  it('writes the UTF-8 of what TextSink joins', () => {
    fc.assert(fc.property(fc.array(piece, { maxLength: 12 }), (pieces) => {
      const { text, bytes } = feed(pieces);
      expect(bytes.equals(Buffer.from(text, 'utf8'))).toBe(true);
    }), { numRuns: 300 });
  });

  it('gives each reply its own bytes: the next reply does not overwrite them', () => {
    const first = feed([{ text: '{"a":"été"}' }]).bytes;
    feed([{ text: 'another, longer reply' }]);
    expect(first.toString('utf8')).toBe('{"a":"été"}');
  });

  it('writes a lone surrogate as UTF-8 text of it does (EF BF BD)', () => {
    expect(feed([{ text: 'a\ud800b' }]).bytes.equals(Buffer.from('a\ud800b', 'utf8'))).toBe(true);
  });
});
