/**
 * `/search` `aggs` over a distributed table, on the SQL path: a `terms` aggregation is the FACET the
 * same field would be (a grouped SELECT over every shard, merged as any grouped query, dist-facets.ts),
 * `min`/`max`/`sum`/`avg` the aggregate SELECT; `histogram`, `date_histogram`, `range`, `date_range`,
 * `percentiles`, `percentile_ranks` and `median_absolute_deviation` read the field's distinct values
 * and their counts over every shard (GROUP BY the field, merged exactly) and fold them on the master
 * as a local table's pass does (json-aggs.ts foldedAggJson), so the buckets equal one table's. The
 * buckets are written as json-aggs.ts writes a local table's. `composite` is Manticore's grouped query
 * over every source (groups by weight desc, then the merge's order), paged by `after` on the master.
 * Facet filter modes (`mode`, `filters`, `exclude_filters`, `zeroes`, `facet_filter_mode`) run as over
 * a local table: each aggregation's statement under its scope's WHERE (facets.ts scopedWhere), and in
 * max mode beside it the strict (all filters) and, with zeroes, the broad (no filter) helper statements;
 * the merged groups of each are rendered by the code a local table's pass uses (json-aggs.ts
 * bucketAggJson), so the buckets, counts and statuses equal one table's.
 */
import { parseSql } from '../../sql/parse-sql.js';
import type { SelectStatement } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import type { Catalog } from '../catalog.js';
import { cellToSourceJson, JsonFields, type JsonOut } from '../values/cell-format.js';
import type { AttrValue } from '../../index/types.js';
import { DEFAULT_LIMIT, DEFAULT_MAX_MATCHES, type GlobalFlags } from '../exec/exec-select.js';
import { facetStatement, scopedWhere, selectedValues } from '../group/facets.js';
import { bucketAggJson, foldedDistJson, foldedGroups, type AggRequest, type PageOf } from '../group/json-aggs.js';
import type { GroupRow } from '../group/group-order.js';
import { compositeJson } from '../group/json-composite.js';
import { optionMap, requireNumber } from '../values/sql-values.js';
import { newSession } from '../session.js';
import type { DistributedDef } from './dist-def.js';
import { execDistributedSelect } from './dist-select.js';

const METRICS = new Set(['min', 'max', 'sum', 'avg']);
const FOLDED = new Set(['histogram', 'date_histogram', 'range', 'date_range', 'percentiles', 'percentile_ranks', 'median_absolute_deviation']);
/** The most distinct values a folded aggregation reads from the shards (each shard's max_matches). */
export const FOLD_MAX_VALUES = 100_000;

function parsedSelect(sql: string): SelectStatement {
  const st = parseSql(sql)[0];
  if (!st || st.kind !== 'select') throw new SearchError('QUERY_ERROR', `internal: cannot build ${sql}`);
  return st;
}

function maxMatchesOf(st: SelectStatement): number {
  const mm = optionMap(st.options).get('max_matches');
  return mm ? requireNumber('max_matches', mm) : DEFAULT_MAX_MATCHES;
}

/** The statement one aggregation runs over the shards, under the main query's MATCH and filters. */
function aggStatement(st: SelectStatement, a: AggRequest): SelectStatement {
  const field = a.field.name;
  if (a.composite) {
    // Manticore's composite: GROUP BY every source, groups by weight desc (search_handler.cpp), merged as any grouped query
    const names = a.composite.fields.map((f) => f.name).join(', ');
    const mm = maxMatchesOf(st);
    const q = parsedSelect(`SELECT ${names}, COUNT(*) AS c FROM x GROUP BY ${names} ORDER BY weight() DESC LIMIT ${mm}`);
    return { ...st, items: q.items, groupBy: q.groupBy, orderBy: q.orderBy, facets: undefined, limit: mm, offset: 0 };
  }
  if (FOLDED.has(a.type)) {
    const values = parsedSelect(`SELECT ${field} AS v, COUNT(*) AS c FROM x GROUP BY ${field} LIMIT ${FOLD_MAX_VALUES} OPTION max_matches=${FOLD_MAX_VALUES}`);
    const options = [...(st.options ?? []).filter((o) => o.name !== 'max_matches'), ...(values.options ?? [])];
    return { ...st, items: values.items, groupBy: values.groupBy, orderBy: undefined, facets: undefined, limit: FOLD_MAX_VALUES, offset: 0, options };
  }
  if (METRICS.has(a.type)) {
    const items = parsedSelect(`SELECT ${a.type}(${field}) AS v FROM x`).items;
    return { ...st, items, groupBy: undefined, orderBy: undefined, facets: undefined, limit: 1, offset: 0 };
  }
  // the groups up to the page's end (every group with zeroes, whose page is taken after the merge); paged on the master
  const order = !a.order ? '' : `ORDER BY ${a.order.by === 'count' ? 'COUNT(*)' : field} ${a.order.desc ? 'DESC' : 'ASC'}`;
  const mm = maxMatchesOf(st);
  const end = a.zeroes ? mm : Math.min(mm, (a.size || st.limit || DEFAULT_LIMIT) + (a.size ? 0 : st.offset ?? 0));
  const facet = parsedSelect(`SELECT * FROM x FACET ${field} ${order} LIMIT 0, ${end}`).facets![0]!;
  return facetStatement(st, facet);
}

/** The merged rows (key, count) of a grouped statement as groups in the merge's order (ties keep it when re-sorted). */
function groupRows(rows: unknown[][]): GroupRow[] {
  return rows.map((row, i) => ({ g: { key: [row[0] as AttrValue], count: Number(row[1]), aggs: [], tops: [], bestWeight: 0, bestOrd: i, bestDoc: 0n, firstOrd: i }, aggs: [] }));
}

/**
 * One aggregation's statements: `scoped` under its filter scope; in max mode `strict` under every main
 * query filter and with zeroes `broad` under none (the passes json-aggs.ts addAgg registers locally).
 */
function aggPasses(st: SelectStatement, a: AggRequest): { scoped: SelectStatement; strict?: SelectStatement; broad?: SelectStatement } {
  const scoped = aggStatement(a.scope ? { ...st, where: scopedWhere(st.where, a.scope) } : st, a);
  if (!a.max) return { scoped };
  return { scoped, strict: aggStatement(st, a), broad: a.zeroes ? aggStatement({ ...st, where: undefined }, a) : undefined };
}

/** The `aggregations` entries of `aggs` for the distributed SELECT `st` (the request's hits query). */
export async function distributedAggs(catalog: Catalog, def: DistributedDef, st: SelectStatement, aggs: AggRequest[], flags: GlobalFlags): Promise<Array<[string, JsonOut]>> {
  for (const a of aggs) {
    if (a.type !== 'terms' && !a.composite && !METRICS.has(a.type) && !FOLDED.has(a.type)) throw new SearchError('UNSUPPORTED', `"${a.type}" aggregation over a distributed table is not supported`);
  }
  const page: PageOf = { limit: st.limit ?? DEFAULT_LIMIT, offset: st.offset ?? 0, maxMatches: maxMatchesOf(st) };
  const run = (s: SelectStatement | undefined) => (s ? execDistributedSelect(catalog, def, s, newSession(), flags, false) : undefined);
  const folded = (a: AggRequest, rows: unknown[][]): Array<{ value: AttrValue; count: number }> => {
    if (rows.length >= FOLD_MAX_VALUES) throw new SearchError('UNSUPPORTED', `"${a.type}" aggregation '${a.name}' over a distributed table: '${a.field.name}' has more than ${FOLD_MAX_VALUES} distinct values`);
    return rows.map((row) => ({ value: row[0] as AttrValue, count: Number(row[1]) }));
  };
  return Promise.all(aggs.map(async (a): Promise<[string, JsonOut]> => {
    if (a.auto) a.selected = selectedValues(st.where, [a.field.name.toLowerCase()]);
    const passes = aggPasses(st, a);
    const [r, strict, broad] = await Promise.all([run(passes.scoped)!, run(passes.strict), run(passes.broad)]);
    if (a.composite) {
      const n = a.composite.fields.length;
      const groups = r.rows.map((row, i) => ({ g: { key: row.slice(0, n) as AttrValue[], count: Number(row[n]), aggs: [], tops: [], bestWeight: 0, bestOrd: i, bestDoc: 0n, firstOrd: i }, aggs: [] }));
      return [a.name, compositeJson(a.composite, groups, { maxMatches: page.maxMatches })];
    }
    if (a.dist) return [a.name, foldedDistJson(a, folded(a, r.rows))];
    if (METRICS.has(a.type)) {
      const kind = a.field.type === 'float' || a.type === 'avg' ? 'float' : 'bigint';
      return [a.name, new JsonFields([['value', cellToSourceJson(r.rows[0]?.[0] ?? null, kind)]])];
    }
    const groups = (x: typeof r) => (FOLDED.has(a.type) ? foldedGroups(a, folded(a, x.rows)) : groupRows(x.rows));
    return [a.name, bucketAggJson(a, groups(r), page, strict && groups(strict), broad && groups(broad))];
  }));
}

/**
 * The exact match count of the distributed SELECT `st` (COUNT(*) under its MATCH and filters): a
 * /search with aggs reports every match as a local table's does, where the hits query of a full scan
 * without sort stops at its page (json-search.ts).
 */
export async function distributedTotal(catalog: Catalog, def: DistributedDef, st: SelectStatement, flags: GlobalFlags): Promise<number> {
  const items = parsedSelect('SELECT COUNT(*) FROM x').items;
  const r = await execDistributedSelect(catalog, def, { ...st, items, groupBy: undefined, orderBy: undefined, facets: undefined, limit: 1, offset: 0 }, newSession(), flags, false);
  return Number(r.rows[0]?.[0] ?? 0);
}
