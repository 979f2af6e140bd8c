/**
 * `/_bulk`, the Elasticsearch-style bulk (src/searchdhttp.cpp HttpHandlerEsBulk_c): pairs of an
 * action line (`index`, `create`, `update`, `delete` with `_index`, `_id`) and a source line.
 * Consecutive documents of one action on one table form a transaction; a bad document gets its own
 * error item and the others of its transaction are still written. Unlike `/bulk`, `index` and
 * `create` into a missing table create it by auto schema (spec section 7).
 */
import { SearchError } from '../../util/errors.js';
import { inferSchema } from '../auto-schema.js';
import type { WriteContext } from '../exec/exec-write.js';
import { execJsonDelete, execJsonUpdate } from './json-modify.js';
import { LosslessNumber } from 'lossless-json';
import { isJsonInt, isJsonObject, type JsonObject, type JsonValue } from './json-value.js';
import { docRow, inferenceLiteral } from './json-write.js';
import type { Literal } from '../values/literal.js';
import type { Table } from '../table.js';
import { checkDocId } from '../../store/keys.js';

/** One document of the request: its action line, and its source line (none for delete). */
export interface EsBulkDoc {
  action: string;
  table: string;
  /** `_id`: a number, a string, or absent (generated). */
  id?: bigint | string;
  source?: JsonValue;
  /** The source line could not be read. */
  sourceError?: string;
}

export interface EsBulkItem {
  action: string;
  table: string;
  /** The document id as text ('' when none was given and none was made). */
  id: string;
  result?: 'created' | 'updated' | 'deleted';
  error?: { type: string; reason: string };
}

const MAPPER_ERROR = 'mapper_parsing_exception';

/** The numeric id of a document: `_id` (number or digits), else an `id` in its source. */
function docId(doc: EsBulkDoc, source: JsonObject): bigint | undefined {
  let meta: bigint | undefined;
  if (typeof doc.id === 'bigint') meta = doc.id;
  else if (typeof doc.id === 'string') {
    if (!/^\d+$/.test(doc.id)) throw new SearchError('BAD_VALUE', `_id should be a number: '${doc.id}'`);
    meta = BigInt(doc.id);
  }
  const own = source.id;
  if (own !== undefined) {
    const v = isJsonInt(own) ? BigInt(own.value) : typeof own === 'string' && /^\d+$/.test(own) ? BigInt(own) : undefined;
    if (v === undefined || (meta !== undefined && meta !== 0n && meta !== v)) throw new SearchError('BAD_VALUE', 'id has already been specified');
    meta = v;
  }
  return meta === 0n ? undefined : meta;
}

/**
 * Whether an index/create document gets a generated id (no `_id` and no `id` in its source, or 0): a
 * replicated request fills it in on the writer, so every node stores the same. A malformed id is left
 * for the write to refuse.
 */
export function esBulkNeedsId(doc: EsBulkDoc): boolean {
  if ((doc.action !== 'index' && doc.action !== 'create') || !isJsonObject(doc.source)) return false;
  try {
    return docId(doc, doc.source) === undefined;
  } catch {
    return false;
  }
}

const entriesOf = (source: JsonObject): [string, JsonValue][] =>
  Object.entries(source).map(([k, v]) => [k.toLowerCase(), v] as [string, JsonValue]).filter(([k]) => k !== 'id');

/**
 * Refuses a document the replication hook did not take: `c:t` (Manticore's cluster:table `_index`) in
 * a request that also writes elsewhere, or a replicated table named without its cluster.
 */
function guard(ctx: WriteContext, name: string): void {
  const colon = name.indexOf(':');
  if (colon > 0) ctx.guard?.(name.slice(colon + 1), name.slice(0, colon), '/_bulk');
  else ctx.guard?.(name);
}

/** The table of an index/create run, made by auto schema from its documents when missing. */
async function writeTable(ctx: WriteContext, name: string, docs: EsBulkDoc[]): Promise<Table> {
  guard(ctx, name);
  const existing = ctx.catalog.get(name);
  if (existing) return existing;
  if (!ctx.autoSchema) throw new SearchError('UNKNOWN_TABLE', `table '${name}' absent`);
  const sources = docs.map((d) => (isJsonObject(d.source) ? entriesOf(d.source) : []));
  const columns = [...new Set(sources.flatMap((s) => s.map(([k]) => k)))];
  const rows: Literal[][] = sources.map((s) => {
    const byName = new Map(s);
    return columns.map((c) => (byName.has(c) ? inferenceLiteral(byName.get(c)!) : { t: 'null' }));
  });
  try {
    return await ctx.catalog.create(inferSchema(name, columns, rows));
  } catch (e) {
    const t = ctx.catalog.get(name);
    if (t) return t;
    throw e;
  }
}

/** Writes a run of `index` (replace) or `create` (insert) documents; bad ones get error items. */
async function writeRun(ctx: WriteContext, docs: EsBulkDoc[], replace: boolean): Promise<EsBulkItem[]> {
  const items: EsBulkItem[] = docs.map((d) => ({ action: d.action, table: d.table, id: d.id === undefined ? '' : String(d.id) }));
  const fail = (i: number, reason: string) => { items[i]!.error = { type: MAPPER_ERROR, reason }; };
  let table: Table;
  try {
    table = await writeTable(ctx, docs[0]!.table, docs);
  } catch (e) {
    docs.forEach((_, i) => fail(i, (e as Error).message));
    return items;
  }
  await table.mutex.run(async () => {
    const ok: { i: number; id: bigint; doc: ReturnType<Table['prepare']> }[] = [];
    const seen = new Set<bigint>();
    for (const [i, d] of docs.entries()) {
      try {
        if (d.sourceError !== undefined || !isJsonObject(d.source)) throw new SearchError('PARSE_ERROR', d.sourceError ?? 'failed to parse, document is empty');
        const given = docId(d, d.source);
        // here, not only when the store writes the key: there it failed the whole request after
        // earlier runs were written, and the good documents of this run with it
        if (given !== undefined) checkDocId(given);
        const { row, colNos } = docRow(table, given, entriesOf(d.source));
        const id = given ?? (await ctx.ids.take(1))[0]!;
        const prepared = table.prepare([row], [id], colNos);
        if (!replace && (seen.has(id) || table.index.has(id))) throw new SearchError('DUPLICATE_ID', `duplicate id '${id}'`);
        seen.add(id);
        ok.push({ i, id, doc: prepared });
        items[i]!.id = BigInt.asUintN(64, id).toString();
      } catch (e) {
        fail(i, (e as Error).message);
      }
    }
    if (!ok.length) return;
    await table.write(ok.map((x) => x.id), ok.map((x) => x.doc.docs[0]!), ok.map((x) => x.doc.inputs[0]!), replace);
    for (const x of ok) items[x.i]!.result = 'created';
  });
  return items;
}

/** The `/update` or `/delete` body naming one document: a numeric `_id` as a number. */
function targetBody(d: EsBulkDoc): JsonObject {
  const body: JsonObject = { table: d.table };
  if (d.id !== undefined) body.id = /^\d+$/.test(d.id.toString()) ? new LosslessNumber(d.id.toString()) : d.id.toString();
  return body;
}

/** One `update` (source `{"doc": {...}}`) or `delete` document. */
async function modifyOne(ctx: WriteContext, d: EsBulkDoc): Promise<EsBulkItem> {
  const item: EsBulkItem = { action: d.action, table: d.table, id: d.id === undefined ? '' : String(d.id) };
  try {
    guard(ctx, d.table);
    if (d.action === 'delete') {
      await execJsonDelete(ctx, targetBody(d));
      item.result = 'deleted';
      return item;
    }
    if (d.sourceError !== undefined || !isJsonObject(d.source)) throw new SearchError('PARSE_ERROR', d.sourceError ?? 'failed to parse, document is empty');
    const r = await execJsonUpdate(ctx, { ...targetBody(d), doc: d.source.doc ?? null });
    if (r.affected) item.result = 'updated';
    else item.error = { type: 'document_missing_exception', reason: `[_doc][${item.id}]: document missing` };
  } catch (e) {
    item.error = { type: MAPPER_ERROR, reason: (e as Error).message };
  }
  return item;
}

/** Runs the documents; `ok` is false when any document failed. */
export async function execEsBulk(ctx: WriteContext, docs: EsBulkDoc[]): Promise<{ items: EsBulkItem[]; ok: boolean }> {
  const items: EsBulkItem[] = [];
  for (let i = 0; i < docs.length;) {
    const first = docs[i]!;
    let end = i + 1;
    // Updates run one by one; other actions chain while the table and action stay the same.
    if (first.action !== 'update') {
      while (end < docs.length && docs[end]!.table === first.table && docs[end]!.action === first.action) end++;
    }
    const run = docs.slice(i, end);
    if (first.action === 'index' || first.action === 'create') items.push(...(await writeRun(ctx, run, first.action === 'index')));
    else if (first.action === 'update' || first.action === 'delete') for (const d of run) items.push(await modifyOne(ctx, d));
    else items.push(...run.map((d) => ({ action: d.action, table: d.table, id: '', error: { type: MAPPER_ERROR, reason: `unknown action: ${d.action}` } })));
    i = end;
  }
  return { items, ok: items.every((it) => !it.error) };
}
