/**
 * The master's side of SEARCH: a query written in the 0x11E layout (what Sphinx 2.2 clients send,
 * which Sphinx 2.2 and Manticore searchd and quarry all read), and the reply read back into matches.
 * The mirror of search-request.ts and search-reply.ts.
 */
import type { ApiQuery } from './search-request.js';
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

export function writeSearchQuery(w: ApiWriter, q: ApiQuery): void {
  w.u32(0).u32(q.offset).u32(q.limit).u32(q.mode).u32(q.ranker);
  if (q.ranker === 8) w.str(q.rankExpr);
  w.u32(q.sort).str(q.sortBy).str(q.query).u32(0).str(q.indexes);
  w.u32(1).u64(q.minId).u64(q.maxId);
  w.u32(q.filters.length);
  for (const f of q.filters) {
    w.str(f.attr).u32(f.type);
    switch (f.type) {
      case 0: w.u32(f.values.length); for (const v of f.values) w.u64(v); break;
      case 1: w.u64(f.min).u64(f.max); break;
      case 2: w.f32(f.fmin).f32(f.fmax); break;
      case 3: w.str(f.strings[0] ?? ''); break;
      case 6: w.u32(f.strings.length); for (const s of f.strings) w.str(s); break;
      case 4: w.u8(f.isNull ? 1 : 0); break;
    }
    w.u32(f.exclude ? 1 : 0);
  }
  w.u32(q.groupFunc).str(q.groupBy).u32(q.maxMatches).str(q.groupSort).u32(q.cutoff).u32(q.retryCount).u32(q.retryDelay);
  w.str(q.groupDistinct).u32(0);
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

/** The body of a SEARCH reply to a client (master version 0): one result per query sent. */
export function readSearchResults(body: Buffer, queries: number): AgentResult[] {
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
    res.timeMs = r.u32();
    for (let n = r.count(12), i = 0; i < n; i++) res.words.push({ word: r.str(), docs: r.u32(), hits: r.u32() });
    if (r.truncated) throw new Error('invalid or truncated search reply');
    out.push(res);
  }
  return out;
}
