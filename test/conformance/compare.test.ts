import { parse } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { parseCaseLine, type Case } from './cases.js';
import { compareOutcome, normalizeVary } from './compare.js';
import type { Outcome } from './transport.js';

function kase(fields: Record<string, unknown>): Case {
  return parseCaseLine(JSON.stringify({ id: 'x', area: 'a', source: 's', evidence: 'e', setup: [], request: { sql: 'q' }, ...fields }));
}

const http = (status: number, bodyText: string): Outcome => ({ kind: 'http', status, body: parse(bodyText) });

describe('exact', () => {
  const c = kase({
    expect: { status: 200, body: { took: null, hits: { total: 2, hits: [{ _id: 1, _score: null, _source: { p: 1.1 } }] } } },
    vary: ['took', 'hits.hits[0]._score'],
  });

  it('ignores key order, compares numbers numerically, and only checks vary paths for presence', () => {
    expect(compareOutcome(c, http(200, '{"hits":{"hits":[{"_score":1356,"_source":{"p":1.100000},"_id":1}],"total":2},"took":7}'))).toEqual([]);
  });

  it('reports missing, unexpected and different values with their paths', () => {
    expect(compareOutcome(c, http(200, '{"hits":{"hits":[{"_source":{"p":1.2},"_id":1,"x":0}],"total":2},"took":7}'))).toEqual([
      'body.hits.hits[0]._score: missing',
      'body.hits.hits[0]._source.p: expected 1.1, got 1.2',
      'body.hits.hits[0].x: unexpected 0',
    ]);
    expect(compareOutcome(c, http(500, '{"hits":{"hits":[],"total":2},"took":1}'))[0]).toBe('status: expected 200, got 500');
  });

  it('keeps 64-bit integers exact', () => {
    const big = kase({ expect: { status: 200, body: { _id: 6775836565403860993n.toString() } } });
    const bigNum = parseCaseLine('{"id":"b","area":"a","request":{"sql":"q"},"expect":{"status":200,"body":{"_id":6775836565403860993}}}');
    expect(compareOutcome(bigNum, http(200, '{"_id":6775836565403860993}'))).toEqual([]);
    expect(compareOutcome(bigNum, http(200, '{"_id":6775836565403860992}'))).toHaveLength(1);
    expect(compareOutcome(big, http(200, '{"_id":"6775836565403860993"}'))).toEqual([]);
  });

  it('skips a status that was not recorded', () => {
    const e = kase({ expect: { status: null, body: { error: 'only SELECT queries are supported' } }, vary: ['status'] });
    expect(compareOutcome(e, http(501, '{"error":"only SELECT queries are supported"}'))).toEqual([]);
  });
});

describe('SQL expectations', () => {
  it('compares rows as text and ignores an unrecorded column list', () => {
    const c = kase({ expect: { columns: null, rows: [] } });
    expect(compareOutcome(c, { kind: 'rows', columns: ['id'], rows: [] })).toEqual([]);
    const r = kase({ expect: { columns: ['count(*)'], rows: [['2']] } });
    expect(compareOutcome(r, { kind: 'rows', columns: ['count(*)'], rows: [['2']] })).toEqual([]);
    expect(compareOutcome(r, { kind: 'rows', columns: ['count(*)'], rows: [['3']] })).toEqual(['rows[0][0]: expected "2", got "3"']);
  });

  it('compares OK packets and errors, errno only when expected', () => {
    expect(compareOutcome(kase({ expect: { ok: true, affected: 0 } }), { kind: 'ok', affected: 0 })).toEqual([]);
    const e = kase({ expect: { error: "unknown column: 'c'", errno: 1064 } });
    expect(compareOutcome(e, { kind: 'error', error: "unknown column: 'c'", errno: 1064 })).toEqual([]);
    expect(compareOutcome(kase({ expect: { error: 'x' } }), { kind: 'error', error: 'x', errno: 0 })).toEqual([]);
    expect(compareOutcome(e, { kind: 'ok', affected: 1 })).toContain('error: missing');
  });
});

describe('contains and contains-unordered', () => {
  it('accepts extra keys, substring errors and raw text bodies', () => {
    const c = kase({ compare: 'contains', expect: { status: 200, body: [{ data: [{ id: 1 }] }] } });
    expect(compareOutcome(c, http(200, '[{"columns":[],"data":[{"id":1,"v":"x"}],"total":1}]'))).toEqual([]);
    const err = kase({ compare: 'contains', expect: { error: 'syntax error' } });
    expect(compareOutcome(err, { kind: 'error', error: 'P01: syntax error, unexpected', errno: 1064 })).toEqual([]);
    const text = kase({ compare: 'contains', expect: { status: 200, body: '| id |\n' } });
    expect(compareOutcome(text, { kind: 'http', status: 200, body: '+----+\n| id |\n+----+\n' })).toEqual([]);
    expect(compareOutcome(text, { kind: 'http', status: 200, body: '| ids |\n' })).toHaveLength(1);
  });

  it('still requires equal array lengths', () => {
    const c = kase({ compare: 'contains', expect: { columns: ['id'], rows: [['1']] } });
    expect(compareOutcome(c, { kind: 'rows', columns: ['id'], rows: [['1'], ['2']] })[0]).toMatch(/expected 1 elements, got 2/);
  });

  it('matches result rows as a multiset only in unordered mode', () => {
    const rows = { columns: ['id'], rows: [['1'], ['2']] };
    const swapped: Outcome = { kind: 'rows', columns: ['id'], rows: [['2'], ['1']] };
    expect(compareOutcome(kase({ compare: 'contains-unordered', expect: rows }), swapped)).toEqual([]);
    expect(compareOutcome(kase({ compare: 'contains', expect: rows }), swapped)).toHaveLength(2);
    const dup: Outcome = { kind: 'rows', columns: ['id'], rows: [['1'], ['1']] };
    expect(compareOutcome(kase({ compare: 'contains-unordered', expect: rows }), dup)).toEqual(["rows: no match for expected [\"2\"]"]);
  });
});

describe('shape', () => {
  it('checks the status and the presence of named keys only', () => {
    const c = kase({ compare: 'shape', expect: { status: 200, body: { items: null } }, vary: ['body'] });
    expect(compareOutcome(c, http(200, '{"items":[1],"x":2}'))).toEqual([]);
    expect(compareOutcome(c, http(200, '{"x":2}'))).toEqual(['body.items: missing']);
    expect(compareOutcome(c, http(400, '{"items":1}'))).toEqual(['status: expected 200, got 400']);
  });
});

describe('normalizeVary', () => {
  it('resolves HTTP paths inside body unless they start at status or body', () => {
    expect(normalizeVary('took', true)).toBe('body.took');
    expect(normalizeVary('status', true)).toBe('status');
    expect(normalizeVary('body.hits', true)).toBe('body.hits');
    expect(normalizeVary('rows[0][0]', false)).toBe('rows[0][0]');
  });
});
