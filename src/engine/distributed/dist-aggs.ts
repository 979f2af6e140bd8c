/**
 * `/search` `aggs` over a distributed table, on the SQL path: a `terms` aggregation is the FACET the
 * same field would be (a grouped SELECT over every shard, merged as any grouped query, dist-facets.ts),
 * `min`/`max`/`sum`/`avg` the aggregate SELECT; `histogram`, `date_histogram`, `range`, `date_range`,
 * `percentiles`, `percentile_ranks` and `median_absolute_deviation` read the field's distinct values
 * and their counts over every shard (GROUP BY the field, merged exactly) and fold them on the master
 * as a local table's pass does (json-aggs.ts foldedAggJson), so the buckets equal one table's. The
 * buckets are written as json-aggs.ts writes a local table's. `composite` is Manticore's grouped query
 * over every source (groups by weight desc, then the merge's order), paged by `after` on the master.
 * Facet filter modes are refused by name rather than answered per shard.
 */
import { parseSql } from '../../sql/parse-sql.js';
import type { SelectStatement } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import type { Catalog } from '../catalog.js';
import { cellToSourceJson, JsonFields, type JsonOut } from '../cell-format.js';
import type { AttrValue } from '../../index/types.js';
import { DEFAULT_LIMIT, DEFAULT_MAX_MATCHES, type GlobalFlags } from '../exec/exec-select.js';
import { bucketKey } from '../group/aggregation-json.js';
import { facetStatement } from '../group/facets.js';
import { keyKind } from '../group/group-plan.js';
import { foldedAggJson, type AggRequest } from '../group/json-aggs.js';
import { compositeJson } from '../group/json-composite.js';
import { optionMap, requireNumber } from '../sql-values.js';
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
  const order = !a.order ? '' : `ORDER BY ${a.order.by === 'count' ? 'COUNT(*)' : field} ${a.order.desc ? 'DESC' : 'ASC'}`;
  const limit = a.size || st.limit || DEFAULT_LIMIT;
  const offset = a.size ? 0 : st.offset ?? 0;
  const facet = parsedSelect(`SELECT * FROM x FACET ${field} ${order} LIMIT ${offset}, ${limit}`).facets![0]!;
  return facetStatement(st, facet);
}

/** The `aggregations` entries of `aggs` for the distributed SELECT `st` (the request's hits query). */
export async function distributedAggs(catalog: Catalog, def: DistributedDef, st: SelectStatement, aggs: AggRequest[], flags: GlobalFlags): Promise<Array<[string, JsonOut]>> {
  for (const a of aggs) {
    if (a.type !== 'terms' && !a.composite && !METRICS.has(a.type) && !FOLDED.has(a.type)) throw new SearchError('UNSUPPORTED', `"${a.type}" aggregation over a distributed table is not supported`);
    if (a.scope || a.auto || a.max) throw new SearchError('UNSUPPORTED', `aggregation "${a.name}": facet filter modes over a distributed table are not supported`);
  }
  return Promise.all(aggs.map(async (a): Promise<[string, JsonOut]> => {
    const r = await execDistributedSelect(catalog, def, aggStatement(st, a), newSession(), flags, false);
    if (a.composite) {
      const n = a.composite.fields.length;
      const groups = r.rows.map((row, i) => ({ g: { key: row.slice(0, n) as AttrValue[], count: Number(row[n]), aggs: [], tops: [], bestWeight: 0, bestOrd: i, bestDoc: 0n, firstOrd: i }, aggs: [] }));
      return [a.name, compositeJson(a.composite, groups, { maxMatches: maxMatchesOf(st) })];
    }
    if (FOLDED.has(a.type)) {
      if (r.rows.length >= FOLD_MAX_VALUES) throw new SearchError('UNSUPPORTED', `"${a.type}" aggregation '${a.name}' over a distributed table: '${a.field.name}' has more than ${FOLD_MAX_VALUES} distinct values`);
      const values = r.rows.map((row) => ({ value: row[0] as AttrValue, count: Number(row[1]) }));
      return [a.name, foldedAggJson(a, values, { limit: st.limit ?? DEFAULT_LIMIT, offset: st.offset ?? 0, maxMatches: maxMatchesOf(st) })];
    }
    if (METRICS.has(a.type)) {
      const kind = a.field.type === 'float' || a.type === 'avg' ? 'float' : 'bigint';
      return [a.name, new JsonFields([['value', cellToSourceJson(r.rows[0]?.[0] ?? null, kind)]])];
    }
    const kind = keyKind(a.field);
    const buckets = r.rows.map((row) => new JsonFields([['key', bucketKey(row[0] ?? null, kind)], ['doc_count', Number(row[1])]]));
    return [a.name, new JsonFields([['buckets', buckets]])];
  }));
}
