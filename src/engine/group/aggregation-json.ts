/** FACET result sets in the `aggregations` shape of `/sql` and `/search` (Manticore's EncodeAggr). */
import { cellToSourceJson, JsonFields, type JsonOut } from '../values/cell-format.js';
import type { Cell, CellKind, RowsResult } from '../result.js';

/** A bucket key: the group column's value (an MVA group's one value as a number). */
export function bucketKey(cell: Cell, kind: CellKind): JsonOut {
  if (kind === 'mva' && Array.isArray(cell) && cell.length === 1) return cellToSourceJson(cell[0]!, 'bigint');
  return cellToSourceJson(cell, kind);
}

/**
 * `"name": {"buckets": [{"key": v, "doc_count": n}, ...]}` for one facet result set; FACET ... DISTINCT
 * col adds `count(distinct col)` to each bucket, a facet in auto mode its `status`.
 */
export function facetAggregation(facet: RowsResult): [string, JsonOut] {
  const count = facet.columns.findIndex((c) => c.name === 'count(*)');
  const distinct = facet.columns.findIndex((c) => c.name.startsWith('count(distinct '));
  const status = facet.columns.findIndex((c) => c.name === 'status' && c.kind === 'string');
  const keyCol = facet.columns[0]!;
  const buckets = facet.rows.map((row) => new JsonFields([
    ['key', bucketKey(row[0] ?? null, keyCol.kind)],
    ['doc_count', cellToSourceJson(row[count] ?? null, 'bigint')],
    ...(distinct >= 0 ? [[facet.columns[distinct]!.name, cellToSourceJson(row[distinct] ?? null, 'bigint')] as [string, JsonOut]] : []),
    // a facet in auto mode marks each bucket selected or available
    ...(status > 0 && status === facet.columns.length - 1 ? [['status', row[status] as string] as [string, JsonOut]] : []),
  ]));
  return [facet.facet ?? keyCol.name, new JsonFields([['buckets', buckets]])];
}
