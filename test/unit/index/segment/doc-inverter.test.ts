// The inverter over packed fields (term numbers from the scanner's path) against the same fields as
// strings: identical segments, whether a batch mixes packed and plain fields or two numberings.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { buildSegment, invertDocs } from '../../../../src/index/segment/segment-builder.js';
import type { DocInput, FieldTokens, IndexSchema } from '../../../../src/index/types.js';
import { createTextPipeline } from '../../../../src/text/text-pipeline.js';
import { plainField } from '../../text/plain-field.js';

const schema: IndexSchema = { fields: ['title', 'body'], attrs: [{ name: 'n', type: 'uint' }] };
const WORDS = ['run', 'running', 'runs', 'dog', 'dogs', 'the', 'a', 'Über', 'über', 'x', 'zebra', 'caf\u00e9', 'cafe', '42', 'hello, world'];
const textArb = fc.array(fc.constantFrom(...WORDS), { maxLength: 30 }).map((w) => w.join(' '));
const docsArb = fc.array(fc.tuple(textArb, textArb), { minLength: 1, maxLength: 12 });

function segmentOf(docs: FieldTokens[][]): { blob: Uint8Array; terms: string[] } {
  const inputs: DocInput[] = docs.map((fields, i) => ({ docId: BigInt(i + 1), fields, attrs: [i] }));
  const built = buildSegment(schema, invertDocs(schema, inputs));
  return { blob: built.blob, terms: built.terms };
}

describe('invertDocs over packed fields', () => {
  const settings = { morphology: 'stem_en' };

  it('builds the segment the same fields as strings give', () => {
    const p = createTextPipeline(settings);
    const other = createTextPipeline(settings); // a second numbering, as after a numbering fills up
    fc.assert(fc.property(docsArb, fc.array(fc.integer({ min: 0, max: 2 }), { minLength: 24, maxLength: 24 }), (texts, how) => {
      const packed = texts.map(([t, b]) => [p.indexField(t), p.indexField(b)]);
      expect(packed.some((d) => d.some((f) => f.packed))).toBe(true);
      const plain = packed.map((d) => d.map(plainField));
      // each field packed by p, plain, or packed by the other pipeline's numbering
      const mixed = texts.map(([t, b], i) => [t, b].map((x, f) => {
        const k = how[(i * 2 + f) % how.length];
        return k === 0 ? p.indexField(x) : k === 1 ? plainField(p.indexField(x)) : other.indexField(x);
      }));
      const want = segmentOf(plain);
      expect(segmentOf(packed)).toEqual(want);
      expect(segmentOf(mixed)).toEqual(want);
    }), { numRuns: 200 });
  });

  it('reads terms and positions back from a packed field', () => {
    const f = createTextPipeline(settings).indexField('The dogs ran, running');
    expect(f.packed).toBeDefined();
    expect(f.terms).toEqual(['the', 'dog', 'ran', 'run']);
    expect(f.positions).toEqual([1, 2, 3, 4]);
    expect(f.length).toBe(4);
  });
});
