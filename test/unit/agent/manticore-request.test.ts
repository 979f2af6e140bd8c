// A Manticore master's SEARCH query (0x128, master version 35) against a byte layout recorded field by
// field from manticoresearch's SearchRequestBuilder_c::SendQuery (src/daemon/api_search.cpp, e790cb5):
// quarry's encoder must write exactly those bytes, its decoder must read them back, and the agent must
// turn them into the SELECT that does the same (the filter tree as AND/OR, open and exclusive ranges,
// the parsed select items with their aggregates). Older masters (20, 0x125) and refusals too.
import { describe, expect, it } from 'vitest';
import { MANTICORE_MASTER_VERSION } from '../../../src/agent/manticore-request.js';
import { manticoreSearchBody, selectItems, writeManticoreQuery } from '../../../src/agent/manticore-write.js';
import { readSearchQuery, type ApiQuery } from '../../../src/agent/search-request.js';
import { searchSql } from '../../../src/agent/search-sql.js';
import { apiQuery, writeSearchQuery } from '../../../src/agent/search-write.js';
import { ApiReader, ApiWriter } from '../../../src/agent/wire.js';
import { Bytes, ITEMS, KNN_ON, recordedMasterQuery as recorded } from '../../helpers/api-bytes.js';

function query(): ApiQuery {
  return apiQuery({
    indexes: 't', query: 'hello', limit: 1000, ranker: 1, sort: 4, sortBy: 'gid asc', maxId: 0xffffffffffffffffn,
    groupBy: 'gid', groupSort: '@groupby asc', select: 'gid, sum(price) AS total, group_concat(tag) AS names',
    filters: [
      { attr: 'gid', type: 0, values: [1n], exclude: false },
      { attr: 'price', type: 2, fmin: -3.4e38, fmax: 5, exclude: false, openLeft: true, eqMax: false },
    ],
    filterTree: [{ left: -1, right: -1, filter: 0, or: false }, { left: -1, right: -1, filter: 1, or: false }, { left: 0, right: 1, filter: -1, or: true }],
    items: ITEMS,
  });
}

describe('the Manticore master layout of SEARCH (0x128, master 35)', () => {
  it('is what the encoder writes, byte for byte', () => {
    const w = new ApiWriter();
    writeManticoreQuery(w, query());
    expect(w.bytes().equals(recorded())).toBe(true);
    expect(manticoreSearchBody([query()]).subarray(0, 8)).toEqual(new Bytes().int(MANTICORE_MASTER_VERSION).int(1).get());
  });

  it('is read back field by field, to the end', () => {
    const r = new ApiReader(recorded());
    const q = readSearchQuery(r, 0x128, 35);
    expect(q.error).toBeUndefined();
    expect(r.remaining).toBe(0);
    expect(q).toMatchObject({ query: 'hello', limit: 1000, ranker: 1, groupBy: 'gid', groupSort: '@groupby asc', agent: true, items: ITEMS });
    expect(q.filters[1]).toMatchObject({ attr: 'price', type: 2, fmax: 5, openLeft: true, openRight: false, eqMin: true, eqMax: false });
    expect(q.filterTree).toHaveLength(3);
  });

  it('becomes one SELECT: items with their aggregates, the filter tree, the open range', () => {
    const q = readSearchQuery(new ApiReader(recorded()), 0x128, 35);
    expect(searchSql(q, ['t'])).toBe(
      'SELECT gid, sum(price) AS total, group_concat(tag) AS names, id AS api_id, groupby() AS api_groupby, count(*) AS api_count' +
      " FROM t WHERE MATCH('hello') AND (gid IN (1) OR price < 5) GROUP BY gid WITHIN GROUP ORDER BY gid asc" +
      ' ORDER BY groupby() asc LIMIT 0, 1000 OPTION ranker=bm25, max_matches=1000');
  });

  it('reads a master 33 (no GROUP_CONCAT separator) and a master 20 query (0x125: no JOIN, KNN, scroll, role)', () => {
    const m33 = readSearchQuery(new ApiReader(recorded(33)), 0x128, 33);
    expect(m33.error).toBeUndefined();
    expect(m33.items?.[2]).toEqual({ alias: 'names', expr: 'tag', aggr: 5 });
    const r = new ApiReader(recorded(20));
    const m20 = readSearchQuery(r, 0x125, 20);
    expect(m20.error).toBeUndefined();
    expect(r.remaining).toBe(0);
    expect(m20.items).toEqual(ITEMS.map(({ separator: _, ...it }) => it));
  });

  it('refuses what the agent cannot run, after reading past it, and a truncated query', () => {
    const knn = recorded();
    const at = knn.length - KNN_ON.get().length; // the KNN count
    expect(knn.readInt32BE(at)).toBe(0);
    const b = new Bytes().int(1).str('vec').int(5).int(0).int(0).float(1).int(0).int(0).int(2).float(0.5).float(0.25).byte(0).str('knn_dist');
    const withKnn = Buffer.concat([knn.subarray(0, at), b.get(), knn.subarray(at + 4)]);
    expect(readSearchQuery(new ApiReader(withKnn), 0x128, 35).error).toBe('KNN from a master is not supported by this agent');
    const json = Buffer.from(recorded());
    json.writeInt32BE(1 << 11, 0);
    expect(readSearchQuery(new ApiReader(json), 0x128, 35).error).toBe('JSON queries from a master are not supported by this agent');
    expect(readSearchQuery(new ApiReader(recorded().subarray(0, 300)), 0x128, 35).error).toBe('invalid or truncated request');
  });

  it('parses a select list into items as a Manticore master does', () => {
    expect(selectItems("*, price*2 AS p, max(gid) AS m, count(*), concat('a,b', title) AS c, group_concat(tag SEPARATOR '; ') AS g")).toEqual([
      { alias: '*', expr: '*', aggr: 0 }, { alias: 'p', expr: 'price*2', aggr: 0 }, { alias: 'm', expr: 'gid', aggr: 3 },
      { alias: 'count(*)', expr: 'count(*)', aggr: 0 }, { alias: 'c', expr: "concat('a,b', title)", aggr: 0 },
      { alias: 'g', expr: 'tag', aggr: 5, separator: '; ' },
    ]);
  });

  // SendQuery's flags word: QFLAG_PLAIN_IDF 1<<4, QFLAG_NORMALIZED_TF 1<<6, QFLAG_NOT_ONLY_ALLOWED 1<<12,
  // QFLAG_EXPLICIT_RANKER 1<<15, QFLAG_DEFAULT_BOOL_OR 1<<17; then m_eExpandKeywords as a dword after the
  // reference items (QUERY_OPT_DEFAULT 0, DISABLED 1, ENABLED 2, MORPH_NONE 3; sphinxdefs.h QueryOption_e)
  const OPTIONS_TAIL = " LIMIT 0, 1000 OPTION ranker=bm25, max_matches=1000";
  it("applies the master's OPTION idf and expand_keywords from its query flags and expand_keywords word", () => {
    const cases: Array<[number, number, string]> = [
      [(1 << 4) | (1 << 15), 2, ", idf='plain,tfidf_unnormalized', expand_keywords=1"],
      [(1 << 4) | (1 << 6) | (1 << 15), 1, ", idf='plain,tfidf_normalized', expand_keywords=0"],
      [1 << 15, 0, ", idf='normalized,tfidf_unnormalized'"],
      [(1 << 6) | (1 << 12), 0, ', not_terms_only_allowed=1'],
    ];
    for (const [flags, expandKeywords, options] of cases) {
      const bytes = recorded(35, { flags, expandKeywords });
      const r = new ApiReader(bytes);
      const q = readSearchQuery(r, 0x128, 35);
      expect(r.remaining).toBe(0);
      expect(searchSql(q, ['t']).endsWith(OPTIONS_TAIL + options), `flags ${flags}`).toBe(true);
      // quarry's master writes the same bytes for the same options
      const w = new ApiWriter();
      writeManticoreQuery(w, { ...query(), plainIdf: q.plainIdf, normalizedTf: q.normalizedTf, expandKeywords: q.expandKeywords, notOnlyAllowed: q.notOnlyAllowed });
      if (!(flags & (1 << 12))) expect(w.bytes().equals(bytes), `flags ${flags}`).toBe(true);
    }
  });

  it("refuses morphology='none' and boolean_mode='or' by name; an older master's flag bits it never sent change nothing", () => {
    expect(() => searchSql(readSearchQuery(new ApiReader(recorded(35, { expandKeywords: 3 })), 0x128, 35), ['t'])).toThrow("morphology='none' from a master is not supported by this agent");
    expect(() => searchSql(readSearchQuery(new ApiReader(recorded(35, { flags: (1 << 6) | (1 << 17) })), 0x128, 35), ['t'])).toThrow("boolean_mode='or' from a master is not supported by this agent");
    // master 20 predates QFLAG_DEFAULT_BOOL_OR (32+): the bit is not read
    expect(searchSql(readSearchQuery(new ApiReader(recorded(20, { flags: (1 << 6) | (1 << 17) })), 0x125, 20), ['t'])).toMatch(/OPTION ranker=bm25, max_matches=1000$/);
  });

  it('reads QFLAG_NORMALIZED_TF from a Sphinx 2.2 client (0x11E) but not from a Manticore client (0x120), as searchd does', () => {
    const client = (ver: number, flags: number) => {
      const w = new ApiWriter();
      writeSearchQuery(w, apiQuery({ indexes: 't', query: 'x' }));
      const b = w.bytes();
      b.writeUInt32BE(flags, 0);
      // a client (master version 0) stops after the outer select: 0x120 adds the expansion limit's absence and the token filter
      const tail = ver >= 0x120 ? new Bytes().str('').str('').str('').get() : Buffer.alloc(0);
      return readSearchQuery(new ApiReader(Buffer.concat([b, tail])), ver, 0);
    };
    expect(searchSql(client(0x11e, 0), ['t'])).toMatch(/idf='normalized,tfidf_unnormalized'$/);
    expect(searchSql(client(0x11e, 1 << 6), ['t'])).toMatch(/ranker=proximity_bm25, max_matches=1000$/);
    expect(searchSql(client(0x120, 0), ['t'])).toMatch(/ranker=proximity_bm25, max_matches=1000$/);
    expect(searchSql(client(0x11e, (1 << 4) | (1 << 6)), ['t'])).toMatch(/idf='plain,tfidf_normalized'$/);
  });
});
