// Operator cases from query-syntax.jsonl (test_052, test_054, test_055, test_094, test_413),
// computed through the RtIndex API with each table's documents inserted in one batch.
import { describe, expect, it } from 'vitest';
import { RtIndex } from '../../../src/index/rt-index.js';
import type { IndexSchema } from '../../../src/index/types.js';
import type { QueryNode } from '../../../src/query/ast.js';
import { and, doc, not, or, phrase, prox, quorum, req, t } from './helpers.js';

const order = (...children: QueryNode[]): QueryNode => ({ kind: 'order', children });
const w = (text: string): QueryNode => t(text, { wildcard: true });
type Rows = [string, number][];

function run(idx: RtIndex, q: QueryNode): Rows {
  return idx.search(req(q)).hits.map((h) => [String(h.docId), h.weight]);
}

describe('strict order (test_052)', () => {
  const schema: IndexSchema = { fields: ['title', 'content'], attrs: [] };
  const idx = new RtIndex(schema);
  idx.addBatch([
    doc(schema, 1, { title: 'aaa bbb', content: 'ccc ddd' }),
    doc(schema, 2, { title: 'xxx', content: 'ccc ddd eee fff ggg' }),
    doc(schema, 3, { title: 'yyy', content: 'one one one two three' }),
    doc(schema, 4, { title: 'zzz', content: 'one two three one three one two four one two three four' }),
    doc(schema, 5, { title: '', content: 'a b c d e f g' }),
  ]);
  const cases: [string, QueryNode, Rows][] = [
    ['cross field', order(t('aaa'), t('ccc')), []],
    ['3 cross field', order(t('aaa'), t('bbb'), t('ccc')), []],
    ['3 mixed', order(t('aaa'), t('ccc'), t('ddd')), []],
    ['2', order(t('ccc'), t('ddd')), [['1', 2543], ['2', 2543]]],
    ['3', order(t('ccc'), t('eee'), t('fff')), [['2', 2529]]],
    ['3 b', order(t('ccc'), t('ddd'), t('ggg')), [['2', 2529]]],
    ['3 miss', order(t('ccc'), t('ddd'), t('xxx')), []],
    ['3 miss order', order(t('eee'), t('ddd'), t('ggg')), []],
    ['repeats', order(t('one'), t('two'), t('three')), [['4', 3549], ['3', 2546]]],
    ['far', order(t('one'), t('three')), [['4', 2574], ['3', 1569]]],
    ['dup term', order(t('one'), t('one'), t('three')), [['4', 2574], ['3', 2569]]],
    ['dup term 3', order(t('one'), t('one'), t('one'), t('three')), [['3', 3569], ['4', 1574]]],
    ['dup term 4', order(t('one'), t('one'), t('one'), t('one'), t('three')), [['4', 1574]]],
    ['4', order(t('one'), t('two'), t('three'), t('four')), [['4', 4537]]],
    ['phrase overlap', order(phrase('a b c'), t('b'), t('c'), t('d')), []],
    ['phrase overlap 2', order(phrase('a b c'), t('c'), t('d'), t('e')), []],
    ['phrase ok', order(phrase('a b c'), t('e'), t('f'), t('g')), [['5', 3602]]],
    ['phrase middle', order(t('a'), phrase('b c d'), t('e')), [['5', 4540]]],
    ['phrase phrase overlap', order(phrase('a b c d'), phrase('d e f')), []],
    ['phrase phrase', order(phrase('a b c d'), phrase('e f g')), [['5', 4616]]],
    ['or groups', order(or(t('ccc'), phrase('ddd eee')), or(t('ddd'), t('ggg'))), [['2', 1594], ['1', 1521]]],
    ['field end', order(t('ccc'), t('ddd', { fieldEnd: true })), [['1', 2543]]],
    ['start and end', order(t('one', { fieldStart: true }), t('two'), t('three', { fieldEnd: true })), [['3', 2546]]],
    ['start phrase end', order(t('one', { fieldStart: true }), phrase('one one'), t('two'), t('three', { fieldEnd: true })), [['3', 5546]]],
    ['quorum before', order(quorum('zzz aaa', 1), t('bbb')), [['1', 1568]]],
    ['quorum before miss', order(quorum('zzz aaa', 1), t('ddd')), []],
    // the parser's form of the same query: /1 became OR, its number took position 3
    ['parser positions', order(or(t('zzz', { pos: 1 }), t('aaa', { pos: 2 })), t('bbb', { pos: 4 })), [['1', 1568]]],
  ];
  it.each(cases)('%s', (_, q, rows) => expect(run(idx, q)).toEqual(rows));
});

describe('quorum (test_054)', () => {
  const schema: IndexSchema = { fields: ['content'], attrs: [] };
  const idx = new RtIndex(schema);
  idx.addBatch([doc(schema, 1, { content: 'hello world' }), doc(schema, 2, { content: 'one two three four five' })]);
  const cases: [string, QueryNode, Rows][] = [
    ['1 of 2', quorum('hello heaven', 1), [['1', 1571]]],
    ['2 of 3 miss', quorum('hello from above', 2), []],
    ['3 of 4 miss', quorum('one two foo bar', 3), []],
    ['dup words miss', quorum('one two two bar', 3), []],
    ['dup words 2', quorum('one two two bar', 2), [['2', 2595]]],
    ['dup 3', quorum('two two one three', 3), [['2', 1643]]],
    ['dup 3 miss', quorum('two two one foo', 3), []],
    ['percent 0.1', quorum('one world', 1), [['1', 1571], ['2', 1571]]],
    ['percent 0.4', quorum('five tree oak one two hive', 2), [['2', 2571]]],
    ['percent 0.59', quorum('five tree oak one two hive', 3), [['2', 2571]]],
    ['percent 0.60', quorum('five tree oak one two hive', 4), []],
  ];
  it.each(cases)('%s', (_, q, rows) => expect(run(idx, q)).toEqual(rows));

  it('wildcards in quorum and phrase', () => {
    const qf = (words: QueryNode[], threshold: number): QueryNode =>
      ({ kind: 'quorum', terms: words as never, threshold });
    expect(run(idx, qf([w('o*'), w('t*')], 2))).toEqual([['2', 2670]]);
    expect(run(idx, qf([w('h*'), w('w*'), w('f*')], 2))).toEqual([['1', 2595]]);
    const ph: QueryNode = { kind: 'phrase', terms: [t('one'), w('t*') as never, t('three'), t('four'), t('five')], offsets: [0, 1, 2, 3, 4] };
    expect(run(idx, ph)).toEqual([['2', 5654]]);
  });
});

describe('prefixes (test_054 infix table)', () => {
  const schema: IndexSchema = { fields: ['content'], attrs: [] };
  const idx = new RtIndex(schema);
  idx.addBatch([doc(schema, 10, { content: 'al all' }), doc(schema, 11, { content: 'always' })]);
  it('expansions form one keyword', () => {
    expect(run(idx, w('al*'))).toEqual([['11', 1356], ['10', 1302]]);
    expect(run(idx, w('alw*'))).toEqual([['11', 1643]]);
    expect(run(idx, or(w('al*'), w('alw*')))).toEqual([['11', 1500], ['10', 1401]]);
  });
});

describe('proximity (test_094)', () => {
  const schema: IndexSchema = { fields: ['body'], attrs: [] };
  const idx = new RtIndex(schema);
  idx.addBatch([
    doc(schema, 1, { body: Array(257).fill('one two').join(' ') }),
    doc(schema, 2, { body: 'two one' }),
    doc(schema, 3, { body: 'aa bb cc dd ee ff' }),
  ]);
  it('LCS wraps at 256; order only affects ranking', () => expect(run(idx, prox('one two', 10))).toEqual([['1', 255500], ['2', 1500]]));
  it('six words', () => expect(run(idx, prox('aa bb cc dd ee ff', 10))).toEqual([['3', 6680]]));
  it('swapped', () => expect(run(idx, prox('aa bb dd cc ee ff', 10))).toEqual([['3', 4680]]));
  it('subset', () => expect(run(idx, prox('aa bb ee ff', 10))).toEqual([['3', 4680]]));
});

describe('field start and end (test_055)', () => {
  const schema: IndexSchema = { fields: ['title', 'body'], attrs: [] };
  const idx = new RtIndex(schema);
  idx.addBatch([
    doc(schema, 1, { body: 'one' }), doc(schema, 2, { body: 'one and two' }), doc(schema, 3, { body: 'one but not the other one' }),
    doc(schema, 4, { body: 'two and one' }), doc(schema, 9, { body: 'other three' }),
  ]);
  it('^one two', () => expect(run(idx, and(t('one', { fieldStart: true }), t('two'))).map((r) => r[0])).toEqual(['2']));
  it('three$', () => expect(run(idx, t('three', { fieldEnd: true })).map((r) => r[0])).toEqual(['9']));
});

describe('NOT (test_413)', () => {
  const schema: IndexSchema = { fields: ['title'], attrs: [] };
  const idx = new RtIndex(schema);
  idx.addBatch(['hello world', 'hello hallo world', 'a b world', 'a b c world', 'hello war', 'hello hallo war', 'a b war', 'a b c war']
    .map((title, i) => doc(schema, i + 1, { title })));
  const ids = (q: QueryNode) => idx.search(req(q, { sort: [{ attr: 'id', desc: false }] })).hits.map((h) => Number(h.docId));
  it('inside a group and leading', () => {
    expect(ids(and(t('hello'), and(not(t('war')), not(t('hallo')))))).toEqual([1]);
    expect(ids(and(not(t('war')), not(t('hallo')), t('hello')))).toEqual([1]);
  });
  it('NOT only (not_terms_only_allowed=1)', () => {
    expect(ids(not(t('world')))).toEqual([5, 6, 7, 8]);
    expect(ids(and(not(t('war')), not(t('a'))))).toEqual([1, 2]);
  });
});

describe('NEAR (FSMmultinear)', () => {
  const schema: IndexSchema = { fields: ['body'], attrs: [] };
  const idx = new RtIndex(schema);
  idx.addBatch([
    doc(schema, 1, { body: 'a x b' }), doc(schema, 2, { body: 'a x x b' }), doc(schema, 3, { body: 'b a' }),
    doc(schema, 4, { body: 'a c x b' }), doc(schema, 5, { body: 'c x a y b' }),
  ]);
  const near = (distance: number, ...children: QueryNode[]): QueryNode => ({ kind: 'near', children, distance });
  const ids = (q: QueryNode) => idx.search(req(q, { sort: [{ attr: 'id', desc: false }] })).hits.map((h) => Number(h.docId));
  it('two operands within N words, any order', () => {
    expect(ids(near(2, t('a'), t('b')))).toEqual([1, 3, 5]);
    expect(ids(near(3, t('a'), t('b')))).toEqual([1, 2, 3, 4, 5]);
    expect(ids(near(1, t('a'), t('b')))).toEqual([3]);
  });
  it('a chain of three operands, each near the previous', () => {
    expect(ids(near(1, t('a'), t('c'), t('b')))).toEqual([]);
    expect(ids(near(2, t('a'), t('c'), t('b')))).toEqual([4, 5]);
  });
  it('a matched pair ranks as a two-word phrase', () => {
    const w = idx.search(req(near(2, t('a'), t('b')))).hits.find((h) => h.docId === 1n)!.weight;
    expect(Math.floor(w / 1000)).toBe(2);
  });
});
