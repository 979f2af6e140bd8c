/**
 * Binary-API bytes written field by field with no knowledge of the protocol, and a Manticore master's
 * SEARCH query recorded from manticoresearch's SearchRequestBuilder_c::SendQuery (src/daemon/api_search.cpp,
 * e790cb5), for tests of quarry's encoder, decoder and agent.
 */
import type { ApiItem } from '../../src/agent/manticore-request.js';

/** Big-endian bytes written one field at a time, with no knowledge of the protocol. */
export class Bytes {
  private parts: Buffer[] = [];
  int(v: number): this { const b = Buffer.alloc(4); b.writeInt32BE(v); this.parts.push(b); return this; }
  byte(v: number): this { this.parts.push(Buffer.from([v])); return this; }
  u64(v: bigint): this { const b = Buffer.alloc(8); b.writeBigUInt64BE(v); this.parts.push(b); return this; }
  float(v: number): this { const b = Buffer.alloc(4); b.writeFloatBE(v); this.parts.push(b); return this; }
  str(s: string): this { const b = Buffer.from(s); this.int(b.length); this.parts.push(b); return this; }
  get(): Buffer { return Buffer.concat(this.parts); }
}

export const ITEMS: ApiItem[] = [
  { alias: 'gid', expr: 'gid', aggr: 0 },
  { alias: 'total', expr: 'price', aggr: 4 },
  { alias: 'names', expr: 'tag', aggr: 5, separator: ',' },
];

/**
 * `SELECT gid, SUM(price) total, GROUP_CONCAT(tag) names FROM d WHERE MATCH('hello') AND (gid=1 OR
 * price<5) GROUP BY gid ORDER BY gid ASC OPTION ranker=bm25` as a Manticore master sends it to agent t.
 */
export function recordedMasterQuery(version = 35, tweak: { flags?: number; expandKeywords?: number } = {}): Buffer {
  const b = new Bytes();
  b.int(tweak.flags ?? (1 << 6) | (1 << 15)); // QFLAG_NORMALIZED_TF | QFLAG_EXPLICIT_RANKER
  b.int(0).int(1000).int(6).int(1); // offset 0, limit = max_matches, extended2, bm25
  b.int(4).str('gid asc').str('hello'); // sort extended, sort-by, query
  b.int(0).str('t'); // no per-field weights, agent's indexes
  b.int(1).u64(0n).u64(0xffffffffffffffffn); // 64-bit id range, the full one
  b.int(2);
  b.str('gid').int(0).int(1).u64(1n); // VALUES (1)
  b.int(0).int(1).int(1).int(0).int(0).int(0); // exclude, has-equal min/max, open left/right, mva func
  b.str('price').int(2).float(-3.4e38).float(5); // FLOATRANGE ..5
  b.int(0).int(1).int(0).int(1).int(0).int(0); // price < 5: open left, upper end excluded
  b.int(4).str('gid').int(1000).str('@groupby asc'); // group by attr, max_matches, group sort
  b.int(0).int(0).int(0).str('').int(0); // cutoff, retry count, retry delay, distinct, no geo anchor
  b.int(0).int(0).int(0).str('').int(0); // index weights, max query time, field weights, comment, overrides
  b.str('gid, sum(price) AS total, group_concat(tag) AS names');
  b.str('').int(0).int(0).int(0).int(0); // no outer select, expansion limit
  b.int(0).str('').int(1).str('').str('').str('').str('').str(''); // collation, outer order, group-by limit 1 .. token filter
  b.int(3).int(-1).int(-1).int(0).int(0).int(-1).int(-1).int(1).int(0).int(0).int(1).int(-1).int(1); // (f0 OR f1)
  for (let copy = 0; copy < 2; copy++) { // items, then reference items
    b.int(3).str('gid').str('gid').int(0).str('total').str('price').int(4).str('names').str('tag').int(5);
    if (version >= 34) b.str(',');
  }
  b.int(tweak.expandKeywords ?? 0).int(0); // expand keywords (QueryOption_e), index hints
  if (version < 21) return b.get();
  b.int(0).str('').str('').int(0); // join
  return Buffer.concat([b.get(), KNN_ON.get()]);
}

/** The tail from the KNN count on (master 29+). */
export const KNN_ON = new Bytes()
  .int(0).int(0).int(0) // knn entries, hybrid, jieba
  .str('').int(0).int(0).str('') // scroll sort-by, requested, attrs; expand_blended
  .byte(0).byte(0).byte(0).int(0).byte(0).int(0); // role, facet trait (no mode, clause, attrs, zeroes), own attrs

