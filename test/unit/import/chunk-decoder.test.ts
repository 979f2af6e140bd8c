import { describe, expect, it } from 'vitest';
import { ChunkDecoder, readRecords } from '../../../src/import/record-reader.js';

/** `text`'s UTF-8 bytes cut at `cuts` (byte offsets, ascending). */
function pieces(text: string, cuts: number[]): Buffer[] {
  const bytes = Buffer.from(text, 'utf8');
  const out: Buffer[] = [];
  let at = 0;
  for (const c of [...cuts, bytes.length]) {
    out.push(bytes.subarray(at, c));
    at = c;
  }
  return out;
}

describe('ChunkDecoder', () => {
  it('decodes chunks of ASCII, of other text and of characters split between chunks as the whole text', () => {
    const text = 'plain ascii\tline\nnaïve café — 𝄞 music\nmore ascii after\n€';
    const bytes = Buffer.byteLength(text);
    // every cut point alone, then cuts inside each multi-byte character followed by ASCII chunks
    for (let cut = 0; cut <= bytes; cut++) {
      const d = new ChunkDecoder();
      expect(pieces(text, [cut]).map((p) => d.write(p)).join('') + d.end()).toBe(text);
    }
    for (const cuts of [[13, 14, 15, 30, 31, 32, 33], [19, 20, 40], [5, 41, 42, 43, 60]]) {
      const d = new ChunkDecoder();
      expect(pieces(text, cuts).map((p) => d.write(p)).join('') + d.end()).toBe(text);
    }
  });

  it('ends an input cut inside a character as StringDecoder does (a replacement character)', () => {
    const d = new ChunkDecoder();
    expect(d.write(Buffer.from('ab')) + d.write(Buffer.from([0xc3])) + d.end()).toBe('ab\ufffd');
  });

  it('gives TSV records over chunks of both kinds', async () => {
    async function* chunks() { yield* pieces('1\tcafé\n2\tplain\n3\tx€y\n', [8, 9, 17]); }
    const records = [];
    for await (const batch of readRecords(chunks(), 'tsv')) records.push(...batch);
    expect(records).toEqual([{ line: 1, values: ['1', 'café'] }, { line: 2, values: ['2', 'plain'] }, { line: 3, values: ['3', 'x€y'] }]);
  });
});
