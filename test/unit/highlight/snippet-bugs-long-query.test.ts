// A query of thousands of words: the core merges its AND's hits without a quadratic hit buffer.
import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../../src/query/parse-query.js';
import { createTextPipeline } from '../../../src/text/text-pipeline.js';
import { markDocument } from '../../../src/highlight/snippet-marks.js';

/** Words past the point where folding the AND's children one by one overflowed the core's heap (4729). */
const MANY = 6000;

describe('long queries', () => {
  it(`marks a document for a query of ${MANY} repeated words (hits merged pairwise, not copied per child)`, () => {
    const p = createTextPipeline({});
    const tokens = p.tokenize('quick quick brown fox quick');
    const root = parseQuery(Array(MANY).fill('quick').join(' '), { fields: ['body'], notTermsOnlyAllowed: true }).root;
    const m = markDocument(root, [{ name: 'body', tokens }], { pipeline: p, ignoreFields: false, expandInfix: false, expandPrefix: false });
    expect(tokens.filter((t) => m.hits.includes(t.pos)).map((t) => t.text)).toEqual(['quick', 'quick', 'quick']);
  });

  it('keeps the marks of a query whose AND children interleave (balanced merge = left fold)', () => {
    const p = createTextPipeline({});
    const tokens = p.tokenize('a b c d e f g a b c d e f g');
    const root = parseQuery('g f e d c b a a b', { fields: ['body'], notTermsOnlyAllowed: true }).root;
    const m = markDocument(root, [{ name: 'body', tokens }], { pipeline: p, ignoreFields: false, expandInfix: false, expandPrefix: false });
    expect(m.hits.length).toBe(14);
  });

  it('an AND of many words (its children sorted by cost in runs) marks them all, or none when one is missing', () => {
    const p = createTextPipeline({});
    const words = Array.from({ length: 60 }, (_, i) => `w${i}`);
    const tokens = p.tokenize(words.join(' '));
    const ctx = { pipeline: p, ignoreFields: false, expandInfix: false, expandPrefix: false };
    const mark = (q: string[]) => markDocument(parseQuery(q.join(' '), { fields: ['body'], notTermsOnlyAllowed: true }).root, [{ name: 'body', tokens }], ctx).hits.length;
    const mixed = words.flatMap((w, i) => (i % 3 === 0 ? [w, `${w}x`] : [w]));
    expect(mark([...words].reverse())).toBe(60);
    expect(mark(mixed)).toBe(0);
    expect(mark(mixed.map((w) => `(${w} | w0)`))).toBe(60);
  });
});
