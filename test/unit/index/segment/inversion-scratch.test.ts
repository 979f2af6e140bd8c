// The inversion's working arrays (inversion-scratch.ts): kept for the next batch up to the limit, fresh
// above it; and a batch inverted on arrays a bigger batch left behind (words and pairs, bigram_index=all)
// gives the segment a first inversion gives.
import { afterEach, describe, expect, it } from 'vitest';
import { keepInversionScratch, scratchWords } from '../../../../src/index/segment/inversion-scratch.js';
import { buildSegment, invertDocs } from '../../../../src/index/segment/segment-builder.js';
import { pairSettings } from '../../../../src/index/segment/segment-pairs.js';
import type { DocInput, IndexSchema } from '../../../../src/index/types.js';
import { createTextPipeline } from '../../../../src/text/text-pipeline.js';

const SERVER_KEEP = 1 << 19;
afterEach(() => keepInversionScratch(SERVER_KEEP));

describe('inversion scratch', () => {
  it('reuses an array up to the limit and hands out fresh ones above it', () => {
    const a = scratchWords('test-a', 1000);
    expect(scratchWords('test-a', 900).buffer).toBe(a.buffer);
    const big = SERVER_KEEP + 1;
    expect(scratchWords('test-a', big).buffer).not.toBe(scratchWords('test-a', big).buffer);
    keepInversionScratch(1 << 21);
    const kept = scratchWords('test-a', big);
    expect(kept.length).toBe(big);
    expect(scratchWords('test-a', big - 5).buffer).toBe(kept.buffer);
  });

  it('inverts a batch on a bigger batch\'s leftover arrays as on fresh ones', () => {
    const schema: IndexSchema = { fields: ['title', 'body'], attrs: [], pairs: pairSettings({ bigram_index: 'all' }) };
    const p = createTextPipeline({ morphology: 'stem_en' });
    const words = ['the', 'cat', 'sat', 'on', 'a', 'mat', 'dogs', 'running', 'quick', 'brown', 'fox', 'jumps'];
    const docsOf = (n: number, seed: number): DocInput[] => Array.from({ length: n }, (_, i) => {
      const text = (len: number) => Array.from({ length: len }, (_, j) => words[(i * 7 + j * (seed + 3)) % words.length]).join(' ');
      return { docId: BigInt(i + 1), fields: [p.indexField(text(5)), p.indexField(text(40 + (i % 9)))], attrs: [] };
    });
    const small = docsOf(300, 2);
    const first = buildSegment(schema, invertDocs(schema, small));
    keepInversionScratch(1 << 21);
    buildSegment(schema, invertDocs(schema, docsOf(3000, 5))); // leaves larger arrays full of its own words
    const again = buildSegment(schema, invertDocs(schema, small));
    expect(again.terms).toEqual(first.terms);
    expect(again.terms.some((t) => t.charCodeAt(0) < 0x20)).toBe(true); // pairs were listed
    expect(again.blob).toEqual(first.blob);
  });
});
