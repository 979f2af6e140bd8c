/**
 * One query of a SEARCH command as searchd parses it, field by field in the order the client or
 * master sends them; each field is present only from the command version (or master version) that
 * introduced it, so Sphinx 2.0 clients (0x119), Sphinx 2.2 clients (0x11E), Sphinx 2.2.11 masters
 * (0x11F, master 14), Manticore clients (0x120) and Manticore masters (0x125..0x128, master 15..35,
 * whose extensions manticore-request.ts reads) are all read by one function.
 */
import { QFLAG, QFLAG_JSON_QUERY, readManticoreExtensions, type ApiItem, type FilterNode } from './manticore-request.js';
import { ApiReader } from './wire.js';

export const Filter = { VALUES: 0, RANGE: 1, FLOATRANGE: 2, STRING: 3, NULL: 4, USERVAR: 5, STRING_LIST: 6, EXPRESSION: 7 } as const;

/**
 * What a Manticore master adds to a filter (all optional: absent means Sphinx's meaning, inclusive
 * closed ranges, equality of strings, no MVA function).
 */
export interface FilterBounds {
  /** Range ends included (master 5+ sends one flag for both, 15+ one each). */
  eqMin?: boolean;
  eqMax?: boolean;
  /** A range with no lower (upper) end: `a < 5` is open left (master 15+). */
  openLeft?: boolean;
  openRight?: boolean;
  /** 0 none, 1 ANY(), 2 ALL() (master 13+). */
  mvaFunc?: number;
  /** String comparison of a STRING filter: 0 =, 1 <, 2 > (0x126+). */
  cmp?: number;
}

export type ApiFilter = FilterBounds & (
  | { attr: string; type: 0; values: bigint[]; exclude: boolean }
  | { attr: string; type: 1; min: bigint; max: bigint; exclude: boolean }
  | { attr: string; type: 2; fmin: number; fmax: number; exclude: boolean }
  | { attr: string; type: 3 | 5 | 6; strings: string[]; exclude: boolean }
  | { attr: string; type: 4; isNull: boolean; exclude: boolean }
  /** A boolean expression in `attr` (Manticore's filter by expression): only its name and type are sent. */
  | { attr: string; type: 7; exclude: boolean });

export interface ApiQuery {
  offset: number;
  limit: number;
  mode: number;
  ranker: number;
  rankExpr: string;
  sort: number;
  sortBy: string;
  query: string;
  indexes: string;
  minId: bigint;
  maxId: bigint;
  filters: ApiFilter[];
  groupFunc: number;
  groupBy: string;
  maxMatches: number;
  groupSort: string;
  cutoff: number;
  retryCount: number;
  retryDelay: number;
  groupDistinct: string;
  geoAnchor: boolean;
  indexWeights: Array<[string, number]>;
  maxQueryTime: number;
  fieldWeights: Array<[string, number]>;
  comment: string;
  overrides: number;
  select: string;
  /** Sent by a master (master version > 0): the reply carries agent extras. */
  agent: boolean;
  /** Manticore masters (master 15+): the parsed select list, used instead of `select`. */
  items?: ApiItem[];
  /** Manticore's filter tree (0x121+): AND/OR over `filters`, the root last; empty means all ANDed. */
  filterTree?: FilterNode[];
  /** expansion_limit (0x124+; 0 is the server's default). */
  expansionLimit?: number;
  /** The master's collation (master version 1+): searchd's ESphCollation, 0 libc_ci .. 3 binary; unset: the agent's collation_server. */
  collation?: number;
  /** GROUP N BY: the rows kept per group (master 6+; 1 or absent is plain GROUP BY). */
  groupLimit?: number;
  /**
   * OPTION idf as the query flags carry it (0x11B+): QFLAG_PLAIN_IDF, and QFLAG_NORMALIZED_TF, read only
   * from masters and 0x11E clients as searchd reads it (undefined: not sent, the default normalized).
   */
  plainIdf?: boolean;
  normalizedTf?: boolean;
  /** Manticore's QueryOption_e of OPTION expand_keywords (master 16+): 0 default, 1 off, 2 on, 3 morphology='none'. */
  expandKeywords?: number;
  /** QFLAG_NOT_ONLY_ALLOWED: OPTION not_terms_only_allowed=1 on the master (ORed with the agent's own setting). */
  notOnlyAllowed?: boolean;
  /** QFLAG_DEFAULT_BOOL_OR (master 32+): OPTION boolean_mode='or'. */
  defaultBoolOr?: boolean;
  /** The master's group_concat/facet helper role (master 30+): 0 is an ordinary query. */
  queryRole?: number;
  /** Set when the request could not be read; the reply is this error. */
  error?: string;
}

const U64_MAX = 0xffffffffffffffffn;

function readFilter(r: ApiReader, ver: number, masterVer: number): ApiFilter | string {
  const attr = r.str().toLowerCase();
  let f: ApiFilter;
  if (ver < 0x10e) {
    // pre-1.14: a value list, or an empty list then a range
    const n = r.count(4);
    const values: bigint[] = [];
    for (let i = 0; i < n; i++) values.push(BigInt(r.u32()));
    f = n ? { attr, type: 0, values, exclude: false } : { attr, type: 1, min: BigInt(r.u32()), max: BigInt(r.u32()), exclude: false };
  } else {
    const type = r.u32();
    const wide = ver >= 0x114;
    switch (type) {
      case Filter.VALUES: {
        const n = r.count(wide ? 8 : 4);
        const values: bigint[] = [];
        for (let i = 0; i < n; i++) values.push(wide ? r.i64() : BigInt(r.u32()));
        f = { attr, type: 0, values, exclude: false };
        break;
      }
      case Filter.RANGE:
        f = { attr, type: 1, min: wide ? r.i64() : BigInt(r.u32()), max: wide ? r.i64() : BigInt(r.u32()), exclude: false };
        break;
      case Filter.FLOATRANGE:
        f = { attr, type: 2, fmin: r.f32(), fmax: r.f32(), exclude: false };
        break;
      case Filter.STRING:
      case Filter.USERVAR:
        f = { attr, type, strings: [r.str()], exclude: false };
        if (ver >= 0x126) f.cmp = r.u8();
        break;
      case Filter.NULL:
        f = { attr, type: 4, isNull: r.u8() !== 0, exclude: false };
        break;
      case Filter.STRING_LIST: {
        const n = r.count(4);
        const strings: string[] = [];
        for (let i = 0; i < n; i++) strings.push(r.str());
        f = { attr, type: 6, strings, exclude: false };
        break;
      }
      case Filter.EXPRESSION:
        f = { attr, type: 7, exclude: false };
        break;
      default:
        return `unknown filter type (type-id=${type})`;
    }
  }
  if (ver >= 0x106) f.exclude = r.u32() !== 0;
  if (masterVer >= 15) {
    f.eqMin = r.u32() !== 0;
    f.eqMax = r.u32() !== 0;
    f.openLeft = r.u32() !== 0;
    f.openRight = r.u32() !== 0;
  } else if (masterVer >= 5) {
    f.eqMin = f.eqMax = r.u32() !== 0;
  }
  if (masterVer >= 13) f.mvaFunc = r.u32();
  return f;
}

function pairs(r: ApiReader): Array<[string, number]> {
  const n = r.count(8);
  const out: Array<[string, number]> = [];
  for (let i = 0; i < n; i++) out.push([r.str(), r.i32()]);
  return out;
}

/** The query flags searchd applies (api_search.cpp ParseSearchQuery, e790cb5); the rest change nothing here. */
function readFlags(q: ApiQuery, flags: number, ver: number, masterVer: number): void {
  q.plainIdf = (flags & QFLAG.PLAIN_IDF) !== 0;
  if (masterVer > 0 || ver === 0x11e) q.normalizedTf = (flags & QFLAG.NORMALIZED_TF) !== 0;
  q.notOnlyAllowed = (flags & QFLAG.NOT_ONLY_ALLOWED) !== 0;
  if (masterVer >= 32) q.defaultBoolOr = (flags & QFLAG.DEFAULT_BOOL_OR) !== 0;
}

export function readSearchQuery(r: ApiReader, ver: number, masterVer: number): ApiQuery {
  const flags = ver >= 0x11b ? r.u32() : 0;
  const q = { offset: r.i32(), limit: r.i32(), mode: r.u32() } as ApiQuery;
  q.ranker = ver >= 0x110 ? r.u32() : 0;
  q.rankExpr = ver >= 0x110 && (q.ranker === 8 || q.ranker === 9) ? r.str() : '';
  q.sort = r.u32();
  q.sortBy = ver >= 0x102 ? r.str() : '';
  q.query = r.str();
  const weights = r.count(4);
  for (let i = 0; i < weights; i++) r.u32(); // per-field weights by position: superseded by field weights
  q.indexes = r.str();
  const id64 = ver >= 0x108 ? r.u32() !== 0 : false;
  q.minId = id64 ? r.u64() : BigInt(r.u32());
  q.maxId = id64 ? r.u64() : BigInt(r.u32());
  if (q.maxId === 0n || (ver < 0x108 && q.maxId === 0xffffffffn)) q.maxId = U64_MAX;
  q.filters = [];
  if (ver >= 0x102) {
    const n = r.count(8);
    for (let i = 0; i < n; i++) {
      const f = readFilter(r, ver, masterVer);
      if (typeof f === 'string') return { ...q, error: f };
      q.filters.push(f);
    }
  }
  q.groupFunc = ver >= 0x103 ? r.u32() : 4;
  q.groupBy = ver >= 0x103 ? r.str().toLowerCase() : '';
  q.maxMatches = ver >= 0x104 ? r.i32() : 1000;
  q.groupSort = ver >= 0x107 ? r.str() : '@group desc';
  q.cutoff = ver >= 0x109 ? r.i32() : 0;
  q.retryCount = ver >= 0x10a ? r.i32() : 0;
  q.retryDelay = ver >= 0x10a ? r.i32() : 0;
  q.groupDistinct = ver >= 0x10b ? r.str().toLowerCase() : '';
  q.geoAnchor = ver >= 0x10e ? r.u32() !== 0 : false;
  if (q.geoAnchor) { r.str(); r.str(); r.f32(); r.f32(); }
  q.indexWeights = ver >= 0x10f ? pairs(r) : [];
  q.maxQueryTime = ver >= 0x111 ? r.u32() : 0;
  q.fieldWeights = ver >= 0x112 ? pairs(r) : [];
  q.comment = ver >= 0x113 ? r.str() : '';
  q.overrides = ver >= 0x115 ? r.u32() : 0;
  if (q.overrides) return { ...q, error: 'attribute overrides are not supported' };
  q.select = ver >= 0x116 ? r.str() : '';
  q.agent = masterVer > 0;
  if (q.select.startsWith('*,*')) {
    // searchd's legacy mark of an agent request
    q.agent = true;
    q.select = q.select.length > 4 ? q.select.slice(4) : '*';
  }
  if (!q.select.trim()) q.select = '*';
  if (ver >= 0x11b) readFlags(q, flags, ver, masterVer);
  if (ver >= 0x11b && flags & QFLAG.MAX_PREDICTED_TIME) r.i32(); // max_predicted_time: read past, as searchd does
  let hasOuter = false;
  if (ver >= 0x11d) { r.str(); r.u32(); r.u32(); hasOuter = r.i32() !== 0; } // outer select (not sent by clients)
  if (ver >= 0x124) q.expansionLimit = r.i32();
  if (masterVer >= 1) q.collation = r.u32();
  if (masterVer >= 2) { r.str(); if (hasOuter) r.i32(); } // outer order by, limit
  if (masterVer >= 6) q.groupLimit = r.i32(); // GROUP N BY
  if (masterVer >= 14) { r.str(); r.str(); } // UDF ranker and its options
  if (masterVer >= 14 || ver >= 0x120) for (let i = 0; i < 3; i++) r.str(); // query token filter
  const error = readManticoreExtensions(r, q, ver, masterVer);
  if (r.truncated) return { ...q, error: 'invalid or truncated request' };
  if (error) return { ...q, error };
  if (flags & QFLAG_JSON_QUERY) return { ...q, error: 'JSON queries from a master are not supported by this agent' };
  return q;
}
