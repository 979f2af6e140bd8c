/**
 * The master's side of SEARCH: a query written in the 0x11E layout (what Sphinx 2.2 clients send,
 * which Sphinx 2.2 and Manticore searchd and quarry all read), and the reply read back into matches.
 * The mirror of search-request.ts and search-reply.ts.
 */
import { QFLAG } from './manticore-request.js';
import type { ApiFilter, ApiQuery } from './search-request.js';
import { Attr } from './search-reply.js';
import { ApiReader, ApiWriter, Status } from './wire.js';

export const CLIENT_SEARCH_VERSION = 0x11e;

/** A query with sphinxapi's defaults (extended2, proximity_bm25, relevance order, 20 of max 1000). */
export function apiQuery(fields: Partial<ApiQuery> & { indexes: string }): ApiQuery {
  return {
    offset: 0, limit: 20, mode: 6, ranker: 0, rankExpr: '', sort: 0, sortBy: '', query: '', minId: 0n, maxId: 0n,
    filters: [], groupFunc: 4, groupBy: '', maxMatches: 1000, groupSort: '@group desc', cutoff: 0, retryCount: 0,
    retryDelay: 0, groupDistinct: '', geoAnchor: false, indexWeights: [], maxQueryTime: 0, fieldWeights: [], comment: '',
    overrides: 0, select: '*', agent: false, ...fields,
  };
}

/**
 * A filter's name, type and values; `cmp` adds the string comparison byte of 0x126+ (Manticore).
 * An expression filter (Manticore's) is its name and type alone.
 */
export function writeFilterHead(w: ApiWriter, f: ApiFilter, cmp: boolean): ApiWriter {
  w.str(f.attr).u32(f.type);
  switch (f.type) {
    case 0: w.u32(f.values.length); for (const v of f.values) w.u64(v); break;
    case 1: w.u64(f.min).u64(f.max); break;
    case 2: w.f32(f.fmin).f32(f.fmax); break;
    case 3: case 5: w.str(f.strings[0] ?? ''); if (cmp) w.u8(f.cmp ?? 0); break;
    case 6: w.u32(f.strings.length); for (const s of f.strings) w.str(s); break;
    case 4: w.u8(f.isNull ? 1 : 0); break;
    case 7: break;
  }
  return w;
}

/**
 * The query flags: OPTION idf (QFLAG_NORMALIZED_TF is the default tfidf_normalized, which Sphinx 2.2 and
 * Manticore read from 0x11E clients and masters) and, to a Manticore agent, QFLAG_EXPLICIT_RANKER.
 */
function queryFlags(q: ApiQuery, manticore: boolean): number {
  let flags = q.normalizedTf === false ? 0 : QFLAG.NORMALIZED_TF;
  if (q.plainIdf) flags |= QFLAG.PLAIN_IDF;
  if (manticore && q.ranker !== 0) flags |= QFLAG.EXPLICIT_RANKER;
  return flags;
}
const U64_MAX = 0xffffffffffffffffn;

/**
 * The fields every layout shares, up to the outer select. `manticore` writes them as a Manticore
 * master does: its query flags, each filter's bounds and MVA function, the full id range.
 */
export function writeSearchQuery(w: ApiWriter, q: ApiQuery, manticore = false): void {
  w.u32(queryFlags(q, manticore));
  w.u32(q.offset).u32(q.limit).u32(q.mode).u32(q.ranker);
  if (q.ranker === 8 || (manticore && q.ranker === 9)) w.str(q.rankExpr);
  w.u32(q.sort).str(q.sortBy).str(q.query).u32(0).str(q.indexes);
  w.u32(1).u64(q.minId).u64(manticore && q.maxId === 0n ? U64_MAX : q.maxId); // 0 is "no upper bound" to both readers
  w.u32(q.filters.length);
  for (const f of q.filters) {
    writeFilterHead(w, f, manticore).u32(f.exclude ? 1 : 0);
    if (manticore) {
      w.u32(f.eqMin === false ? 0 : 1).u32(f.eqMax === false ? 0 : 1);
      w.u32(f.openLeft ? 1 : 0).u32(f.openRight ? 1 : 0).u32(f.mvaFunc ?? 0);
    }
  }
  w.u32(q.groupFunc).str(q.groupBy).u32(q.maxMatches).str(q.groupSort).u32(q.cutoff).u32(q.retryCount).u32(q.retryDelay);
  w.str(q.groupDistinct).u32(0); // no geo anchor
  w.u32(q.indexWeights.length);
  for (const [n, v] of q.indexWeights) w.str(n).u32(v);
  w.u32(q.maxQueryTime);
  w.u32(q.fieldWeights.length);
  for (const [n, v] of q.fieldWeights) w.str(n).u32(v);
  w.str(q.comment).u32(0).str(q.select);
  w.str('').u32(0).u32(0).u32(0); // no outer select
}

export type AgentValue = number | bigint | string | number[] | bigint[];

export interface AgentResult {
  warning?: string;
  error?: string;
  fields: string[];
  attrs: Array<{ name: string; type: number }>;
  matches: Array<{ id: bigint; weight: number; values: AgentValue[] }>;
  total: number;
  totalFound: number;
  timeMs: number;
  words: Array<{ word: string; docs: number; hits: number }>;
}

function readValue(r: ApiReader, type: number): AgentValue {
  switch (type) {
    case Attr.FLOAT: return r.f32();
    case Attr.BIGINT: return r.i64();
    case Attr.STRING: case 8 /* JSON as text */: return r.str();
    case Attr.MULTI: {
      const n = r.count(4);
      const out: number[] = [];
      for (let i = 0; i < n; i++) out.push(r.u32());
      return out;
    }
    case Attr.MULTI64: {
      const n = r.count(4) / 2;
      const out: bigint[] = [];
      for (let i = 0; i < n; i++) out.push(r.i64());
      return out;
    }
    default: return r.u32();
  }
}

/** What an agent adds after the totals for a master (status mask and counters, master 7+ and 19+). */
function skipAgentStats(r: ApiReader, masterVer: number): void {
  const mask = r.u8();
  if (mask & 1) { r.u64(); r.u32(); r.u64(); r.u64(); r.u32(); r.u64(); } // I/O
  if (mask & 2) r.u64(); // CPU
  if (mask & 4) r.u64(); // predicted time
  if (masterVer >= 7) { r.u32(); r.u32(); } // fetched docs, hits
  if (masterVer >= 8) r.u32(); // skips
}

/** A Manticore agent's `id` attribute: the id is also in each match's header, where it is read. */
function dropIdAttr(res: AgentResult): void {
  const at = res.attrs.findIndex((a) => a.name === 'id');
  if (at < 0) return;
  res.attrs.splice(at, 1);
  for (const m of res.matches) m.values.splice(at, 1);
}

/**
 * The body of a SEARCH reply: one result per query sent. `masterVer` is what the request said
 * (0 as a client; 35 as a Manticore master, whose replies carry the agent statistics).
 */
export function readSearchResults(body: Buffer, queries: number, masterVer = 0): AgentResult[] {
  const r = new ApiReader(body);
  const out: AgentResult[] = [];
  for (let qi = 0; qi < queries; qi++) {
    const res: AgentResult = { fields: [], attrs: [], matches: [], total: 0, totalFound: 0, timeMs: 0, words: [] };
    const status = r.u32();
    if (status !== Status.OK) {
      const msg = r.str();
      if (status === Status.WARNING) res.warning = msg;
      else { res.error = msg; out.push(res); continue; }
    }
    for (let n = r.count(4), i = 0; i < n; i++) res.fields.push(r.str());
    for (let n = r.count(8), i = 0; i < n; i++) res.attrs.push({ name: r.str(), type: r.u32() });
    const count = r.count(12);
    const id64 = r.u32() !== 0;
    for (let i = 0; i < count; i++) {
      const id = id64 ? r.i64() : BigInt(r.u32());
      const weight = r.i32();
      res.matches.push({ id, weight, values: res.attrs.map((a) => readValue(r, a.type)) });
    }
    res.total = r.u32();
    res.totalFound = r.u32();
    if (masterVer >= 19) r.u32(); // total is approximate
    res.timeMs = r.u32();
    if (masterVer > 0) skipAgentStats(r, masterVer);
    for (let n = r.count(12), i = 0; i < n; i++) {
      res.words.push({ word: r.str(), docs: r.u32(), hits: r.u32() });
      if (masterVer > 0) r.u8(); // expanded-term flag
    }
    if (r.truncated) throw new Error('invalid or truncated search reply');
    if (masterVer > 0 && res.total !== count) throw new Error(`expected ${count} retrieved documents, got ${res.total}`);
    dropIdAttr(res);
    out.push(res);
  }
  return out;
}
