/**
 * searchd's `query_log` in `query_log_format = plain`, as Manticore writes it (LogQueryPlain): one line
 * per successful search, nothing for failed ones or for other statements:
 * `[Sun Apr 28 12:38:02.808 2024] 0.004 sec 0.004 sec [ext2/1/ext 35 (0,20) @gid] [t] full text query`
 * - real and wall time (the same here: no agents waited for), in seconds with milliseconds;
 * - the match mode and sort mode SphinxQL and JSON searches have (extended2, extended), the number of
 *   attribute filters, the total found, offset and limit, `@attr` when grouped;
 * - the tables as named, then the full-text query (SQL: the MATCH text; JSON: the request body, as
 *   Manticore logs a JSON request's raw text), runs of white space as one space; none without one.
 */
import { logTime, type StatementEvent } from './query-log.js';

/** What the plain line says of a search beyond time and found rows. */
export interface SearchSummary {
  /** The tables as the statement names them, comma-separated. */
  tables: string;
  /** The full-text query ('' for a full scan). */
  query: string;
  /** Attribute filters (each condition ANDed in WHERE counts one). */
  filters: number;
  offset: number;
  limit: number;
  /** The GROUP BY attribute(s), comma-separated. */
  groupBy?: string;
}

/** JSON keys of the filter clauses of a JSON query tree (Manticore turns each into one attribute filter). */
const JSON_FILTERS = new Set(['range', 'equals', 'in', 'geo_distance', 'exists']);

function countJsonFilters(v: unknown): number {
  if (Array.isArray(v)) return v.reduce((n: number, x) => n + countJsonFilters(x), 0);
  if (typeof v !== 'object' || v === null) return 0;
  let n = 0;
  for (const [k, x] of Object.entries(v)) n += JSON_FILTERS.has(k) ? 1 : countJsonFilters(x);
  return n;
}

/** The summary of a JSON /search body (undefined when it is not a JSON object). */
export function jsonSearchSummary(body: string): SearchSummary | undefined {
  let o: Record<string, unknown>;
  try {
    o = JSON.parse(body) as Record<string, unknown>;
  } catch {
    return undefined;
  }
  if (typeof o !== 'object' || o === null || Array.isArray(o)) return undefined;
  const num = (...keys: string[]) => {
    for (const k of keys) if (typeof o[k] === 'number') return o[k] as number;
    return undefined;
  };
  return {
    tables: String(o.table ?? o.index ?? ''),
    query: body,
    filters: countJsonFilters(o.query),
    offset: num('offset', 'from') ?? 0,
    limit: num('limit', 'size') ?? 20,
  };
}

/** One search's plain line, or undefined when the plain format logs nothing for `e`. */
export function formatPlainLine(e: StatementEvent, at: Date): string | undefined {
  if (e.kind !== 'select' || e.error !== undefined) return undefined;
  const s = e.search ?? (e.json ? jsonSearchSummary(e.text) : undefined);
  if (!s) return undefined;
  const secs = `${(e.ms / 1000).toFixed(3)} sec`;
  const group = s.groupBy ? ` @${s.groupBy}` : '';
  const query = s.query.replace(/\s+/g, ' ').trim();
  return `[${logTime(at)}] ${secs} ${secs} [ext2/${s.filters}/ext ${e.found ?? 0} (${s.offset},${s.limit})${group}] [${s.tables}]${query ? ` ${query}` : ''}\n`;
}
