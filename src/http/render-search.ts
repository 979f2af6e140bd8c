/** A SELECT's rows in the `/search` response shape, which `POST /sql` (no mode) answers with. */
import { cellToSourceJson, JsonFields, RawJson, type JsonOut } from '../engine/cell-format.js';
import type { Cell, RowsResult } from '../engine/result.js';

/** `_score` of a row without a full-text query (Manticore's full scans weigh 1). */
export const FULL_SCAN_SCORE = 1;

function idColumn(result: RowsResult): number {
  return result.columns.findIndex((c) => c.name.toLowerCase() === 'id');
}

/** Manticore prints `_id` unsigned (`%U`), so a negative 64-bit id shows as its two's complement. */
function unsignedId(value: Cell): string {
  return typeof value === 'bigint' ? BigInt.asUintN(64, value).toString() : String(value);
}

function hitJson(result: RowsResult, rowIndex: number, idIndex: number): JsonFields {
  const row = result.rows[rowIndex]!;
  const entries: Array<[string, JsonOut]> = [];
  if (idIndex >= 0) entries.push(['_id', new RawJson(unsignedId(row[idIndex] ?? null))]);
  entries.push(['_score', result.weights?.[rowIndex] ?? FULL_SCAN_SCORE]);
  const source: Array<[string, JsonOut]> = [];
  result.columns.forEach((c, i) => {
    if (i !== idIndex) source.push([c.name, cellToSourceJson(row[i] ?? null, c.kind)]);
  });
  entries.push(['_source', new JsonFields(source)]);
  const hl = result.highlights?.[rowIndex];
  if (hl) entries.push(['highlight', new JsonFields(Object.entries(hl))]);
  return new JsonFields(entries);
}

/**
 * `{"took":ms,"timed_out":false,"hits":{"total":n,"total_relation":"eq","hits":[...]}}`, with
 * `"warning":{"reason":...}` after `timed_out` when the search warned. A row's `id` column becomes
 * `_id` (aggregate rows have none), its weight `_score`, and the other columns `_source`.
 */
export function renderSearchJson(result: RowsResult): JsonFields {
  const meta = result.meta;
  const idIndex = idColumn(result);
  const entries: Array<[string, JsonOut]> = [
    ['took', Math.trunc(meta?.timeMs ?? 0)],
    ['timed_out', false],
  ];
  const warning = result.warning ?? meta?.warning;
  if (warning) entries.push(['warning', { reason: warning }]);
  entries.push([
    'hits',
    new JsonFields([
      ['total', meta?.totalFound ?? result.rows.length],
      ['total_relation', meta?.totalRelation ?? 'eq'],
      ['hits', result.rows.map((_, i) => hitJson(result, i, idIndex))],
    ]),
  ]);
  if (result.aggregations) entries.push(['aggregations', new JsonFields(result.aggregations)]);
  return new JsonFields(entries);
}
