// bm25a and bm25f over index_field_lengths: the core against the naive twins of
// test/reference/rank-bm25.ts on random documents and AND/OR word queries (repeats included).
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RtIndex } from '../../../../src/index/rt-index.js';
import type { DocInput, IndexSchema } from '../../../../src/index/types.js';
import type { QueryNode } from '../../../../src/query/ast.js';
import { END, type Hit } from '../../../reference/hits.js';
import { idf } from '../../../reference/evaluator.js';
import { bm25a, bm25f } from '../../../reference/rank-bm25.js';
import type { FactorQuery } from '../../../reference/rank-factors.js';
import { t } from '../helpers.js';
import { tableWeights } from './rank-expr-search.js';

const schema: IndexSchema = { fields: ['title', 'body'], attrs: [{ name: 'title_len', type: 'uint' }, { name: 'body_len', type: 'uint' }] };
const f = Math.fround;
const word = fc.constantFrom('a', 'b', 'c', 'd');
const text = (max: number) => fc.array(word, { minLength: 0, maxLength: max });
const docs = fc.array(fc.tuple(text(6), text(12)), { minLength: 1, maxLength: 10 }).map((list) =>
  list.map(([a, b], i): DocInput => ({
    docId: BigInt(i + 1),
    fields: [a, b].map((terms) => ({ terms, positions: terms.map((_, j) => j + 1), length: terms.length })),
    attrs: [a.length, b.length],
  })));
const query = fc.record({ words: fc.array(word, { minLength: 1, maxLength: 4 }), or: fc.boolean() });
const params = fc.record({ k1: fc.constantFrom(1.2, 0.5, 2), b: fc.constantFrom(0.75, 0, 1, 0.3), title: fc.integer({ min: 1, max: 5 }) });

function rowHits(d: DocInput, words: string[], or: boolean): Hit[] | null {
  const hits: Hit[] = [];
  const found = words.map((w, i) => {
    let any = false;
    d.fields.forEach((ft, fi) => ft.terms.forEach((term, j) => {
      if (term !== w) return;
      const p = ft.positions[j];
      hits.push({ pos: ((fi << 24) | (p === ft.length ? END : 0) | p) >>> 0, qpos: i + 1, span: 1, weight: 1 });
      any = true;
    }));
    return any;
  });
  if (or ? !found.some(Boolean) : !found.every(Boolean)) return null;
  return hits.sort((x, y) => x.pos - y.pos || x.qpos - y.qpos);
}

describe('bm25a / bm25f with field lengths: core equals the reference', () => {
  it('random rows, k1, b and title weight', () => {
    fc.assert(fc.property(docs, query, params, (all, { words, or }, { k1, b, title }) => {
      const idx = new RtIndex(schema);
      idx.addBatch(all);
      const distinct = [...new Set(words)];
      const df = (w: string) => all.filter((d) => d.fields.some((ft) => ft.terms.includes(w))).length;
      const fq: FactorQuery = {
        idf: [0, ...words.map((w) => idf(all.length, df(w), distinct.length))],
        atoms: [0, ...words.map((w) => words.indexOf(w) + 1)], maxQpos: words.length, dupes: distinct.length < words.length, window: 1,
      };
      const totals = [0, 1].map((fl) => all.reduce((s, d) => s + d.fields[fl].length, 0));
      const avgdl = f(f(f(0 + totals[0]) + totals[1]) / all.length);
      const avgs = totals.map((x) => Math.trunc(x / all.length));
      const q: QueryNode = { kind: or ? 'or' : 'and', children: words.map((w) => t(w)) };
      const gotA = tableWeights(idx, q, `bm25a(${k1},${b})*1000000`);
      const gotF = tableWeights(idx, q, `bm25f(${k1},${b},{title=${title}})*1000000`);
      const wantA = new Map<number, number>();
      const wantF = new Map<number, number>();
      for (const d of all) {
        const hits = rowHits(d, words, or);
        if (!hits) continue;
        const lens = d.fields.map((ft) => ft.length);
        wantA.set(Number(d.docId), Math.trunc(f(bm25a(hits, fq, k1, b, lens[0] + lens[1], avgdl) * 1e6)));
        wantF.set(Number(d.docId), Math.trunc(f(bm25f(hits, fq, k1, b, [title, 1], lens, avgs) * 1e6)));
      }
      expect(gotA).toEqual(wantA);
      expect(gotF).toEqual(wantF);
    }), { numRuns: 120 });
  });
});
