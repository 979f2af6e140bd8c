/**
 * The part of a SEARCH query that Manticore added after Sphinx 2.2 (command 0x121+, master versions
 * 15..35, as manticoresearch's `SearchRequestBuilder_c::SendQuery` writes it and `ParseSearchQuery`
 * reads it): the filter tree, the parsed select list, index hints, JOIN, KNN and hybrid settings,
 * scroll, the query role and the facet filter trait. What quarry cannot run (JOIN, KNN, scroll,
 * JSON queries, helper roles) is read past and refused with a message that names it.
 */
import type { ApiQuery } from './search-request.js';
import type { ApiReader } from './wire.js';

/** Manticore's SPH_AGGR_* of a select item. */
export const Aggr = { NONE: 0, AVG: 1, MIN: 2, MAX: 3, SUM: 4, CAT: 5 } as const;

/** One select-list item as a Manticore master sends it: `expr AS alias`, wrapped in an aggregate. */
export interface ApiItem {
  alias: string;
  expr: string;
  aggr: number;
  /** GROUP_CONCAT's separator (master 34+; "," before). */
  separator?: string;
}

/** One node of the filter tree: a leaf names a filter, an inner node joins two nodes with AND or OR. */
export interface FilterNode {
  left: number;
  right: number;
  filter: number;
  or: boolean;
}

/** The newest master version whose layout is read here (manticoresearch's VER_COMMAND_SEARCH_MASTER). */
export const MANTICORE_MASTER_VERSION = 35;
/** The SEARCH command version a Manticore master sends (VER_COMMAND_SEARCH, 1.40). */
export const MANTICORE_SEARCH_VERSION = 0x128;
/** Manticore's query flags (api_search.cpp QFLAG_*) that quarry's agent reads or its master writes. */
export const QFLAG = {
  MAX_PREDICTED_TIME: 1 << 2, PLAIN_IDF: 1 << 4, GLOBAL_IDF: 1 << 5, NORMALIZED_TF: 1 << 6, LOCAL_DF: 1 << 7,
  JSON_QUERY: 1 << 11, NOT_ONLY_ALLOWED: 1 << 12, LOCAL_DF_SET: 1 << 13, EXPLICIT_RANKER: 1 << 15, DEFAULT_BOOL_OR: 1 << 17,
} as const;
/** QFLAG_JSON_QUERY: the query text is a JSON query (a /search body), not full-text syntax. */
export const QFLAG_JSON_QUERY = QFLAG.JSON_QUERY;

/** Manticore's QueryOption_e, the expand_keywords value of a master's query (sphinxdefs.h). */
export const ExpandKeywords = { DEFAULT: 0, DISABLED: 1, ENABLED: 2, MORPH_NONE: 3 } as const;

function items(r: ApiReader, masterVer: number): ApiItem[] {
  const out: ApiItem[] = [];
  for (let n = r.count(12), i = 0; i < n; i++) {
    const item: ApiItem = { alias: r.str(), expr: r.str(), aggr: r.u32() };
    if (masterVer >= 34 && item.aggr === Aggr.CAT) item.separator = r.str();
    out.push(item);
  }
  return out;
}

function strings(r: ApiReader): string[] {
  const out: string[] = [];
  for (let n = r.count(4), i = 0; i < n; i++) out.push(r.str());
  return out;
}

function floats(r: ApiReader): void {
  for (let n = r.count(4), i = 0; i < n; i++) r.f32();
}

/** One KNN entry of master 29+ (or the single one of 22..28, whose empty attribute means none). */
function knn(r: ApiReader, masterVer: number, modern: boolean): boolean {
  const attr = r.str();
  if (!modern && !attr) return false;
  r.i32(); r.i32(); // k, ef
  if (modern || masterVer >= 25) { r.i32(); r.f32(); } // rescore, oversampling
  if (modern || masterVer >= 28) { r.i32(); r.i32(); } // prefilter, fullscan
  floats(r);
  if ((modern || masterVer >= 26) && r.u8()) r.str(); // embedding text
  if (modern) r.str(); // alias
  return true;
}

/**
 * Reads the Manticore fields into `q`; returns the refusal for a feature quarry's agent cannot run
 * (after reading past it, so the reply is that error rather than a misparse).
 */
export function readManticoreExtensions(r: ApiReader, q: ApiQuery, ver: number, masterVer: number): string | undefined {
  const refused: string[] = [];
  if (ver >= 0x121) {
    q.filterTree = [];
    for (let n = r.count(16), i = 0; i < n; i++) q.filterTree.push({ left: r.i32(), right: r.i32(), filter: r.i32(), or: r.i32() !== 0 });
  }
  if (masterVer >= 15) {
    q.items = items(r, masterVer);
    items(r, masterVer); // reference items: the master's copy for its own merge
  }
  if (masterVer >= 16) q.expandKeywords = r.u32(); // OPTION expand_keywords / morphology='none' (QueryOption_e)
  if (masterVer >= 20) for (let n = r.count(12), i = 0; i < n; i++) { r.str(); r.u32(); r.u32(); } // index hints
  if (masterVer >= 21) {
    const joinType = r.u32();
    const joinTable = r.str();
    r.str();
    for (let n = r.count(16), i = 0; i < n; i++) { r.str(); r.str(); r.str(); r.str(); if (masterVer >= 22) { r.i32(); r.i32(); } }
    if (joinTable || joinType) refused.push('JOIN');
  }
  if (masterVer >= 22 && masterVer < 29 && knn(r, masterVer, false)) refused.push('KNN');
  if (masterVer >= 29) {
    for (let n = r.count(4), i = 0; i < n; i++) { knn(r, masterVer, true); refused.push('KNN'); }
    if (r.i32()) {
      r.i32(); r.i32(); r.str();
      for (let n = r.count(8), i = 0; i < n; i++) { r.str(); r.f32(); }
      refused.push('hybrid search');
    }
  }
  if (masterVer >= 23) r.i32(); // jieba mode
  if (masterVer >= 24) {
    r.str();
    const scroll = r.i32() !== 0;
    for (let n = r.count(24), i = 0; i < n; i++) { r.str(); r.i32(); r.i32(); r.u64(); r.f32(); r.str(); }
    if (scroll) refused.push('scroll');
  }
  if (masterVer >= 27) r.str(); // expand_blended
  if (masterVer >= 30) {
    q.queryRole = r.u8();
    if (r.u8()) r.u8(); // facet filter mode
    r.u8(); // facet filter clause
    strings(r);
    if (masterVer >= 31) r.u8(); // zeroes
    strings(r); // facet's own filter attributes
  }
  if (q.queryRole) refused.push(`query role ${q.queryRole}`);
  if (refused.length) return `${[...new Set(refused)].join(', ')} from a master is not supported by this agent`;
  return undefined;
}
