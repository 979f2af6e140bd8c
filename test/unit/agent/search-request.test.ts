import { describe, expect, it } from 'vitest';
import { readSearchQuery } from '../../../src/agent/search-request.js';
import { matchText, searchSql } from '../../../src/agent/search-sql.js';
import { ApiReader, ApiWriter } from '../../../src/agent/wire.js';

/** A Sphinx 2.2 client's query (0x11E layout) with one filter of each kind. */
function clientQuery(): Buffer {
  const w = new ApiWriter();
  // flags: QFLAG_NORMALIZED_TF, which Sphinx 2.2's sphinxapi sets by default (idf=tfidf_normalized)
  w.u32(1 << 6).u32(0).u32(20).u32(0).u32(0).u32(0).str('').str('hello world').u32(0).str('t').u32(1).u64(0n).u64(0n);
  w.u32(3);
  w.str('gid').u32(0).u32(2).u64(1n).u64(2n).u32(0);
  w.str('price').u32(2).f32(1).f32(5).u32(1);
  w.str('gid').u32(1).u64(3n).u64(9n).u32(0);
  w.u32(4).str('gid').u32(100).str('@count desc').u32(0).u32(0).u32(0).str('');
  w.u32(0).u32(0).u32(0).u32(1).str('title').u32(10).str('note').u32(0).str('*');
  w.str('').u32(0).u32(0).u32(0); // outer select
  return w.bytes();
}

describe('readSearchQuery', () => {
  it('reads every field of a 0x11E query', () => {
    const q = readSearchQuery(new ApiReader(clientQuery()), 0x11e, 0);
    expect(q.error).toBeUndefined();
    expect(q).toMatchObject({ limit: 20, query: 'hello world', indexes: 't', groupBy: 'gid', maxMatches: 100, comment: 'note', agent: false });
    expect(q.filters.map((f) => f.type)).toEqual([0, 2, 1]);
    expect(q.fieldWeights).toEqual([['title', 10]]);
  });

  it('reports a truncated request instead of reading past it', () => {
    const whole = clientQuery();
    expect(readSearchQuery(new ApiReader(whole.subarray(0, whole.length - 9)), 0x11e, 0).error).toBe('invalid or truncated request');
  });

  it('turns the query into one SELECT with filters, grouping and options', () => {
    const q = readSearchQuery(new ApiReader(clientQuery()), 0x11e, 0);
    expect(searchSql(q, ['t'])).toBe(
      "SELECT *, id AS api_id, groupby() AS api_groupby, count(*) AS api_count FROM t WHERE MATCH('hello world') AND gid IN (1,2)" +
      ' AND price NOT BETWEEN 1 AND 5 AND gid BETWEEN 3 AND 9 GROUP BY gid WITHIN GROUP ORDER BY weight() DESC, id ASC' +
      " ORDER BY count(*) desc LIMIT 0, 20 OPTION ranker=proximity, max_matches=100, field_weights=(title=10), comment='note'");
  });

  it('rewrites legacy match modes, escaping operators', () => {
    const base = readSearchQuery(new ApiReader(clientQuery()), 0x11e, 0);
    expect(matchText({ ...base, mode: 1, query: 'a -b' })).toBe('a | b');
    expect(matchText({ ...base, mode: 2, query: 'a "b' })).toBe('"a  b"');
    expect(matchText({ ...base, mode: 3, query: 'a & !b' })).toBe('a   !b');
  });
});
