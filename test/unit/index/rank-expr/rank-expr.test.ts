// The expression ranker in the core: Manticore documents each built-in ranker as an expression
// (manual "Ranking overview"), so expr() over those formulas must give the built-in rankers' weights.
import { describe, expect, it } from 'vitest';
import { RtIndex } from '../../../../src/index/rt-index.js';
import type { IndexSchema, SearchRequest } from '../../../../src/index/types.js';
import type { QueryNode } from '../../../../src/query/ast.js';
import { and, doc, not, or, phrase, prox, req, t } from '../helpers.js';

const schema: IndexSchema = { fields: ['title', 'body'], attrs: [] };
const idx = new RtIndex(schema);
idx.addBatch([
  doc(schema, 1, { title: 'hello world', body: 'the world says hello to the big world' }),
  doc(schema, 2, { title: 'world peace', body: 'hello hello hello' }),
  doc(schema, 3, { title: 'big hello world today', body: 'nothing here' }),
  doc(schema, 4, { title: 'unrelated', body: 'world' }),
  doc(schema, 5, { title: 'hello', body: 'say hello world big world hello' }),
]);

const byId = [{ attr: 'id', desc: false }];
function weights(q: QueryNode, extra: Partial<SearchRequest>): [string, number][] {
  return idx.search(req(q, { sort: byId, fieldWeights: { title: 3, body: 1 }, ...extra })).hits.map((h) => [String(h.docId), h.weight]);
}
const expr = (q: QueryNode, rankExpr: string) => weights(q, { ranker: 'expr', rankExpr });

const queries: [string, QueryNode][] = [
  ['single word', t('hello')],
  ['two words', and(t('hello'), t('world'))],
  ['or', or(t('big'), t('peace'))],
  ['phrase', phrase('hello world')],
  ['proximity', prox('hello big', 3)],
  ['and not', and(t('world'), not(t('peace')))],
  ['repeated keyword', and(t('hello'), t('world'), t('hello'))],
];

describe.each(queries)('expr ranker equals the built-in rankers: %s', (_, q) => {
  it('proximity_bm25 = sum(lcs*user_weight)*1000+bm25', () => {
    expect(expr(q, 'sum(lcs*user_weight)*1000+bm25')).toEqual(weights(q, { ranker: 'proximity_bm25' }));
  });
  it('bm25 = sum(user_weight)*1000+bm25', () => {
    expect(expr(q, 'sum(user_weight)*1000+bm25')).toEqual(weights(q, { ranker: 'bm25' }));
  });
  it('wordcount = sum(hit_count*user_weight) (single-word hits only)', () => {
    // a phrase or proximity hit counts once for wordcount but once per word in hit_count
    // and a repeated keyword's hitpos counts once for hit_count (Manticore's duplicate path)
    if (q.kind === 'phrase' || q.kind === 'proximity' || _ === 'repeated keyword') return;
    expect(expr(q, 'sum(hit_count*user_weight)')).toEqual(weights(q, { ranker: 'wordcount' }));
  });
  it('fieldmask = field_mask', () => {
    expect(expr(q, 'field_mask')).toEqual(weights(q, { ranker: 'fieldmask' }));
  });
  it('sph04 = sum((4*lcs+2*(min_hit_pos==1)+exact_hit)*user_weight)*1000+bm25', () => {
    expect(expr(q, 'sum((4*lcs+2*(min_hit_pos==1)+exact_hit)*user_weight)*1000+bm25')).toEqual(weights(q, { ranker: 'sph04' }));
  });
  it('none = 1', () => {
    expect(expr(q, '1')).toEqual(weights(q, { ranker: 'none' }));
  });
});

describe('expr ranker factors', () => {
  it('hit_count counts a repeated keyword once per position', () => {
    // doc 2: "world" once in the title (weight 3), "hello" three times in the body
    const r = new Map(expr(and(t('hello'), t('world'), t('hello')), 'sum(hit_count*user_weight)'));
    expect(r.get('2')).toBe(6);
  });
  it('hit_count counts each word of a phrase hit', () => {
    // title weight 3: doc 1 and 3 have "hello world" once in the title, doc 5 once in the body
    expect(expr(phrase('hello world'), 'sum(hit_count*user_weight)')).toEqual([['1', 6], ['3', 6], ['5', 2]]);
  });
  it('doc-level counts: query_word_count, doc_word_count, max_lcs', () => {
    const q = and(t('hello'), t('world'), not(t('peace')));
    expect(expr(q, 'query_word_count')).toEqual([['1', 2], ['3', 2], ['5', 2]]);
    expect(expr(or(t('hello'), t('today')), 'doc_word_count')).toEqual([['1', 1], ['2', 1], ['3', 2], ['5', 1]]);
    // max_lcs = (3 + 1) field weights times 2 keywords
    expect(expr(and(t('hello'), t('world')), 'max_lcs')).toEqual([['1', 8], ['2', 8], ['3', 8], ['5', 8]]);
  });
  it('field-level: min_hit_pos, min_best_span_pos, word_count, top()', () => {
    const q = and(t('hello'), t('world'));
    // doc 1 body "the world says hello to the big world": first hit at 2, best span (1 word) at 2;
    // doc 5 body "say hello world big world hello": first hit at 2, the 2-word span starts at 2
    expect(expr(q, 'top(min_hit_pos)')).toEqual([['1', 2], ['2', 1], ['3', 2], ['5', 2]]);
    expect(expr(q, 'sum(min_best_span_pos)')).toEqual([['1', 1 + 2], ['2', 1 + 1], ['3', 2], ['5', 1 + 2]]);
    expect(expr(q, 'sum(word_count)')).toEqual([['1', 4], ['2', 2], ['3', 2], ['5', 3]]);
  });
  it('exact_hit and exact_order', () => {
    const q = and(t('hello'), t('world'));
    // title "hello world" of doc 1 is the whole query, in order
    // doc 2 has the words in separate fields; docs 3 and 5 have them in order inside longer text
    expect(expr(q, 'sum(exact_hit*10+exact_order)')).toEqual([['1', 11 + 1], ['2', 0], ['3', 1], ['5', 1]]);
  });
  it('float formulas are truncated; tf_idf sums idf per hit', () => {
    const one = expr(t('today'), 'sum(tf_idf)*1000000');
    const two = expr(t('hello'), 'sum(tf_idf)*1000000');
    expect(one).toHaveLength(1);
    // "today" is in 1 of 5 documents: idf = log((5-1+1)/1) / (2*log 6) in float32
    const idf = Math.fround(Math.fround(Math.log(5)) / Math.fround(2 * Math.fround(Math.log(6))));
    expect(Math.abs(one[0][1] - Math.trunc(idf * 1e6))).toBeLessThanOrEqual(1);
    // doc 2 has "hello" 3 times in body, doc 5 once in title and twice in body
    const byDoc = new Map(two);
    expect(byDoc.get('2')! / byDoc.get('3')!).toBeCloseTo(3, 3);
    expect(expr(t('hello'), '7/2')).toEqual(two.map(([id]) => [id, 3]));
  });
  it('bm25a without field lengths: tf/(tf+k1*(1-b))*idf + 0.5', () => {
    const r = expr(t('today'), 'bm25a(1.2,0.75)*100000');
    const idf = Math.fround(Math.fround(Math.fround(Math.log(5)) / Math.fround(2 * Math.fround(Math.log(6)))));
    const v = Math.fround(Math.fround(1 / Math.fround(1 + Math.fround(1.2 * Math.fround(1 - 0.75)))) * idf) + 0.5;
    expect(Math.abs(r[0][1] - Math.trunc(v * 100000))).toBeLessThanOrEqual(1);
  });
  it('arithmetic, comparisons and functions', () => {
    const q = t('today');
    expect(expr(q, '2+3*4-10%4')).toEqual([['3', 12]]);
    expect(expr(q, 'if(1>2, 5, 7) + max(3, 4) + min(3,4) + abs(-2)')).toEqual([['3', 16]]);
    expect(expr(q, '-(2.5*2)')).toEqual([['3', -5]]);
    expect(expr(q, 'pow(2,10) + sqrt(16) + (1 and 0) + (1 or 0) + not 0')).toEqual([['3', 1030]]);
  });
});

describe('expr errors (Manticore texts)', () => {
  const run = (e: string) => () => expr(t('hello'), e);
  it('field factors outside aggregates', () => {
    expect(run('lcs')).toThrow('field factors must only occur within field aggregation functions in ranking expression');
  });
  it('nested aggregates', () => {
    expect(run('sum(top(lcs))')).toThrow('field aggregates can not be nested in ranking expression');
  });
  it('weight() and unknown names', () => {
    expect(run('weight()+1')).toThrow('ranking expression must not refer to WEIGHT()');
    expect(run('foo+1')).toThrow('unknown column: foo');
  });
  it('syntax errors', () => {
    expect(run('sum(lcs')).toThrow(/syntax error/);
    expect(run('1 +')).toThrow(/syntax error/);
  });
});

describe('idf and index_weights options', () => {
  it('idf=plain lowers idf of a word in most documents; tfidf_unnormalized doubles two-word idf', () => {
    const q = and(t('hello'), t('world'));
    const base = expr(q, 'bm25');
    const plain = weights(q, { ranker: 'expr', rankExpr: 'bm25', idf: { plain: true } });
    expect(plain).not.toEqual(base);
    const un = weights(q, { ranker: 'expr', rankExpr: 'sum(tf_idf)*100000', idf: { unnormalized: true } });
    const norm = expr(q, 'sum(tf_idf)*100000');
    for (let i = 0; i < un.length; i++) expect(Math.abs(un[i][1] - 2 * norm[i][1])).toBeLessThanOrEqual(2);
  });
  it('index_weights multiplies the weight', () => {
    const q = t('today');
    expect(weights(q, { ranker: 'none', indexWeight: 5 })).toEqual([['3', 5]]);
  });
});
