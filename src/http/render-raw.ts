/** Result sets as `/sql?mode=raw` and `/cli_json` answer them: a JSON array, one object per statement. */
import { cellToRawJson, JsonFields, mysqlTypeName, type JsonOut } from '../engine/cell-format.js';
import type { OkResult, Result, RowsResult } from '../engine/result.js';
import { errorBody, httpStatusFor, HTTP_OK } from './errors.js';

export interface JsonReply {
  status: number;
  body: JsonOut;
}

/**
 * `{"columns":[{"id":{"type":"long long"}}],"data":[{"id":1}],"total":1,"error":"","warning":""}`.
 * Manticore's JSON row buffer never fills `warning` for a result set, only for OK replies.
 */
export function rawRowsJson(result: RowsResult): JsonFields {
  const columns = result.columns.map(
    (c) => new JsonFields([[c.name, new JsonFields([['type', mysqlTypeName(c.kind)]])]]),
  );
  const data = result.rows.map(
    (row) => new JsonFields(result.columns.map((c, i) => [c.name, cellToRawJson(row[i] ?? null, c.kind)])),
  );
  return new JsonFields([
    ['columns', columns],
    ['data', data],
    ['total', result.rows.length],
    ['error', ''],
    ['warning', ''],
  ]);
}

/** `{"total":affected,"error":"","warning":"..."}` for a statement without a result set. */
export function rawOkJson(result: OkResult): JsonFields {
  return new JsonFields([
    ['total', result.affected],
    ['error', ''],
    ['warning', result.warning ?? ''],
  ]);
}

/**
 * The whole reply. Any failed statement turns it into HTTP 500 `{"error": message}` (the results
 * before it are dropped, as Manticore's row buffer does).
 */
export function renderRawReply(results: Result[]): JsonReply {
  const failed = results.find((r) => r.kind === 'error');
  if (failed && failed.kind === 'error') {
    return { status: httpStatusFor(failed.code, 'sql-raw'), body: errorBody(failed.message) };
  }
  const body = results.map((r) => (r.kind === 'rows' ? rawRowsJson(r) : rawOkJson(r as OkResult)));
  return { status: HTTP_OK, body };
}
