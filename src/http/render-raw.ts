/** Result sets as `/sql?mode=raw` and `/cli_json` answer them: a JSON array, one object per statement. */
import { cellToRawJson, cellToSqlText, mysqlTypeName, RawJson, type JsonOut } from '../engine/values/cell-format.js';
import { jsonString, toJsonText } from './json-text.js';
import type { CellKind, OkResult, Result, RowsResult } from '../engine/result.js';
import { errorBody, httpStatusFor, HTTP_OK } from './errors.js';

export interface JsonReply {
  status: number;
  body: JsonOut;
}

/** Kinds whose JSON is their integer text, as the MySQL text protocol writes them (cellToSqlText). */
const INTEGER_KINDS: ReadonlySet<CellKind> = new Set(['bigint', 'uint', 'timestamp', 'bool']);

/**
 * searchd's layout (searchdhttp.cpp's JSON row buffer: the root object and the data array are "W" blocks,
 * one member a line), as CLT http-interface/multi-query.rec records it:
 * `{\n"columns":[{"id":{"type":"long long"}}],\n"data":[\n{"id":1},\n{"id":2}\n],\n"total":2,\n"error":"",\n"warning":""\n}`
 * (no rows: `"data":[\n],`). Manticore's JSON row buffer never fills `warning` for a result set, only for OK replies. Written as
 * text straight from the rows, each column's `"name":` escaped once per result, instead of a
 * JsonFields per row and per column for toJsonText to walk: 20 rows of id and weight() take 2.7
 * instead of 12.6 us, on a path (`/sql?mode=raw`) whose whole query costs the server 300-500 us.
 * An integer cell (id, weight(), uint, bigint, timestamp, bool) is its text, without the RawJson
 * object per cell and toJsonText's dispatch on it.
 */
export function rawRowsJson(result: RowsResult): RawJson {
  const { types, data } = rowsText(result, ',\n');
  const body = data === '' ? '' : `${data}\n`;
  return new RawJson(`{\n"columns":[${types.join(',')}],\n"data":[\n${body}],\n"total":${result.rows.length},\n"error":"",\n"warning":""\n}`);
}

/** The column types and the rows' objects, joined by `separator`. */
function rowsText(result: RowsResult, separator: string): { types: string[]; data: string } {
  const cols = result.columns;
  const types = cols.map((c) => `{${jsonString(c.name)}:{"type":${jsonString(mysqlTypeName(c.kind))}}}`);
  const keys = cols.map((c) => `${jsonString(c.name)}:`);
  const integer = cols.map((c) => INTEGER_KINDS.has(c.kind));
  let data = '';
  for (const row of result.rows) {
    let text = data === '' ? '{' : `${separator}{`;
    let first = true;
    for (let i = 0; i < cols.length; i++) {
      const cell = row[i] ?? null;
      let value: string;
      if (integer[i]) {
        value = cell === null ? 'null' : cellToSqlText(cell, cols[i]!.kind)!;
      } else {
        const json = cellToRawJson(cell, cols[i]!.kind);
        if (json === undefined) continue;
        value = toJsonText(json);
      }
      text += first ? `${keys[i]}${value}` : `,${keys[i]}${value}`;
      first = false;
    }
    data += `${text}}`;
  }
  return { types, data };
}

/**
 * Buddy's layout of a result set it answered (its plugins' TaskResult, PHP's json_encode): one line, `total`
 * first, as CLT buddy-plugins/test-fuzzy-trailing-semicolon.rec records it:
 * `{"total":1,"error":"","warning":"","columns":[{"id":{"type":"long long"}}],"data":[{"id":1}]}`.
 */
function buddyRowsJson(result: RowsResult): string {
  const { types, data } = rowsText(result, ',');
  return `{"total":${result.rows.length},"error":"","warning":"","columns":[${types.join(',')}],"data":[${data}]}`;
}

/**
 * `{"total":affected,"error":"","warning":"..."}` for a statement without a result set: written as its
 * text (every INSERT over `/sql?mode=raw` answers with one), as toJsonText would write its fields.
 */
export function rawOkJson(result: OkResult): RawJson {
  const total = Number.isFinite(result.affected) ? String(result.affected) : 'null';
  return new RawJson(`{"total":${total},"error":"","warning":${jsonString(result.warning ?? '')}}`);
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
  // one statement's object after another, each on its own lines as searchd's outer array writes them
  const items = results.map((r) => (r.kind !== 'rows' ? rawOkJson(r as OkResult).text : r.buddyLayout ? buddyRowsJson(r) : rawRowsJson(r).text));
  return { status: HTTP_OK, body: new RawJson(`[${items.join(',\n')}]`) };
}
