// Pair postings (segment-pairs.ts): which pairs a batch lists, that merges keep only complete pairs,
// and that answers with pairs are those without: random phrases, field-limited phrases, proximity,
// quorum, NEAR, highlighting, totals and SHOW META, on one thread and on several, over tables merged
// by decoding (deleted rows) and by copying blocks.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RtIndex } from '../../../../src/index/rt-index.js';
import type { DocInput, IndexSchema } from '../../../../src/index/types.js';
import { invertDocs } from '../../../../src/index/segment/doc-inverter.js';
import { pairTerm, pairSettings, type PairSettings } from '../../../../src/index/segment/segment-pairs.js';
import { setQueryThreads } from '../../../../src/index/parallel/query-threads.js';
import { THREADS, useParallelEngine } from '../parallel/parallel-engine.js';
import { Rng } from '../../../fuzz/rng.js';

const doc = (id: number, ...fields: [string[], number[]][]): DocInput => ({
  docId: BigInt(id), attrs: [],
  fields: fields.map(([terms, positions]) => ({ terms, positions, length: positions.length ? Math.max(...positions) : 0 })),
});
const schemaOf = (pairs: PairSettings): IndexSchema => ({ fields: ['title', 'body'], attrs: [], pairs });

/** Term -> rows of an inverted batch. */
function rowsOf(schema: IndexSchema, docs: DocInput[]): Map<string, number[]> {
  const p = invertDocs(schema, docs).postings;
  return new Map(p.terms.map((t, i) => [t, Array.from(p.rows.subarray(p.rowStart[i], p.rowStart[i + 1]))]));
}

describe('pair postings of a batch', () => {
  it('lists every row where the second word stands right after the first, in the same field', () => {
    const all = schemaOf({ mode: 'all' });
    const m = rowsOf(all, [
      doc(1, [['a', 'b'], [1, 2]], [['c'], [1]]),
      doc(2, [['b', 'a'], [1, 2]], [['a', 'x', 'b'], [1, 1, 2]]), // x shares a's position
      doc(3, [['a'], [1]], [['b'], [1]]), // a ends one field, b starts the next: not adjacent
      doc(4, [['b', 'a'], [2, 1]], [[], []]), // out of order in the field: a at 1, b at 2
      doc(5, [['a', 'b'], [1, 3]], [[], []]), // a gap
    ]);
    expect(m.get(pairTerm('a', 'b'))).toEqual([0, 1, 3]);
    expect(m.get(pairTerm('x', 'b'))).toEqual([1]);
    expect(m.get(pairTerm('b', 'a'))).toEqual([1]);
    expect(m.get(pairTerm('a', 'b'))).not.toContain(2);
    expect(m.get('a')).toEqual([0, 1, 2, 3, 4]); // the words themselves unchanged
  });

  it('pairs only what the mode asks: none, both_freq, first_freq, and auto by frequency in a big batch', () => {
    const docs = Array.from({ length: 200 }, (_, i) => doc(i + 1, [['the', 'cat', `w${i}`, 'sat'], [1, 2, 3, 4]]));
    expect([...rowsOf(schemaOf({ mode: 'none' }), docs).keys()].some((t) => t.startsWith('\u0001'))).toBe(false);
    const both = rowsOf(schemaOf({ mode: 'both_freq', freqWords: ['the', 'cat'] }), docs);
    expect(both.get(pairTerm('the', 'cat'))?.length).toBe(200);
    expect(both.has(pairTerm('cat', 'w0'))).toBe(false);
    const first = rowsOf(schemaOf({ mode: 'first_freq', freqWords: ['cat'] }), docs);
    expect(first.get(pairTerm('cat', 'w7'))).toEqual([7]);
    expect(first.has(pairTerm('the', 'cat'))).toBe(false);
    const auto = rowsOf(schemaOf({ mode: 'auto' }), docs);
    expect(auto.get(pairTerm('the', 'cat'))?.length).toBe(200);
    expect(auto.has(pairTerm('cat', 'w0'))).toBe(false); // w0 is on one row of 200
    expect([...rowsOf(schemaOf({ mode: 'auto' }), docs.slice(0, 20)).keys()].some((t) => t.startsWith('\u0001'))).toBe(false);
  });

  it('auto pairs a frequent word with a mid word (0.2 hits a row), never two mid words, nor a rarer word (0.025)', () => {
    // the: a hit every row; cat and dog: 0.2 a row (mid), side by side; bird: 0.025 a row
    const docs = Array.from({ length: 200 }, (_, i) => doc(i + 1, [i % 5 === 0 ? ['the', 'cat', 'dog'] : i % 40 === 1 ? ['the', 'bird', `v${i}`] : ['the', `w${i}`, `v${i}`], [1, 2, 3]]));
    const auto = rowsOf(schemaOf({ mode: 'auto' }), docs);
    expect(auto.get(pairTerm('the', 'cat'))).toEqual(Array.from({ length: 40 }, (_, k) => k * 5));
    expect(auto.has(pairTerm('cat', 'dog'))).toBe(false);
    expect(auto.has(pairTerm('the', 'bird'))).toBe(false);
    expect(auto.has(pairTerm('the', 'w2'))).toBe(false);
  });

  it('auto pairs a word of every row with a low word (0.05 hits a row), a frequent word of fewer rows not', () => {
    // the: a hit every row; was: 0.5 a row (frequent, not every row); such: 0.05 a row, after either
    const docs = Array.from({ length: 200 }, (_, i) => doc(i + 1, [i % 40 === 0 ? ['the', 'such', 'was', `v${i}`]
      : i % 40 === 20 ? ['the', 'was', 'such', `w${i}`] : i % 2 === 0 ? ['the', 'was', `w${i}`] : ['the', `w${i}`, `v${i}`], [1, 2, 3, 4]]));
    const auto = rowsOf(schemaOf({ mode: 'auto' }), docs);
    expect(auto.get(pairTerm('the', 'such'))).toEqual(Array.from({ length: 5 }, (_, k) => k * 40));
    expect(auto.has(pairTerm('was', 'such'))).toBe(false);
    expect(auto.has(pairTerm('such', 'was'))).toBe(false);
    expect(auto.get(pairTerm('the', 'was'))?.length).toBe(95);
  });

  it('lists the same pairs when too many words qualify for a grid of them (bigram_index=all over 1,502 words)', () => {
    // 1,502 eligible words square to more cells than the grid holds: pairs are numbered by a Map; each of
    // the body's first words stands before two others
    const words = Array.from({ length: 3000 }, (_, i) => `w${i}`);
    const docs = Array.from({ length: 1000 }, (_, i) => doc(i + 1, [[words[i], words[i + 1], words[i + 2]], [1, 2, 3]], [[words[2999 - (i % 500)], words[i]], [1, 2]]));
    const m = rowsOf(schemaOf({ mode: 'all' }), docs);
    for (const r of [0, 123, 999]) {
      expect(m.get(pairTerm(words[r], words[r + 1]))).toContain(r);
      expect(m.get(pairTerm(words[r + 1], words[r + 2]))).toContain(r);
      expect(m.get(pairTerm(words[2999 - (r % 500)], words[r]))).toEqual([r]);
    }
    expect(m.get(pairTerm('w5', 'w6'))).toEqual([4, 5]);
    expect([...m.keys()].filter((t) => t.startsWith('\u0001')).length).toBe(1001 + 1000);
  });

  it('reads bigram_index and bigram_freq_words as Manticore names them', () => {
    expect(pairSettings({})).toEqual({ mode: 'auto' });
    expect(pairSettings({ bigram_index: 'none' })).toEqual({ mode: 'none' });
    expect(pairSettings({ bigram_index: 'both_freq', bigram_freq_words: 'The, a of' })).toEqual({ mode: 'both_freq', freqWords: ['the', 'a', 'of'] });
  });
});

describe('merging pair terms', () => {
  it('a merged segment holds every pair any part had, with all their rows', () => {
    const idx = new RtIndex(schemaOf({ mode: 'all' }), { autoMerge: false });
    idx.addBatch([doc(1, [['a', 'b'], [1, 2]], [[], []]), doc(2, [['b', 'c'], [1, 2]], [[], []])]);
    idx.addBatch([doc(3, [['a', 'b', 'c'], [1, 2, 3]], [[], []])]);
    idx.addBatch([doc(4, [['b', 'c'], [1, 2]], [[], []])]);
    idx.optimize();
    const [seg] = idx.segments;
    expect(idx.segments.length).toBe(1);
    expect(seg.termId(pairTerm('b', 'c'))).toBeGreaterThanOrEqual(0);
    expect(seg.docFreq(seg.termId(pairTerm('b', 'c')))).toBe(3);
    // the last part has no a (no a-b there); the others each list theirs
    expect(seg.docFreq(seg.termId(pairTerm('a', 'b')))).toBe(2);
    idx.truncate();
  });

  for (const deleted of [false, true]) {
    for (const smallFirst of [false, true]) {
      it(`builds a pair a part lacks from its words' positions (${deleted ? 'merged by decoding' : 'merged by copying blocks'}, ${smallFirst ? 'that part first' : 'that part last'})`, () => {
        const idx = new RtIndex(schemaOf({ mode: 'auto' }), { autoMerge: false });
        // 100 rows: auto pairs the, cat; the 4-row batch is too small to pair anything
        const big = Array.from({ length: 100 }, (_, i) => doc(i + 11, [['the', 'cat', `w${i}`], [1, 2, 3]], [[], []]));
        const small = [
          doc(1, [['x', 'the', 'cat'], [1, 2, 3]], [['the', 'cat', 'the', 'cat'], [1, 2, 4, 5]]), // both fields, twice in the body
          doc(2, [['cat', 'the'], [1, 2]], [[], []]), // the other order
          doc(3, [['the'], [1]], [['cat'], [1]]), // the ends one field, cat starts the next
          doc(4, [['the', 'y', 'cat'], [1, 1, 2]], [[], []]), // y shares the's position
        ];
        for (const batch of smallFirst ? [small, big] : [big, small]) idx.addBatch(batch);
        expect(idx.segments[smallFirst ? 0 : 1].termId(pairTerm('the', 'cat'))).toBe(-1);
        if (deleted) idx.delete([11n]);
        idx.optimize();
        const [seg] = idx.segments;
        const t = seg.termId(pairTerm('the', 'cat'));
        expect(t).toBeGreaterThanOrEqual(0);
        const bigRows = deleted ? 99 : 100;
        expect(seg.docFreq(t)).toBe(bigRows + 2); // and the rows of 1 and 4
        expect(seg.hitCount(t)).toBe(bigRows + 3 + 1);
        idx.truncate();
      });
    }
  }
});

// the same rows in a table with automatic pairs, one with every pair and one without any
const VOCAB = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel'];
const random = new Rng(11);
const rand = () => random.next();
const skewed = () => VOCAB[Math.floor(VOCAB.length * rand() * rand())];
const words = (n: number) => Array.from({ length: n }, skewed).join(' ');
const TABLES: [string, string][] = [['p', ''], ['a', " bigram_index='all'"], ['n', " bigram_index='none'"]];

const { answer } = useParallelEngine('quarry-pairs-', async (sql) => {
  const batches = Array.from({ length: 6 }, (_, b) => Array.from({ length: 500 }, (_, i) =>
    `(${b * 500 + i + 1}, '${words(2 + Math.floor(rand() * 5))}', '${words(5 + Math.floor(rand() * 25))}')`));
  const gone = Array.from({ length: 200 }, () => 1 + Math.floor(rand() * 3000));
  for (const [name, opts] of TABLES) {
    for (const suffix of ['', 'c']) {
      const [r] = await sql(`CREATE TABLE ${name}${suffix} (title text, body text)${opts}`);
      if (r.kind === 'error') throw new Error(r.message);
      for (const rows of batches) {
        const [ins] = await sql(`INSERT INTO ${name}${suffix} (id, title, body) VALUES ${rows.join(',')}`);
        if (ins.kind === 'error') throw new Error(ins.message);
      }
      // <name>: deletes, merged by decoding; <name>c: none deleted, merged by copying blocks
      if (suffix === '') await sql(`DELETE FROM ${name} WHERE id IN (${gone.join(',')})`);
      const [opt] = await sql(`OPTIMIZE TABLE ${name}${suffix} OPTION sync=1`);
      if (opt.kind === 'error') throw new Error(opt.message);
    }
  }
});

const word = fc.constantFrom(...VOCAB);
const phrase = fc.tuple(fc.array(word, { minLength: 2, maxLength: 4 }), fc.boolean())
  .map(([ws, gap]) => `"${gap && ws.length > 2 ? [ws[0], '*', ...ws.slice(1)].join(' ') : ws.join(' ')}"`);
const unit = fc.oneof(
  { weight: 5, arbitrary: phrase },
  { weight: 2, arbitrary: fc.tuple(fc.constantFrom('@title', '@body', '@body[6]', '@!title'), phrase).map(([f, p]) => `${f} ${p}`) },
  { weight: 1, arbitrary: phrase.map((p) => `^${p.slice(1)}`.replace(/^\^/, '"^')) },
  { weight: 1, arbitrary: word },
  { weight: 1, arbitrary: fc.tuple(phrase, fc.integer({ min: 1, max: 4 })).map(([p, n]) => `${p}~${n}`) },
  { weight: 1, arbitrary: fc.tuple(phrase, fc.integer({ min: 1, max: 2 })).map(([p, n]) => `${p}/${n}`) },
  { weight: 1, arbitrary: fc.tuple(phrase, word).map(([p, w]) => `${p} NEAR/3 ${w}`) },
);
const match = fc.oneof(
  { weight: 4, arbitrary: unit },
  { weight: 2, arbitrary: fc.array(unit, { minLength: 2, maxLength: 3 }).map((us) => us.join(' | ')) },
  { weight: 2, arbitrary: fc.array(unit, { minLength: 2, maxLength: 3 }).map((us) => us.join(' ')) },
  { weight: 1, arbitrary: fc.tuple(unit, unit).map(([a, b]) => `${a} -${b}`) },
);
const select = fc.record({
  match,
  ranker: fc.constantFrom('', 'bm25', 'sph04', 'wordcount', 'proximity'),
  order: fc.constantFrom('', '', ' ORDER BY id DESC'),
  limit: fc.constantFrom('LIMIT 1', 'LIMIT 5', 'LIMIT 20', 'LIMIT 3, 7'),
  highlight: fc.boolean(),
}).map(({ match, ranker, order, limit, highlight }) =>
  `SELECT id, weight()${highlight ? ', HIGHLIGHT()' : ''} FROM T WHERE MATCH('${match}')${order} ${limit}${ranker ? ` OPTION ranker=${ranker}` : ''}`);

/** The answer of `q` on table `name`, the table's name in error messages made T. */
async function on(q: string, name: string): Promise<unknown> {
  const text = JSON.stringify(await answer(q.replace(' FROM T ', ` FROM ${name} `)), (_, v) => (typeof v === 'bigint' ? `${v}n` : v));
  return JSON.parse(text.split(`table ${name}:`).join('table T:'));
}

describe('merging pair terms of a mid word', () => {
  it('builds the pair of a frequent and a mid word that a part lacks; drops a pair of two mid words', () => {
    const idx = new RtIndex(schemaOf({ mode: 'auto' }), { autoMerge: false });
    // 100 rows: the on each, cat and dog (mid, 0.2 a row) after it on a fifth; a 4-row batch pairs nothing
    const big = Array.from({ length: 100 }, (_, i) => doc(i + 11, [i % 5 === 0 ? ['the', 'cat', 'dog'] : ['the', `w${i}`], i % 5 === 0 ? [1, 2, 3] : [1, 2]], [[], []]));
    const small = [doc(1, [['the', 'cat', 'dog'], [1, 2, 3]], [[], []]), doc(2, [['cat', 'the'], [1, 2]], [[], []])];
    idx.addBatch(big);
    idx.addBatch(small);
    idx.optimize();
    const [seg] = idx.segments;
    const t = seg.termId(pairTerm('the', 'cat'));
    expect(t).toBeGreaterThanOrEqual(0);
    expect(seg.docFreq(t)).toBe(20 + 1);
    expect(seg.termId(pairTerm('cat', 'dog'))).toBe(-1);
    idx.truncate();
  });
});

describe('merging pair terms of a low word', () => {
  it('builds the pair of an every-row word and a low word that a part lacks', () => {
    const idx = new RtIndex(schemaOf({ mode: 'auto' }), { autoMerge: false });
    // 200 rows: the on each, such (0.05 a row) after it on a twentieth; a 4-row batch pairs nothing
    const big = Array.from({ length: 200 }, (_, i) => doc(i + 11, [i % 20 === 0 ? ['the', 'such'] : ['the', `w${i}`], [1, 2]], [[], []]));
    const small = [doc(1, [['the', 'such'], [1, 2]], [[], []]), doc(2, [['such', 'the'], [1, 2]], [[], []])];
    idx.addBatch(big);
    idx.addBatch(small);
    idx.optimize();
    const [seg] = idx.segments;
    const t = seg.termId(pairTerm('the', 'such'));
    expect(t).toBeGreaterThanOrEqual(0);
    expect(seg.docFreq(t)).toBe(10 + 1);
    idx.truncate();
  });
});

describe('answers with pair postings', () => {
  for (const threads of [1, THREADS]) {
    it(`equal those without on ${threads} thread(s): random phrases over tables merged both ways`, async () => {
      await setQueryThreads(threads);
      await fc.assert(fc.asyncProperty(select, fc.constantFrom('', 'c'), async (q, suffix) => {
        const without = await on(q, `n${suffix}`);
        expect(await on(q, `p${suffix}`), q).toEqual(without);
        expect(await on(q, `a${suffix}`), q).toEqual(without);
      }), { numRuns: threads === 1 ? 200 : 100 });
    }, 300_000);
  }
});
