// invertFields (a bulk load's build: fields scanned straight into the inversion's token arrays)
// against invertDocs over the same rows' fields from indexField: the same segment, whether fields are
// written into the sink, handed over as tokens (text the scanner does not take, a field given as
// strings) or empty, with the token arrays' first guess far too short (grown in place or into fresh arrays), and pair postings on.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { invertFields } from '../../../../src/index/segment/invert-fields.js';
import { keepInversionScratch } from '../../../../src/index/segment/inversion-scratch.js';
import { buildSegment, invertDocs } from '../../../../src/index/segment/segment-builder.js';
import { pairSettings } from '../../../../src/index/segment/segment-pairs.js';
import { FIELD_END_BIT, FIELD_SHIFT } from '../../../../src/index/segment/segment-layout.js';
import type { AttrValue, DocInput, IndexSchema } from '../../../../src/index/types.js';
import { createTextPipeline } from '../../../../src/text/text-pipeline.js';
import { plainField } from '../../text/plain-field.js';

const WORDS = ['run', 'running', 'runs', 'dog', 'dogs', 'the', 'a', 'of', 'Über', 'caf\u00e9', '42', 'hello, world', 'x', 'the dog', '\u{1d400}bc',
  'the, a, of,'];
const textArb = fc.array(fc.constantFrom(...WORDS), { maxLength: 40 }).map((w) => w.join(' '));
const rowsArb = fc.array(fc.tuple(textArb, textArb, fc.integer({ min: 0, max: 3 })), { minLength: 1, maxLength: 30 });

describe('invertFields', () => {
  afterEach(() => keepInversionScratch(1 << 19));
  // kept scratch 0: every array fresh, so the token arrays' growth copies into new ones
  const stopwords = join(mkdtempSync(join(tmpdir(), 'invert-fields-')), 'stop.txt');
  writeFileSync(stopwords, 'the\na\nof\n');
  const boundaries = { phrase_boundary: 'U+2C', phrase_boundary_step: '3', stopwords, stopword_step: '0' };
  const cases = [['all', 1 << 19, {}], ['', 1 << 19, {}], ['all', 0, {}], ['all', 1 << 19, boundaries]] as const;
  for (const [bigram, keep, extra] of cases) {
    it(`builds the segment invertDocs builds from the same fields (bigram_index '${bigram}', scratch kept ${keep}, ${JSON.stringify(extra)})`, () => {
      keepInversionScratch(keep);
      const schema: IndexSchema = { fields: ['title', 'body'], attrs: [{ name: 'n', type: 'uint' }], pairs: pairSettings({ bigram_index: bigram }) };
      const settings = { morphology: 'stem_en', ...extra };
      let sunk = 0;
      let left = 0;
      fc.assert(fc.property(rowsArb, fc.integer({ min: 0, max: 64 }), (rows, guess) => {
        const p = createTextPipeline(settings);
        const ids = BigUint64Array.from(rows.map((_, i) => BigInt(i * 3 + 1) + (i % 2 ? 1n << 63n : 0n)));
        const attrs: AttrValue[][] = [rows.map((r) => r[2])];
        const built = buildSegment(schema, invertFields(schema, ids, attrs, guess, (r, f, sink) => {
          const text = rows[r][f as 0 | 1];
          // row kind 3: the title as strings, as a field the scanner's path left to the walk
          if (rows[r][2] === 3 && f === 0) return plainField(p.indexField(text));
          const len = p.indexFieldInto!(text, sink);
          if (len !== null) sunk++;
          else left++;
          return len ?? p.indexField(text);
        }));
        const q = createTextPipeline(settings);
        const docs: DocInput[] = rows.map((r, i) => ({ docId: ids[i], fields: [q.indexField(r[0]), q.indexField(r[1])], attrs: [r[2]] }));
        const want = buildSegment(schema, invertDocs(schema, docs));
        expect(built.terms).toEqual(want.terms);
        expect(Buffer.from(built.blob).equals(Buffer.from(want.blob))).toBe(true);
      }), { numRuns: 150 });
      // both kinds of field came by
      expect(sunk).toBeGreaterThan(100);
      expect(left).toBeGreaterThan(10);
    });
  }

  it('marks the field\'s tail hits as its end, where positions went back, as Manticore\'s indexer does', () => {
    // phrase_boundary_step -1 after stopwords of stopword_step 0: 'dog' goes back to the first 'run''s
    // position. Manticore marks the last hit and, going back, each hit not below its position
    // (ProcessCollectedHits): all three here. The sink path once marked the hits at the field's length
    // (run@1, dog), invertDocs those at the greatest position (run@2): both now take fieldEndFrom
    const settings = { morphology: 'stem_en', phrase_boundary: 'U+2C', phrase_boundary_step: '-1', stopwords, stopword_step: '0' };
    const p = createTextPipeline(settings);
    expect(createTextPipeline(settings).indexField('run run the, a, dog').positions).toEqual([1, 2, 1]);
    const schema: IndexSchema = { fields: ['title', 'body'], attrs: [] };
    for (const batch of [
      invertFields(schema, BigUint64Array.of(1n), [], 4, (_, f, sink) => p.indexFieldInto!(f ? 'x run' : 'run run the, a, dog', sink)),
      invertDocs(schema, [{ docId: 1n, fields: [p.indexField('run run the, a, dog'), p.indexField('x run')], attrs: [] }]),
    ]) {
      const { terms, posStart, positions } = batch.postings;
      const hits = (term: string) => Array.from(positions.subarray(posStart[terms.indexOf(term)], posStart[terms.indexOf(term) + 1]));
      expect(hits('run')).toEqual([FIELD_END_BIT | 1, FIELD_END_BIT | 2, (1 << FIELD_SHIFT) | FIELD_END_BIT | 2]);
      expect(hits('dog')).toEqual([FIELD_END_BIT | 1]);
      expect(hits('x')).toEqual([(1 << FIELD_SHIFT) | 1]);
    }
  });

  it('moves the field end back to a final blended token\'s start in both paths, as Manticore\'s indexer does', () => {
    // ProcessCollectedHits: the tail run's floor is the lower of the last hit's position and the final
    // blended token's (the hit where its forms and parts began), so "the well-known" ends at well-known@2,
    // well@2 and known@3; a plain word after the blended token ends the field alone
    const p = createTextPipeline({ blend_chars: '-' });
    expect(p.indexField('the well-known').positions).toEqual([1, 2, 2, 3]);
    const schema: IndexSchema = { fields: ['title', 'body'], attrs: [] };
    const texts = ['the well-known', 'well-known dog'];
    for (const batch of [
      invertFields(schema, BigUint64Array.of(1n), [], 4, (_, f, sink) => p.indexFieldInto!(texts[f], sink) ?? p.indexField(texts[f])),
      invertDocs(schema, [{ docId: 1n, fields: texts.map((x) => p.indexField(x)), attrs: [] }]),
    ]) {
      const { terms, posStart, positions } = batch.postings;
      const hits = (term: string) => Array.from(positions.subarray(posStart[terms.indexOf(term)], posStart[terms.indexOf(term) + 1]));
      const body = 1 << FIELD_SHIFT;
      expect(hits('the')).toEqual([1]);
      expect(hits('well-known')).toEqual([FIELD_END_BIT | 2, body | 1]);
      expect(hits('well')).toEqual([FIELD_END_BIT | 2, body | 1]);
      expect(hits('known')).toEqual([FIELD_END_BIT | 3, body | 2]);
      expect(hits('dog')).toEqual([body | FIELD_END_BIT | 3]);
    }
  });

  it('leaves a field the scanner does not take unwritten', () => {
    const p = createTextPipeline({});
    const sink = { ids: new Uint32Array(8), positions: new Uint32Array(8), used: 0, batch: -7, reserve() {}, idOf: () => 0, tag: 0, posMask: -1, counts: null };
    expect(p.indexFieldInto!('a \u{1d400} b', sink)).toBeNull();
    expect(sink.used).toBe(0);
    expect(p.indexFieldInto!('the dogs ran', sink)).toBe(3);
    expect(Array.from(sink.positions.subarray(0, 3))).toEqual([1, 2, 3]);
  });

  it('writes positions as the sink tags them and counts the ids it writes', () => {
    const p = createTextPipeline({});
    const counts = new Uint32Array(4);
    const sink = { ids: new Uint32Array(8), positions: new Uint32Array(8), used: 0, batch: -8, reserve() {}, idOf: () => 2, tag: 3 << 24, posMask: 0xff, counts };
    expect(p.indexFieldInto!('one two three', sink)).toBe(3);
    expect(Array.from(sink.positions.subarray(0, 3))).toEqual([(3 << 24) | 1, (3 << 24) | 2, (3 << 24) | 3]);
    expect(Array.from(counts)).toEqual([0, 0, 3, 0]);
  });
});
