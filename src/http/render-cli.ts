/**
 * `POST /cli` replies: result sets as mysql-client-like ASCII tables (Manticore Buddy's format),
 * statements without a result set as the JSON object `{total, error, warning}` (the seed contract).
 * Every reply, table or JSON, is sent as `application/json; charset=UTF-8`: searchd's HTTP layer
 * writes that type for /cli as for every endpoint (its CLT test-content-type-header-* recordings).
 */
import { cellToSqlText, JsonFields } from '../engine/values/cell-format.js';
import type { OkResult, Result, RowsResult } from '../engine/result.js';
import { affectedSummary, renderAsciiTable, rowsSummary } from './ascii-table.js';
import { httpStatusFor, HTTP_OK } from './errors.js';
import { toJsonText } from './json-text.js';

/** How SQL NULL shows in a table cell, as the mysql client prints it. */
export const CLI_NULL = 'NULL';

export interface CliReply {
  status: number;
  body: string;
}

/** One result set as table + summary line (no newline after it); cells are their MySQL text forms. */
export function cliTable(result: RowsResult, seconds: number): string {
  const header = result.columns.map((c) => c.name);
  const rows = result.rows.map((row) =>
    result.columns.map((c, i) => cellToSqlText(row[i] ?? null, c.kind) ?? CLI_NULL),
  );
  return `${renderAsciiTable(header, rows)}${rowsSummary(rows.length, seconds)}`;
}

function statusJson(total: number, error: string, warning: string): string {
  return toJsonText(new JsonFields([['total', total], ['error', error], ['warning', warning]]));
}

/**
 * The whole reply for the results of one request. An error anywhere answers with
 * `{"total":0,"error":msg,"warning":""}`; only OK results answer with the last one's JSON object;
 * otherwise every result is printed in order as text.
 */
export function renderCliReply(results: Result[], seconds: number): CliReply {
  const failed = results.find((r) => r.kind === 'error');
  if (failed && failed.kind === 'error') {
    const status = httpStatusFor(failed.code, 'sql-raw');
    return { status, body: statusJson(0, failed.message, '') };
  }
  if (!results.some((r) => r.kind === 'rows')) {
    const last = results[results.length - 1] as OkResult | undefined;
    const body = statusJson(last?.affected ?? 0, '', last?.warning ?? '');
    return { status: HTTP_OK, body };
  }
  // result sets follow one another line by line, a blank line only at the end (CLT http-interface/multi-query.rec)
  const text = results
    .map((r) => (r.kind === 'rows' ? cliTable(r, seconds) : affectedSummary((r as OkResult).affected, seconds)))
    .join('\n');
  return { status: HTTP_OK, body: `${text}\n\n` };
}
