// The snippet document segment writer makes the bytes the segment builder makes for one row.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { buildSegment, invertDocs } from '../../../src/index/segment/segment-builder.js';
import type { FieldTokens } from '../../../src/index/types.js';
import { docSegmentBlob } from '../../../src/highlight/snippet-doc-segment.js';

/** A field of random terms at ascending (sometimes shared) positions. */
const field: fc.Arbitrary<FieldTokens> = fc.array(fc.tuple(fc.constantFrom('a', 'b', 'c', '=b', '\u0002sentence', 'ünï'), fc.integer({ min: 0, max: 2 })), { maxLength: 40 })
  .map((list) => {
    const terms: string[] = [];
    const positions: number[] = [];
    let pos = 0;
    for (const [t, step] of list) { pos += step; terms.push(t); positions.push(Math.max(pos, 1)); }
    return { terms, positions, length: positions.length ? Math.max(...positions) : 0 };
  });

describe('docSegmentBlob', () => {
  it('equals buildSegment(invertDocs) for one row without attributes', () => {
    fc.assert(fc.property(fc.array(field, { minLength: 1, maxLength: 3 }), (fields) => {
      const schema = { fields: fields.map((_, i) => `f${i}`), attrs: [] };
      const built = buildSegment(schema, invertDocs(schema, [{ docId: 0n, fields, attrs: [] }]));
      const mine = docSegmentBlob(fields);
      expect(mine.terms).toEqual(built.terms);
      expect(new Uint8Array(mine.words.buffer)).toEqual(built.blob);
    }), { numRuns: 300, seed: 42 });
  });

  it('covers a term hit 300 times (tf needing 9 bits)', () => {
    const f: FieldTokens = { terms: Array(300).fill('a'), positions: Array.from({ length: 300 }, (_, i) => i + 1), length: 300 };
    const schema = { fields: ['f'], attrs: [] };
    expect(new Uint8Array(docSegmentBlob([f]).words.buffer)).toEqual(buildSegment(schema, invertDocs(schema, [{ docId: 0n, fields: [f], attrs: [] }])).blob);
  });
});
