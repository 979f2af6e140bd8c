// A wildcard's expansions merged into one posting list in the core (OR_MERGED_LIST) against the
// same expansions kept as an OR of terms (OR_MERGED_TF): the same matches and the same weights,
// for every operator above the wildcard, every ranker, one or many segments.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RtIndex } from '../../../src/index/rt-index.js';
import type { DocInput, IndexSchema, Ranker, SearchRequest } from '../../../src/index/types.js';
import type { QueryNode, TermNode } from '../../../src/query/ast.js';
import type { ExpansionSettings } from '../../../src/index/wildcard.js';

const schema: IndexSchema = { fields: ['title', 'body'], attrs: [] };
/** Words sharing prefixes and infixes, so patterns expand to several terms. */
const VOCAB = ['ab', 'abc', 'abd', 'abcd', 'bab', 'bc', 'cab', 'cd', 'd'];
const PATTERNS = ['a*', 'ab*', '*b*', '*c*', 'ab?', '*d', 'c*', 'zz*'];

const word = fc.constantFrom(...VOCAB);
const fieldText = fc.array(word, { minLength: 0, maxLength: 12 });
const docs = fc.array(fc.tuple(fieldText, fieldText), { minLength: 1, maxLength: 40 }).map((list) =>
  list.map(([a, b], i): DocInput => ({
    docId: BigInt(i + 1),
    fields: [a, b].map((terms) => ({ terms, positions: terms.map((_, j) => j + 1), length: terms.length })),
    attrs: [],
  })));

const termNode: fc.Arbitrary<TermNode> = fc.record({
  wild: fc.boolean(), pattern: fc.constantFrom(...PATTERNS), text: word,
  limit: fc.constantFrom<string[] | undefined>(undefined, ['title'], ['body']), maxPos: fc.constantFrom(undefined, 4),
  start: fc.boolean(), end: fc.boolean(),
}).map(({ wild, pattern, text, limit, maxPos, start, end }) => ({
  kind: 'term', text: wild ? pattern : text, wildcard: wild || undefined,
  fieldStart: start && !end ? true : undefined, fieldEnd: end && !start ? true : undefined,
  field: limit ? { fields: limit, exclude: false, maxPos } : undefined,
}));
const wildTerm = fc.constantFrom(...PATTERNS).map((text): TermNode => ({ kind: 'term', text, wildcard: true }));
const listTerms = fc.array(fc.oneof(wildTerm, word.map((text): TermNode => ({ kind: 'term', text }))), { minLength: 2, maxLength: 3 });

const query: fc.Arbitrary<QueryNode> = fc.letrec<{ node: QueryNode }>((tie) => ({
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    termNode, termNode,
    listTerms.map((terms): QueryNode => ({ kind: 'phrase', terms, offsets: terms.map((_, i) => i) })),
    fc.tuple(listTerms, fc.integer({ min: 1, max: 4 })).map(([terms, distance]): QueryNode => ({ kind: 'proximity', terms, distance })),
    fc.tuple(listTerms, fc.integer({ min: 1, max: 2 })).map(([terms, threshold]): QueryNode => ({ kind: 'quorum', terms, threshold })),
    fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map((children): QueryNode => ({ kind: 'and', children })),
    fc.array(tie('node'), { minLength: 2, maxLength: 3 }).map((children): QueryNode => ({ kind: 'or', children })),
    fc.tuple(tie('node'), tie('node')).map(([a, b]): QueryNode => ({ kind: 'and', children: [a, { kind: 'not', child: b }] })),
    fc.array(termNode, { minLength: 2, maxLength: 3 }).map((children): QueryNode => ({ kind: 'order', children })),
    fc.tuple(fc.array(termNode, { minLength: 2, maxLength: 3 }), fc.integer({ min: 1, max: 4 }))
      .map(([children, distance]): QueryNode => ({ kind: 'near', children, distance })),
  ),
})).node;

const rankers: Ranker[] = ['proximity_bm25', 'bm25', 'wordcount', 'proximity', 'matchany', 'fieldmask', 'sph04', 'none'];

function run(idx: RtIndex, q: QueryNode, ranker: Ranker, mergeAbove: number, limit = 0) {
  const expansion: ExpansionSettings = { minPrefixLen: 1, minInfixLen: 1, exactForms: false, mergeAbove, limit };
  const req: SearchRequest = {
    query: q, ranker, fieldWeights: { title: 3, body: 1 }, filters: [], sort: [{ attr: 'id', desc: false }],
    offset: 0, limit: 10000, maxMatches: 10000, expansion,
  };
  return idx.search(req);
}

describe('merged expansion lists', () => {
  it('equal the OR of the expansions: matches, weights and keyword stats (one or many segments)', () => {
    fc.assert(fc.property(docs, query, fc.constantFrom(...rankers), fc.integer({ min: 1, max: 4 }), (ds, q, ranker, parts) => {
      const idx = new RtIndex(schema, { autoMerge: false });
      const size = Math.ceil(ds.length / parts);
      for (let i = 0; i < ds.length; i += size) idx.addBatch(ds.slice(i, i + size));
      const merged = run(idx, q, ranker, 0);
      const plain = run(idx, q, ranker, Number.MAX_SAFE_INTEGER);
      idx.truncate();
      expect(merged).toEqual(plain);
    }), { numRuns: 400 });
  });

  it('a pattern with many expansions over many rows matches every row holding one', () => {
    const words = Array.from({ length: 300 }, (_, i) => `w${i.toString(36)}`);
    const list: DocInput[] = Array.from({ length: 2000 }, (_, i) => {
      const terms = [words[(i * 7) % 300], words[(i * 13) % 300], 'x', words[(i * 31) % 300]];
      return { docId: BigInt(i + 1), fields: [{ terms, positions: [1, 2, 3, 4], length: 4 }, { terms: [], positions: [], length: 0 }], attrs: [] };
    });
    const idx = new RtIndex(schema);
    idx.addBatch(list);
    const q: QueryNode = { kind: 'phrase', terms: [{ kind: 'term', text: 'w1*', wildcard: true }, { kind: 'term', text: 'x' }], offsets: [0, 1] };
    const merged = run(idx, q, 'proximity_bm25', 0);
    const plain = run(idx, q, 'proximity_bm25', Number.MAX_SAFE_INTEGER);
    const want = list.filter((d) => d.fields[0].terms[1].startsWith('w1')).length;
    expect(merged.totalFound).toBe(want);
    expect(merged).toEqual(plain);
  });

  it('keyword stats: distinct documents and all hits of the expansions, over segments', () => {
    fc.assert(fc.property(docs, fc.constantFrom(...PATTERNS), fc.integer({ min: 1, max: 3 }), (ds, pattern, parts) => {
      const idx = new RtIndex(schema, { autoMerge: false });
      const size = Math.ceil(ds.length / parts);
      for (let i = 0; i < ds.length; i += size) idx.addBatch(ds.slice(i, i + size));
      const res = run(idx, { kind: 'term', text: pattern, wildcard: true }, 'bm25', 0);
      idx.truncate();
      const re = new RegExp(`^${pattern.replaceAll('*', '.*').replaceAll('?', '.')}$`);
      const perDoc = ds.map((d) => d.fields.flatMap((f) => f.terms).filter((t) => re.test(t)).length);
      expect(res.keywords).toEqual([{ keyword: pattern, docs: perDoc.filter((n) => n > 0).length, hits: perDoc.reduce((a, b) => a + b, 0) }]);
      expect(res.totalFound).toBe(perDoc.filter((n) => n > 0).length);
    }), { numRuns: 200 });
  });

  it('expansion_limit keeps the most frequent expansions per segment', () => {
    const mk = (i: number, terms: string[]): DocInput =>
      ({ docId: BigInt(i), fields: [{ terms, positions: terms.map((_, j) => j + 1), length: terms.length }, { terms: [], positions: [], length: 0 }], attrs: [] });
    // abd in 3 documents with 300 hits each (ranked by documents), abc in 5 with few hits, ab in 1
    const big = Array.from({ length: 300 }, () => 'abd');
    const list = [mk(1, big), mk(2, big), mk(3, big), ...[4, 5, 6, 7, 8].map((i) => mk(i, ['abc'])), mk(9, ['ab'])];
    const idx = new RtIndex(schema);
    idx.addBatch(list);
    const q: QueryNode = { kind: 'term', text: 'ab*', wildcard: true };
    const ids = (limit: number) => run(idx, q, 'bm25', 0, limit).hits.map((h) => Number(h.docId)).sort((a, b) => a - b);
    expect(ids(1)).toEqual([1, 2, 3]);
    // abc and ab rank alike (at most 256 hits): the first in dictionary order, ab, stays
    expect(ids(2)).toEqual([1, 2, 3, 9]);
    expect(ids(0)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
    expect(run(idx, q, 'bm25', 0, 1).keywords).toEqual([{ keyword: 'ab*', docs: 3, hits: 900 }]);
  });
});
