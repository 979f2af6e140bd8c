/**
 * `/update` and `/delete` on the engine: the target ids (given, or selected by a JSON query) go to
 * the SQL UPDATE/DELETE executors as `id IN (...)`. `checkModify` validates a body without running it,
 * so a bad `/bulk` line is found before its run commits.
 */
import type { Assignment, Condition, Literal as SqlLiteral, NumberLiteral, SelectStatement } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import { attrValue } from '../values/coerce.js';
import { buildRequest } from '../exec/exec-select.js';
import { execDelete, execUpdate, existingTable, type WriteContext } from '../exec/exec-write.js';
import { jsonFullText } from './json-search.js';
import { docLiteral, isJsonObject, jsonTypeName, requestObject, tableName, type JsonObject, type JsonValue } from './json-value.js';
import { requestIds } from './json-write.js';
import type { Literal } from '../values/literal.js';
import { fromSql } from '../values/sql-values.js';
import type { Table } from '../table.js';

/** By id: `id` set (`affected` 0 or 1); by query: `id` undefined. */
export interface UpdateReply { table: string; id?: bigint; affected: number }
export interface DeleteReply { table: string; id?: bigint; affected: number }

const parseError = (msg: string): SearchError => new SearchError('PARSE_ERROR', msg);

/** A document literal as the SQL literal an UPDATE assignment takes (JSON text as a string). */
function sqlLiteral(l: Literal): SqlLiteral {
  switch (l.t) {
    case 'int': return { kind: 'int', value: l.v, text: l.v.toString() };
    case 'float': return { kind: 'float', value: l.v, text: String(l.v) };
    case 'bool': return { kind: 'int', value: l.v ? 1 : 0, text: l.v ? '1' : '0' };
    case 'string': case 'json': return { kind: 'string', value: l.v };
    case 'tuple': return { kind: 'tuple', items: l.v.map(sqlLiteral) as NumberLiteral[] };
    case 'null': return { kind: 'null' };
  }
}

/** `doc` of `/update` as assignments; `col.path` keys update inside a JSON attribute. */
function assignments(table: Table, obj: JsonObject): Assignment[] {
  const doc = obj.doc;
  if (doc === undefined) throw parseError('"doc" property missing');
  if (!isJsonObject(doc)) throw parseError('"doc" property value should be an object');
  return Object.entries(doc).map(([key, v]) => {
    if (v === null) throw parseError(`unsupported value type '${jsonTypeName(v)}' in field '${key}'`);
    const [column, ...path] = key.toLowerCase().split('.');
    const col = table.column(column!);
    return { column: column!, path, value: sqlLiteral(docLiteral(v, col?.type === 'json' || path.length > 0)) };
  });
}

/** Ids of the documents a `query` (or none: all documents) selects now. */
function queryIds(ctx: WriteContext, table: Table, query: JsonValue | undefined): bigint[] {
  const all = Math.max(1, table.index.count());
  const st: SelectStatement = {
    kind: 'select', text: '', items: [], tables: [table.name], limit: all, offset: 0,
    options: [{ name: 'max_matches', value: { kind: 'int', value: all, text: String(all) } }],
  };
  const { fullText, where } = jsonFullText(table, query, ctx.flags);
  st.where = where;
  const req = buildRequest(table, st, ctx.flags, fullText);
  return req === 'none' ? [] : table.search(req).hits.map((h) => h.docId);
}

const idIn = (ids: bigint[]): Condition => ({
  kind: 'in', negate: false, target: { expr: { kind: 'column', name: 'id', path: [], text: 'id' } },
  values: ids.map((id) => ({ kind: 'int', value: id, text: id.toString() })),
});

/** The target of an update or delete: ids given, or the query that selects them (parsed, checked). */
function target(ctx: WriteContext, table: Table, obj: JsonObject, arrays: boolean): { ids: bigint[]; byId?: bigint } | { query: JsonValue } {
  const given = requestIds(obj, arrays);
  if (given !== undefined && obj.query !== undefined) throw parseError('both "id" and "query" specified');
  if (given === undefined) {
    if (obj.query === undefined) throw parseError('"id" or "query" property missing');
    jsonFullText(table, obj.query, ctx.flags);
    return { query: obj.query };
  }
  if (typeof given[0] === 'string') {
    throw new SearchError('QUERY_ERROR', `table ${table.name}: table ${table.name}: unsupported filter type 'string' on attribute 'id'`);
  }
  const ids = given as bigint[];
  return { ids, byId: ids[0] === 0n ? undefined : ids[0] };
}

function targetIds(ctx: WriteContext, table: Table, obj: JsonObject, arrays: boolean): { ids: bigint[]; byId?: bigint } {
  const t = target(ctx, table, obj, arrays);
  return 'query' in t ? { ids: queryIds(ctx, table, t.query) } : t;
}

/** What SQL UPDATE checks, done ahead: columns exist, are attributes, values convert. */
function checkAssignments(table: Table, assigns: Assignment[]): void {
  for (const a of assigns) {
    const col = table.column(a.column);
    if (!col) throw new SearchError('UNKNOWN_COLUMN', `table ${table.name}: attribute '${a.column}' not found`);
    if (col.type === 'text') throw new SearchError('BAD_VALUE', `table ${table.name}: attribute '${a.column}' can not be updated (full-text field)`);
    if (!a.path.length) attrValue(fromSql(a.value), col);
  }
}

/** Validates an `/update` or `/delete` body against its table without changing anything. */
export function checkModify(ctx: WriteContext, table: Table, body: JsonObject, kind: 'update' | 'delete'): void {
  if (kind === 'update') checkAssignments(table, assignments(table, body));
  target(ctx, table, body, kind === 'delete');
}

export async function execJsonUpdate(ctx: WriteContext, body: JsonValue): Promise<UpdateReply> {
  const obj = requestObject(body);
  const table = existingTable(ctx, tableName(obj), 'update');
  const assigns = assignments(table, obj);
  const { ids, byId } = targetIds(ctx, table, obj, false);
  const res = await execUpdate(ctx, { kind: 'update', text: '', table: table.name, assignments: assigns, where: idIn(ids), options: [] });
  return { table: table.name, id: byId, affected: res.affected };
}

export async function execJsonDelete(ctx: WriteContext, body: JsonValue): Promise<DeleteReply> {
  const obj = requestObject(body);
  const table = existingTable(ctx, tableName(obj), 'delete');
  const { ids, byId } = targetIds(ctx, table, obj, true);
  const res = await execDelete(ctx, { kind: 'delete', text: '', table: table.name, where: idIn(ids), options: [] });
  return { table: table.name, id: byId, affected: res.affected };
}
