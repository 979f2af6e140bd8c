/**
 * JSON `/search` `highlight` (the object is read by src/highlight/highlight-request.ts): the
 * table's stored text of the final page's documents only, marked by the request's query as typed.
 */
import { finishQuery, toText, type QueryNode } from '../../query/index.js';
import { SearchError } from '../../util/errors.js';
import type { GlobalFlags } from '../exec/exec-select.js';
import { splitJsonQuery } from '../json/json-query-tree.js';
import { isJsonObject, type JsonObject, type JsonValue } from '../json/json-value.js';
import type { RowsResult } from '../result.js';
import { parseSql, type SelectItem } from '../../sql/index.js';
import {
  highlightDocuments, highlightPlan, parseJsonHighlight, type HighlightTable, type RowHighlight,
} from '../../highlight/highlight-request.js';
import { tableParseOptions } from '../../index/table-query.js';
import { jsonQueryKey } from '../json/json-query-key.js';
import { TableParseCache } from '../parse-cache.js';
import type { Table } from '../table.js';

export { parseJsonHighlight, type RowHighlight };

/** RowsResult with the JSON highlight of each row (rendered next to `_source`). */
export type HighlightedRows = RowsResult;

const badRequest = (msg: string): SearchError => new SearchError('PARSE_ERROR', msg);

/** The full-text tree of a JSON query as typed (not normalized), for marking. */
function queryTree(table: Table, query: JsonValue | undefined, flags: GlobalFlags): QueryNode {
  const tree = (): QueryNode => {
    const opts = tableParseOptions(table.pipeline, table.index.schema.fields, flags.notTermsOnlyAllowed);
    return finishQuery(splitJsonQuery(query, opts).fullText, opts).root;
  };
  const key = jsonQueryKey(query, TREE_CACHE.maxKeyLength);
  return key === undefined ? tree() : TREE_CACHE.get(table, `${flags.notTermsOnlyAllowed ? 1 : 0}\u0000${key}`, tree);
}

/**
 * Highlight query trees, per table: a repeated query skips the parse, and the snippet builder's
 * per-tree memos (the scan path's plan, keyed by the tree) hold across requests. Measured: the parse
 * and the plan were a fifth of a `@title` page's highlighting.
 */
const TREE_CACHE = new TableParseCache<QueryNode>(1024, 2048);

/** The table's side of highlighting (text settings, stored full-text fields). */
export function highlightTable(table: Table): HighlightTable {
  return {
    env: { pipeline: table.pipeline, settings: table.schema.settings },
    schemaFields: table.index.schema.fields,
    storedFields: table.schema.columns.filter((c) => c.type === 'text' && c.indexed && c.stored).map((c) => c.name),
  };
}

/**
 * Computes `highlights` for the rows of a finished `/search` (their `id` column names the documents).
 * `fromRows`: the texts are the rows' own columns (a distributed table's rows, whose documents live
 * on other shards) instead of the table's stored documents.
 */
export async function addJsonHighlights(table: Table, result: HighlightedRows, body: JsonObject, flags: GlobalFlags, fromRows = false): Promise<void> {
  if (body.highlight === undefined) return;
  const spec = parseJsonHighlight(body.highlight);
  const idCol = result.columns.findIndex((c) => c.name.toLowerCase() === 'id');
  if (idCol < 0 || !result.rows.length) { result.highlights = result.rows.map(() => ({})); return; }
  const ht = highlightTable(table);
  const names = highlightPlan(spec, ht);
  const root = queryTree(table, (spec.query as JsonValue | undefined) ?? body.query, flags);
  const docs = fromRows
    ? result.rows.map((r) => Object.fromEntries(result.columns.map((c, i) => [c.name, r[i]])))
    : table.fetch(result.rows.map((r) => r[idCol] as bigint));
  result.highlights = await highlightDocuments(root, docs as (Record<string, unknown> | undefined)[], names, spec, ht);
}

/**
 * `script_fields: {name: {script: {inline: "highlight({},'title')"}}}`: each inline expression as
 * a select item named `name` (it lands in `_source`).
 */
export function scriptFieldItems(v: JsonValue | undefined): SelectItem[] {
  if (v === undefined) return [];
  // searchd's checks and texts, in its order (sphinxjsonquery.cpp ParseScriptFields)
  if (!isJsonObject(v)) throw badRequest('"script_fields" property should be an object');
  return Object.entries(v).map(([name, f]) => {
    if (!isJsonObject(f)) throw badRequest('"script_fields" properties should be objects');
    if (name === '') throw badRequest('"script_fields" empty property name');
    if (f.script === undefined) throw badRequest('"script_fields" property should have "script" object');
    const script = isJsonObject(f.script) ? f.script.inline : undefined;
    if (script === undefined) throw badRequest('"inline" property missing');
    if (typeof script !== 'string') throw badRequest('"inline" property value should be a string');
    if (script === '') throw badRequest('"inline" property empty');
    const unsupported = ['lang', 'params', 'stored', 'file'].find((k) => (f.script as Record<string, unknown>)[k] !== undefined);
    if (unsupported) throw new SearchError('UNSUPPORTED', `"${unsupported}" property not supported in "script_fields"`);
    const st = parseSql(`SELECT ${script} FROM t`)[0];
    if (!st || st.kind !== 'select' || st.items.length !== 1) throw badRequest(`"script_fields" "${name}": bad expression`);
    return { expr: st.items[0].expr, name, alias: name };
  });
}

/**
 * `expressions: {name: "expr"}`, Manticore's synonym of script_fields (ParseExpressions): each string
 * a select item named `name`, after any script_fields.
 */
export function expressionItems(v: JsonValue | undefined): SelectItem[] {
  if (v === undefined) return [];
  if (!isJsonObject(v)) throw badRequest('"expressions" property should be an object');
  return Object.entries(v).map(([name, expr]) => {
    if (typeof expr !== 'string') throw badRequest('"expressions" properties should be strings');
    if (name === '') throw badRequest('"expressions" empty property name');
    const st = parseSql(`SELECT ${expr} FROM t`)[0];
    if (!st || st.kind !== 'select' || st.items.length !== 1) throw badRequest(`"expressions" "${name}": bad expression`);
    return { expr: st.items[0].expr, name, alias: name };
  });
}

/** The JSON query's full-text part as query text (for HIGHLIGHT() in script_fields). */
export function jsonMatchText(table: Table, query: JsonValue | undefined, flags: GlobalFlags): string {
  return toText(queryTree(table, query, flags));
}
