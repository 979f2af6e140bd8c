/**
 * A SELECT's rows in the `/search` response shape, which `POST /sql` (no mode) answers with, written
 * straight to JSON text: no object per hit or field on the way (measured: half the serializing cost
 * of 20 gcide hits with their `_source`).
 */
import { cellToSourceJson, JsonFields } from '../engine/cell-format.js';
import type { Cell, CellKind, RowsResult } from '../engine/result.js';
import { jsonString, toJsonText } from './json-text.js';
import { highlightJsonText } from './render-highlight.js';

/** `_score` of a row without a full-text query (Manticore's full scans weigh 1). */
export const FULL_SCAN_SCORE = 1;

function idColumn(result: RowsResult): number {
  return result.columns.findIndex((c) => c.name.toLowerCase() === 'id');
}

/** Manticore prints `_id` unsigned (`%U`), so a negative 64-bit id shows as its two's complement. */
function unsignedId(value: Cell): string {
  return typeof value === 'bigint' ? BigInt.asUintN(64, value).toString() : String(value);
}

/** One `_source` value: text as a JSON string, the other kinds as cellToSourceJson renders them. */
function sourceText(value: Cell, kind: CellKind): string {
  return typeof value === 'string' && kind === 'string' ? jsonString(value) : toJsonText(cellToSourceJson(value, kind));
}

function hitText(result: RowsResult, rowIndex: number, idIndex: number, keys: string[]): string {
  const row = result.rows[rowIndex]!;
  let out = idIndex >= 0 ? `{"_id":${unsignedId(row[idIndex] ?? null)},"_score":` : '{"_score":';
  out += toJsonText(result.weights?.[rowIndex] ?? FULL_SCAN_SCORE);
  out += ',"_source":{';
  let first = true;
  for (let i = 0; i < keys.length; i++) {
    if (i === idIndex) continue;
    out += first ? keys[i]! : `,${keys[i]!}`;
    out += sourceText(row[i] ?? null, result.columns[i]!.kind);
    first = false;
  }
  out += '}';
  const hl = result.highlights?.[rowIndex];
  if (hl) out += `,"highlight":${highlightJsonText(hl)}`;
  return `${out}}`;
}

/**
 * `{"took":ms,"timed_out":false,"hits":{"total":n,"total_relation":"eq","hits":[...]}}`, with
 * `"warning":{"reason":...}` after `timed_out` when the search warned. A row's `id` column becomes
 * `_id` (aggregate rows have none), its weight `_score`, and the other columns `_source`.
 */
export function searchJsonText(result: RowsResult): string {
  const meta = result.meta;
  const idIndex = idColumn(result);
  let out = `{"took":${toJsonText(Math.trunc(meta?.timeMs ?? 0))},"timed_out":false`;
  const warning = result.warning ?? meta?.warning;
  if (warning) out += `,"warning":${toJsonText({ reason: warning })}`;
  out += `,"hits":{"total":${toJsonText(meta?.totalFound ?? result.rows.length)}`;
  out += `,"total_relation":${toJsonText(meta?.totalRelation ?? 'eq')},"hits":[`;
  // each column's `"name":` once per reply, not once per hit
  const keys = result.columns.map((c) => `${jsonString(c.name)}:`);
  for (let i = 0; i < result.rows.length; i++) {
    if (i > 0) out += ',';
    out += hitText(result, i, idIndex, keys);
  }
  out += ']}';
  if (result.aggregations) out += `,"aggregations":${toJsonText(new JsonFields(result.aggregations))}`;
  return `${out}}`;
}
