// searchJsonText writes the /search reply straight to text, searchJsonBytes as UTF-8: byte for byte what
// the object-building renderer they replaced wrote (kept below as the reference), for any columns,
// kinds, ids and texts, and with the texts of stored documents kept as bytes from reply to reply.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cellToSourceJson, JsonFields, RawJson, type JsonOut } from '../../../src/engine/values/cell-format.js';
import type { Cell, CellKind, RowsResult } from '../../../src/engine/result.js';
import { toJsonText } from '../../../src/http/json-text.js';
import { FULL_SCAN_SCORE, searchJsonBytes, searchJsonText } from '../../../src/http/render-search.js';

/** The previous renderer: a JsonFields tree per reply, serialized by toJsonText. */
function referenceText(result: RowsResult): string {
  const idIndex = result.columns.findIndex((c) => c.name.toLowerCase() === 'id');
  const unsignedId = (v: Cell) => (typeof v === 'bigint' ? BigInt.asUintN(64, v).toString() : toJsonText(v));
  const hit = (row: Cell[], i: number): JsonFields => {
    const entries: Array<[string, JsonOut]> = [];
    if (idIndex >= 0) entries.push(['_id', new RawJson(unsignedId(row[idIndex] ?? null))]);
    entries.push(['_score', result.weights?.[i] ?? FULL_SCAN_SCORE]);
    const source: Array<[string, JsonOut]> = [];
    result.columns.forEach((c, j) => { if (j !== idIndex) source.push([c.name, cellToSourceJson(row[j] ?? null, c.kind)]); });
    entries.push(['_source', new JsonFields(source)]);
    const hl = result.highlights?.[i];
    if (hl) entries.push(['highlight', new JsonFields(Object.entries(hl))]);
    return new JsonFields(entries);
  };
  const meta = result.meta;
  const entries: Array<[string, JsonOut]> = [['took', Math.trunc(meta?.timeMs ?? 0)], ['timed_out', false]];
  const warning = result.warning ?? meta?.warning;
  if (warning) entries.push(['warning', { reason: warning }]);
  entries.push(['hits', new JsonFields([
    ['total', meta?.totalFound ?? result.rows.length],
    ['total_relation', meta?.totalRelation ?? 'eq'],
    ['hits', result.rows.map((r, i) => hit(r, i))],
  ])]);
  return toJsonText(new JsonFields(entries));
}

const text = fc.oneof(
  fc.string(), fc.string({ unit: 'grapheme' }), fc.constantFrom('"q"', 'a\\b', 'tab\there\n', '\u2028', '\ud800', 'é😀', '</script>'),
  // long enough for the per-document memo (render-search.ts MEMO_MIN_CHARS)
  fc.string({ minLength: 32, maxLength: 80 }), fc.constantFrom('x'.repeat(40), `${'"q" a\\b '.repeat(8)}`, `${'é😀\n'.repeat(12)}`),
);
const i64 = fc.bigInt({ min: -(1n << 63n), max: (1n << 64n) - 1n });
const KINDS: CellKind[] = ['bigint', 'uint', 'timestamp', 'bool', 'float', 'string', 'json', 'mva'];
const cellOf = (kind: CellKind): fc.Arbitrary<Cell> => {
  const v: Record<CellKind, fc.Arbitrary<Cell>> = {
    bigint: i64, uint: fc.nat({ max: 2 ** 32 - 1 }), timestamp: fc.nat(), bool: fc.constantFrom(0, 1),
    float: fc.float({ noDefaultInfinity: false }).map((x) => x), string: text,
    json: fc.constantFrom('', '{"a":1}', '[1,2.5,"x"]', '18446744073709551615', 'null'), mva: fc.array(i64, { maxLength: 3 }),
  };
  return fc.oneof({ weight: 5, arbitrary: v[kind] }, { weight: 1, arbitrary: fc.constant(null) });
};
const result: fc.Arbitrary<RowsResult> = fc.record({
  columns: fc.array(fc.record({ name: fc.oneof(fc.constantFrom('id', 'ID', 'title', '1', '2', 'a"b'), text), kind: fc.constantFrom(...KINDS) }), { maxLength: 5 }),
  nRows: fc.nat({ max: 4 }),
  scored: fc.boolean(),
  meta: fc.option(fc.record({ timeMs: fc.double({ min: 0, max: 1e4, noNaN: true }), totalFound: fc.nat(), totalRelation: fc.constantFrom('eq', 'gte') as fc.Arbitrary<'eq' | 'gte'>, warning: fc.option(text, { nil: undefined }) }), { nil: undefined }),
  warning: fc.option(text, { nil: undefined }),
  highlighted: fc.boolean(),
  seed: fc.nat(),
}).chain((r) => fc.record({
  rows: fc.array(fc.tuple(...r.columns.map((c) => cellOf(c.kind))), { minLength: r.nRows, maxLength: r.nRows }),
  weights: fc.array(fc.integer({ min: 0, max: 1e6 }), { minLength: r.nRows, maxLength: r.nRows }),
  highlights: fc.array(fc.dictionary(text, fc.array(text, { maxLength: 2 }), { maxKeys: 2 }), { minLength: r.nRows, maxLength: r.nRows }),
}).map((x): RowsResult => ({
  kind: 'rows', columns: r.columns, rows: x.rows as Cell[][],
  ...(r.meta ? { meta: { total: r.nRows, keywords: [], ...r.meta } } : {}),
  ...(r.scored ? { weights: x.weights } : {}),
  ...(r.highlighted ? { highlights: x.highlights } : {}),
  ...(r.warning !== undefined ? { warning: r.warning } : {}),
})));

describe('searchJsonText', () => {
  it('writes what the object-building renderer wrote, for any result', () => {
    fc.assert(fc.property(result, (r) => {
      const want = referenceText(r);
      expect(searchJsonText(r)).toBe(want);
      expect(searchJsonBytes(r).equals(Buffer.from(want, 'utf8'))).toBe(true);
    }), { numRuns: 2000 });
  });

  it('writes the same with rows paired with stored documents (RowsResult.sources), rendered again and again', () => {
    // a small pool of documents, so the same one serves rows with other texts and later results
    const pool = [{}, {}, {}];
    const withSources = fc.tuple(result, fc.array(fc.option(fc.constantFrom(...pool), { nil: undefined }), { minLength: 4, maxLength: 4 }));
    fc.assert(fc.property(withSources, ([r, picks]) => {
      const sourced: RowsResult = { ...r, sources: r.rows.map((_, i) => picks[i]) };
      const want = referenceText(r);
      expect(searchJsonText(sourced)).toBe(want);
      // the second reply reads the texts the first kept with each document
      expect(searchJsonBytes(sourced).equals(Buffer.from(want, 'utf8'))).toBe(true);
      expect(searchJsonBytes(sourced).equals(Buffer.from(want, 'utf8'))).toBe(true);
    }), { numRuns: 2000 });
  });

  it('renders a float changed from 0 to -0 anew: a kept _source stands only for cells that render the same', () => {
    const doc = {};
    const columns = [{ name: 'id', kind: 'bigint' as const }, { name: 'title', kind: 'string' as const }, { name: 'f', kind: 'float' as const }];
    const at = (f: number): RowsResult => ({ kind: 'rows', columns, rows: [[1n, 'a title long enough to be kept with its document', f]], sources: [doc] });
    // the first reply keeps the title, the second the whole _source
    for (let i = 0; i < 3; i++) expect(searchJsonBytes(at(0)).toString()).toBe(referenceText(at(0)));
    expect(searchJsonBytes(at(-0)).toString()).toContain('"f":-0.000000');
    expect(searchJsonBytes(at(-0)).toString()).toBe(referenceText(at(-0)));
  });

  it('prints a negative 64-bit id unsigned, texts escaped, no id column without `_id`', () => {
    const r: RowsResult = {
      kind: 'rows', columns: [{ name: 'id', kind: 'bigint' }, { name: 'title', kind: 'string' }],
      rows: [[-1n, 'say "hi"\\ é\n']], weights: [1500], meta: { total: 1, totalFound: 1, totalRelation: 'eq', timeMs: 2.7, keywords: [] },
    };
    expect(searchJsonText(r)).toBe('{"took":2,"timed_out":false,"hits":{"total":1,"total_relation":"eq","hits":[{"_id":18446744073709551615,"_score":1500,"_source":{"title":"say \\"hi\\"\\\\ é\\n"}}]}}');
    // another kind named id (SELECT 'x' AS id, title AS id: qa29's fuzz seed 103 json #97311) is its JSON value, not bare text
    const named = searchJsonText({ kind: 'rows', columns: [{ name: 'id', kind: 'string' }, { name: 'f', kind: 'float' }], rows: [['x "y"', 1.5]] });
    expect(JSON.parse(named).hits.hits[0]).toEqual({ _id: 'x "y"', _score: 1, _source: { f: 1.5 } });
    expect(JSON.parse(searchJsonText({ kind: 'rows', columns: [{ name: 'id', kind: 'float' }], rows: [[1.5], [null]] })).hits.hits.map((h: { _id: unknown }) => h._id)).toEqual([1.5, null]);
    expect(searchJsonText({ kind: 'rows', columns: [{ name: 'c', kind: 'bigint' }], rows: [[3n]] }))
      .toBe('{"took":0,"timed_out":false,"hits":{"total":1,"total_relation":"eq","hits":[{"_score":1,"_source":{"c":3}}]}}');
  });
});
