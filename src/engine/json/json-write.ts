/**
 * `/insert` (`/create`) and `/replace` (`/index`) on the engine: the same Table calls as SQL
 * INSERT/REPLACE (validate, then one durable write), with Manticore's JSON request checks and texts
 * (src/sphinxjsonquery.cpp ParseJsonInsert, ParseIndexId).
 */
import { commitGrouped } from '../transaction/transaction-group.js';
import { SearchError } from '../../util/errors.js';
import { tableForInsert } from '../insert-rows.js';
import type { WriteContext } from '../exec/exec-write.js';
import { docLiteral, insertDocLiteral, isJsonInt, isJsonObject, objectPairs, requestObject, tableName, twiceError, twiceNamed, type JsonObject, type JsonValue } from './json-value.js';
import type { Literal } from '../values/literal.js';
import type { RowInput, Table } from '../table.js';
import { lockedForInsert } from '../exec/table-locks.js';
import { insertWarning } from '../exec/insert-warnings.js';

const parseError = (msg: string): SearchError => new SearchError('PARSE_ERROR', msg);
const U64_MAX = (1n << 64n) - 1n;

/** `warning`: a JSON attribute stored NULL for its syntax (insert-warnings.ts), kept for SHOW WARNINGS. */
export interface InsertReply { table: string; id: bigint; replace: boolean; warning?: string }

/**
 * The `id` of a request (Manticore's ParseIndexId): a non-negative integer, 0 or absent for "none".
 * `arrays` allows an id list (`/delete`); a string id is returned as a string.
 */
export function requestIds(obj: JsonObject, arrays: boolean): bigint[] | string[] | undefined {
  const v = obj.id;
  if (v === undefined) return undefined;
  // Manticore's texts: the id itself, then an element of an id list
  const notInt = (inList: boolean) => parseError(inList ? 'Document ids should be integer or string' : 'Document ids should be integer, string, or array of integers/strings');
  const one = (x: JsonValue, inList: boolean): bigint | string => {
    if (typeof x === 'string') return x;
    if (!isJsonInt(x)) throw notInt(inList);
    const id = BigInt(x.value);
    // past u64 Manticore's cJSON reads a float (strtoull's ERANGE), so not an integer id; taken as one,
    // the index's 64-bit keys wrapped it and /update or /delete of 2^64+1 changed the row with id 1
    if (id > U64_MAX) throw notInt(inList);
    if (id < 0n) throw parseError('Negative document ids are not allowed');
    return id;
  };
  if (!Array.isArray(v)) return [one(v, false)] as bigint[] | string[];
  if (!arrays) throw parseError('Document ids should be integer or string');
  const ids = v.map((x) => one(x, true));
  const strings = ids.filter((x) => typeof x === 'string').length;
  if (strings && strings !== ids.length) throw parseError('Document ids should be integer');
  return ids as bigint[] | string[];
}

/** The document's columns (lower-cased names, `id` left out) in the order given, a repeated key each time. */
export function docEntries(obj: JsonObject): [string, JsonValue][] {
  const doc = docObject(obj);
  if (doc === undefined) return [];
  return objectPairs(doc).map(([k, v]) => [k.toLowerCase(), v] as [string, JsonValue]).filter(([k]) => k !== 'id');
}

/** The `doc` of an insert body: an object, or undefined when absent. */
export function docObject(body: JsonObject): JsonObject | undefined {
  const doc = body.doc;
  if (doc === undefined) return undefined;
  if (!isJsonObject(doc)) throw parseError('"doc" property value should be an object');
  return doc;
}

/** The literal auto schema infers a column from: an array with a non-integer is JSON, not an MVA. */
export function inferenceLiteral(v: JsonValue): Literal {
  if (Array.isArray(v) && v.some((x) => !isJsonInt(x))) return { t: 'json', v: '[]' };
  return docLiteral(v);
}

/** One document as a row: values by column, and each column's 1-based position (id is column 1). */
export function docRow(table: Table, id: bigint | undefined, entries: [string, JsonValue][]): { row: RowInput; colNos: Map<string, number> } {
  const values = new Map<string, Literal>();
  const colNos = new Map<string, number>([['id', 1]]);
  entries.forEach(([name, v], i) => {
    const col = table.column(name);
    if (!col) throw new SearchError('UNKNOWN_COLUMN', `unknown column: '${name}'`);
    values.set(name, insertDocLiteral(v, col.type === 'json'));
    colNos.set(name, i + 2);
  });
  // a key given twice (in any case: searchd lower-cases them) is an INSERT naming a column twice
  if (colNos.size < entries.length + 1) throw twiceError(twiceNamed(entries.map(([k]) => k))!);
  return { row: { id, values }, colNos };
}

/** The id of an insert: absent, 0 or a string mean a generated one. */
export function insertId(obj: JsonObject): bigint | undefined {
  const ids = requestIds(obj, false);
  const id = ids?.[0];
  return typeof id === 'bigint' && id !== 0n ? id : undefined;
}

/** `/insert` and `/replace`: one document, one durable write. */
export async function execJsonInsert(ctx: WriteContext, body: JsonValue, replace: boolean): Promise<InsertReply> {
  const obj = requestObject(body);
  const name = tableName(obj);
  const given = insertId(obj);
  const entries = docEntries(obj);
  // an existing table (the usual /insert) takes no await and no literals for auto schema's inference
  const table = ctx.catalog.get(name) ?? await tableForInsert(ctx, name, entries.map(([k]) => k), [entries.map(([, v]) => inferenceLiteral(v))]);
  if (table.readLocks) throw lockedForInsert(table.name);
  const { row, colNos } = docRow(table, given, entries);
  const id = given ?? (await ctx.ids.take(1))[0]!;
  // concurrent writers share one durable commit, as SQL INSERT (../transaction/transaction-group.ts)
  await commitGrouped(table, () => ({ ids: [id], ...table.prepare([row], [id], colNos), replace }));
  const warning = insertWarning(table, [row], false);
  return warning === undefined ? { table: table.name, id, replace } : { table: table.name, id, replace, warning };
}
