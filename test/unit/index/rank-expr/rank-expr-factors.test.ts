// lccs, wlccs, atc, max_window_hits and min_gaps: the core (through RtIndex and ranker=expr) against
// the naive twins of test/reference/rank-factors.ts on random documents and AND/OR word queries.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RtIndex } from '../../../../src/index/rt-index.js';
import type { DocInput, IndexSchema } from '../../../../src/index/types.js';
import type { QueryNode } from '../../../../src/query/ast.js';
import { END, fieldOf, phrase, sortHits, type Hit } from '../../../reference/hits.js';
import { idf } from '../../../reference/evaluator.js';
import { rowFactors, type FactorQuery, type RowFactors } from '../../../reference/rank-factors.js';
import { req, t } from '../helpers.js';

const schema: IndexSchema = { fields: ['title', 'body'], attrs: [] };
const VOCAB = ['a', 'b', 'c', 'd', 'e'];
const f = Math.fround;

const word = fc.constantFrom(...VOCAB);
const fieldText = fc.array(word, { minLength: 0, maxLength: 40 });
const docs = fc.array(fc.tuple(fieldText, fc.array(word, { minLength: 0, maxLength: 8 })), { minLength: 1, maxLength: 12 }).map((list) =>
  list.map(([a, b], i): DocInput => ({
    docId: BigInt(i + 1),
    fields: [a, b].map((terms) => ({ terms, positions: terms.map((_, j) => j + 1), length: terms.length })),
    attrs: [],
  })));
const query = fc.record({
  words: fc.array(word, { minLength: 1, maxLength: 6 }), or: fc.boolean(),
  // a leading two-word phrase: hits spanning two positions
  lead: fc.option(fc.uniqueArray(word, { minLength: 2, maxLength: 2 }), { nil: undefined }),
});

/** Hits of `w` in a row at query position `qpos`. */
function termHits(d: DocInput, w: string, qpos: number): Hit[] {
  const hits: Hit[] = [];
  d.fields.forEach((ft, fi) => {
    const last = Math.max(0, ...ft.positions);
    ft.terms.forEach((term, j) => {
      const p = ft.positions[j];
      if (term === w) hits.push({ pos: ((fi << 24) | (p === last ? END : 0) | p) >>> 0, qpos, span: 1, weight: 1 });
    });
  });
  return hits;
}

/** The hit list of a matching row for an AND/OR of [phrase,] words at query positions 1..n, or null. */
function rowHits(d: DocInput, words: string[], or: boolean, lead?: string[]): Hit[] | null {
  const parts: Hit[][] = [];
  if (lead) parts.push(phrase(sortHits([...termHits(d, lead[0], 1), ...termHits(d, lead[1], 2)], true), [1, 2]));
  const base = lead ? 2 : 0;
  words.forEach((w, i) => parts.push(termHits(d, w, base + i + 1)));
  const matched = parts.filter((p) => p.length > 0).length;
  if (or ? matched === 0 : matched < parts.length) return null;
  return sortHits(parts.flat(), false);
}

function factorQuery(all: DocInput[], words: string[], window: number): FactorQuery {
  const distinct = [...new Set(words)];
  const df = (w: string) => all.filter((d) => d.fields.some((ft) => ft.terms.includes(w))).length;
  const idfs = [0, ...words.map((w) => idf(all.length, df(w), distinct.length))];
  const atoms = [0, ...words.map((w) => words.indexOf(w) + 1)];
  return { idf: idfs, atoms, maxQpos: words.length, dupes: distinct.length < words.length, window };
}

/** sum() over the matched fields, in field order, as the core's i32 / f32 loops. */
function sumInt(rf: Map<number, number>, fields: number[], scale: number): number {
  return fields.reduce((s, fl) => (s + (rf.get(fl) ?? 0) * scale) | 0, 0);
}
function sumFloat(rf: Map<number, number>, fields: number[], scale: number): number {
  return Math.trunc(fields.reduce((s, fl) => f(s + f((rf.get(fl) ?? 0) * scale)), 0)) | 0;
}

const EXPRS: [string, (r: RowFactors, fields: number[]) => number][] = [
  ['sum(lccs)', (r, fl) => sumInt(r.lccs, fl, 1)],
  ['sum(wlccs*1000)', (r, fl) => sumFloat(r.wlccs, fl, 1000)],
  ['sum(atc*1000)', (r, fl) => sumFloat(r.atc, fl, 1000)],
  ['sum(max_window_hits(3))', (r, fl) => sumInt(r.maxWindowHits, fl, 1)],
  ['sum(min_gaps)', (r, fl) => sumInt(r.minGaps, fl, 1)],
];

function check(all: DocInput[], words: string[], or: boolean, lead?: string[]): void {
  const idx = new RtIndex(schema);
  idx.addBatch(all);
  const terms: QueryNode[] = words.map((w) => t(w));
  const q: QueryNode = { kind: or ? 'or' : 'and', children: lead ? [{ kind: 'phrase', terms: lead.map((w) => t(w)), offsets: [0, 1] }, ...terms] : terms };
  const fq = factorQuery(all, [...(lead ?? []), ...words], 3);
  const expected = new Map<string, [string, number][]>();
  for (const d of all) {
    const hits = rowHits(d, words, or, lead);
    if (!hits) continue;
    const rf = rowFactors(hits, fq);
    const fields = [...new Set(hits.map((h) => fieldOf(h.pos)))].sort((a, b) => a - b);
    for (const [e, fn] of EXPRS) expected.set(e, [...(expected.get(e) ?? []), [String(d.docId), fn(rf, fields)]]);
  }
  for (const [e] of EXPRS) {
    const got = idx.search(req(q, { ranker: 'expr', rankExpr: e, sort: [{ attr: 'id', desc: false }], limit: 100 })).hits;
    expect(got.map((h) => [String(h.docId), h.weight]), e).toEqual(expected.get(e) ?? []);
  }
}

describe('expression ranker factors: core equals the reference', () => {
  it('lccs, wlccs, atc, max_window_hits(3), min_gaps on random rows', () => {
    fc.assert(fc.property(docs, query, (all, { words, or, lead }) => check(all, words, or, lead)), { numRuns: 200 });
  });
});
