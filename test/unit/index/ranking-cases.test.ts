// Ranking numbers from the conformance cases (ranking.jsonl, query-syntax.jsonl), computed through
// the RtIndex API with each table's documents inserted in one batch.
import { describe, expect, it } from 'vitest';
import { RtIndex } from '../../../src/index/rt-index.js';
import type { IndexSchema, SearchRequest } from '../../../src/index/types.js';
import { and, doc, field, or, phrase, prox, quorum, req, t } from './helpers.js';

function ids(idx: RtIndex, r: SearchRequest): [string, number][] {
  return idx.search(r).hits.map((h) => [String(h.docId), h.weight]);
}

const byWeightThenId = [{ attr: 'weight()', desc: true }, { attr: 'id', desc: false }];

describe('test_322 table (title, body, spam; gid)', () => {
  const schema: IndexSchema = { fields: ['title', 'body', 'spam'], attrs: [{ name: 'gid', type: 'uint' }] };
  const idx = new RtIndex(schema);
  idx.addBatch([
    doc(schema, 1, { title: '|sample program', body: '|program flow direct', spam: '|sample program flow' }, [123]),
    doc(schema, 2, { title: '|one sample program', body: '|program rev flow', spam: '|one rev flow' }, [234]),
    doc(schema, 3, { title: '|sample two program', body: '|sub program flow', spam: '|two sub program' }, [345]),
    doc(schema, 100, { title: 'unsigned', body: '', spam: '' }, [4294967295]),
  ]);
  const q = and(t('program'), t('flow'));
  const run = (ranker: SearchRequest['ranker'], fieldWeights: Record<string, number>) =>
    ids(idx, req(q, { ranker, fieldWeights, sort: byWeightThenId }));

  it('uint filter keeps 4294967295', () => {
    const r = idx.search(req(null, { filters: [{ attr: 'gid', op: '>', value: 1000 }] }));
    expect(r.hits.map((h) => h.docId)).toEqual([100n]);
    expect(idx.getAttrs(100n)).toEqual([4294967295]);
  });
  it('field weights with the default ranker', () => {
    expect(run('proximity_bm25', { body: 2, spam: 1 })).toEqual([['1', 7415], ['3', 6426], ['2', 4421]]);
    expect(run('proximity_bm25', { body: 2, spam: 10 })).toEqual([['1', 25415], ['3', 15426], ['2', 13421]]);
  });
  it('wordcount', () => {
    expect(run('wordcount', { body: 2, spam: 10 })).toEqual([['1', 25], ['2', 15], ['3', 15]]);
    expect(run('wordcount', { body: 2, spam: 0 })).toEqual([['1', 5], ['2', 5], ['3', 5]]);
    expect(run('wordcount', { body: 2, spam: -10 })).toEqual([['2', -5], ['3', -5], ['1', -15]]);
  });
  it('zero and negative weights', () => {
    expect(run('proximity_bm25', { body: 2, spam: 0 })).toEqual([['3', 5426], ['1', 5415], ['2', 3421]]);
    expect(run('proximity_bm25', { body: 2, spam: -2 })).toEqual([['3', 3426], ['2', 1421], ['1', 1415]]);
    expect(run('proximity_bm25', { body: 2, spam: -10 })).toEqual([['3', -4574], ['2', -6579], ['1', -14585]]);
  });
});

describe('test_037 table (title, body)', () => {
  const schema: IndexSchema = { fields: ['title', 'body'], attrs: [] };
  const idx = new RtIndex(schema);
  const filler = [3, 4, 5, 6, 7, 8, 9, 10].map((i) => doc(schema, i, { title: 'filler', body: 'filler' }));
  idx.addBatch([
    doc(schema, 1, { title: 'зимние шины диски чего то тут зимние шины', body: '' }),
    doc(schema, 2, { title: 'test doc two', body: 'second stupid test document with random content' }),
    ...filler,
  ]);
  const q = phrase('зимние шины');
  it.each([['proximity_bm25', 2800], ['bm25', 1800], ['none', 1], ['wordcount', 2]] as const)('phrase with %s', (ranker, w) => {
    expect(ids(idx, req(q, { ranker }))).toEqual([['1', w]]);
  });
  it('@title single word with bm25 counts tf over all fields', () => {
    expect(ids(idx, req(t('test', { field: field(['title']) }), { ranker: 'bm25' }))).toEqual([['2', 1800]]);
  });
});

describe('formula cases', () => {
  const schema: IndexSchema = { fields: ['title'], attrs: [] };
  it('single word in 1 of 4 docs', () => {
    const idx = new RtIndex(schema);
    idx.addBatch(['hello', 'world', 'other', 'more'].map((w, i) => doc(schema, i + 1, { title: w })));
    expect(ids(idx, req(t('hello')))).toEqual([['1', 1695]]);
  });
  it('idf zero gives 1500', () => {
    const idx = new RtIndex(schema);
    idx.addBatch(['hello', 'hello', 'other'].map((w, i) => doc(schema, i + 1, { title: w })));
    expect(ids(idx, req(t('hello')))).toEqual([['1', 1500], ['2', 1500]]);
  });
});

describe('test_337 table (title, content)', () => {
  const schema: IndexSchema = { fields: ['title', 'content'], attrs: [{ name: 'gid', type: 'uint' }] };
  const rows: [number, string, string][] = [
    [1, '1st it was indulging itself in this way', 'first now and then at Bliss`s face'],
    [2, '2nd No wonder', 'second he knew what was going on.'],
    [3, '3rd To speak to its fellow-Solarians would be, to it', 'third its paean to freedom'],
    [4, '4th was no way it could speak to ', 'fourth was no way it could speak to robots on a basis of '],
    [5, '5th  its paean to freedom', 'fifth it was indulging itself in this way'],
    [10, '10th he knew what was going on', 'Trevize glanced now and then at Bliss`s face, which seemed entirely concentrated on Bander.'],
    [11, '11th  it was indulging itself in this way', 'Trevize had grown quite certain he knew what was going on.'],
    [12, '12th  was no way it could speak to ', 'Bander, despite its paean to freedom, found this unique opportunity irresistible.'],
    [13, '13th third its paean to', 'There was no way it could speak to robots on a basis of intellectual equality, and certainly not to animals.'],
    [14, '14th what was going on', 'To speak to its fellow-Solarians would be, to it, unpleasant, and what communication there must be would be forced, and never spontaneous.'],
    [15, '15th and then at Bliss`s face', 'No wonder, Trevize thought, it was indulging itself in this way.'],
    [16, '16th', 'Bliss, presumably, was working on the supposition that if Bander spoke enough, it might tell them something useful concerning Earth. That made sense to Trevize, so that even if he had not been truly curious about the subject under discussion, he would nevertheless have endeavored to continue the conversation.'],
  ];
  it('@content and | first', () => {
    const idx = new RtIndex(schema);
    idx.addBatch(rows.map(([id, title, content]) => doc(schema, id, { title, content }, [id])));
    const f = field(['content']);
    const q = or(t('and', { field: f }), t('first', { field: f }));
    expect(ids(idx, req(q, { limit: 2 }))).toEqual([['1', 1630], ['14', 1528]]);
  });
});

describe('test_094 proximity', () => {
  const schema: IndexSchema = { fields: ['body'], attrs: [] };
  const idx = new RtIndex(schema);
  idx.addBatch([
    doc(schema, 1, { body: Array(257).fill('one two').join(' ') }),
    doc(schema, 2, { body: 'two one' }),
    doc(schema, 3, { body: 'aa bb cc dd ee ff' }),
  ]);
  it('LCS wraps at 256', () => {
    expect(ids(idx, req(prox('one two', 10)))).toEqual([['1', 255500], ['2', 1500]]);
  });
});

describe('test_054 quorum', () => {
  const schema: IndexSchema = { fields: ['content'], attrs: [] };
  const idx = new RtIndex(schema);
  idx.addBatch([doc(schema, 1, { content: 'hello world' }), doc(schema, 2, { content: 'one two three four five' })]);
  it('absent word still divides the idf', () => {
    expect(ids(idx, req(quorum('hello heaven', 1)))).toEqual([['1', 1571]]);
  });
});

describe('test_037b sph04', () => {
  const schema: IndexSchema = { fields: ['title', 'body'], attrs: [] };
  const idx = new RtIndex(schema);
  idx.addBatch([
    [11, 'market street'], [12, 'market street west'], [13, 'north market street'], [14, 'farmers market street north'],
    [15, 'flower street market'], [16, 'market street is so very market street'],
  ].map(([id, title]) => doc(schema, Number(id), { title: String(title) })));
  it('exact field, field start, elsewhere, reversed', () => {
    expect(ids(idx, req(and(t('market'), t('street')), { ranker: 'sph04' }))).toEqual([
      ['11', 11290], ['12', 10290], ['16', 10212], ['13', 8290], ['14', 8290], ['15', 4290],
    ]);
  });
  it('matchany counts matched keywords and phrase runs', () => {
    // 2 fields of weight 1, 2 keywords: phraseK = 4; 2 keywords + (lcs 2 - 1) * 4 = 6; reversed: 2 + 0
    const r = ids(idx, req(or(t('market'), t('street')), { ranker: 'matchany', sort: [{ attr: 'id', desc: false }] }));
    expect(r).toEqual([['11', 6], ['12', 6], ['13', 6], ['14', 6], ['15', 2], ['16', 6]]);
  });
  it('fieldmask', () => {
    expect(ids(idx, req(t('market'), { ranker: 'fieldmask', limit: 1 }))).toEqual([['11', 1]]);
  });
});
