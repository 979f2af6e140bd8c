/** INSERT, REPLACE, UPDATE and DELETE: each one durable transaction on one table. */
import type { Assignment, DeleteStatement, InsertStatement, SelectStatement, UpdateStatement } from '../sql/ast.js';
import type { AttrValue } from '../index/types.js';
import { SearchError } from '../util/errors.js';
import { inferSchema } from './auto-schema.js';
import type { Catalog } from './catalog.js';
import { attrValue } from './coerce.js';
import { buildRequest, type GlobalFlags } from './exec-select.js';
import type { IdGenerator } from './id-generator.js';
import type { Literal } from './literal.js';
import { ok, type OkResult } from './result.js';
import { orderedColumns } from './schema-text.js';
import { fromSql } from './sql-values.js';
import type { RowInput, Table } from './table.js';

export interface WriteContext {
  catalog: Catalog;
  ids: IdGenerator;
  autoSchema: boolean;
  flags: GlobalFlags;
}

async function tableForInsert(ctx: WriteContext, st: InsertStatement, rowsLit: Literal[][]): Promise<Table> {
  const existing = ctx.catalog.get(st.table);
  if (existing) return existing;
  const name = st.table.toLowerCase();
  if (!ctx.autoSchema || !st.columns) throw new SearchError('UNKNOWN_TABLE', `table '${name}' absent`);
  const schema = inferSchema(name, st.columns, rowsLit);
  try {
    return await ctx.catalog.create(schema);
  } catch (e) {
    // Another INSERT created it meanwhile: use that one.
    const t = ctx.catalog.get(name);
    if (t) return t;
    throw e;
  }
}

function idOf(l: Literal | undefined): bigint | undefined {
  if (!l || l.t === 'null') return undefined;
  if (l.t === 'int') return l.v === 0n ? undefined : l.v;
  if (l.t === 'string' && /^-?\d+$/.test(l.v.trim())) return BigInt(l.v.trim()) || undefined;
  throw new SearchError('BAD_VALUE', 'id must be an integer');
}

export async function execInsert(ctx: WriteContext, st: InsertStatement): Promise<OkResult> {
  const rowsLit = st.rows.map((r) => r.map(fromSql));
  const table = await tableForInsert(ctx, st, rowsLit);
  const names = st.columns ?? ['id', ...orderedColumns(table.schema).map((c) => c.name)];
  const colNos = new Map<string, number>();
  names.forEach((n, i) => {
    const key = n.toLowerCase();
    if (key !== 'id' && !table.column(key)) throw new SearchError('UNKNOWN_COLUMN', `unknown column: '${n}'`);
    colNos.set(key, i + 1);
  });
  const inputs: RowInput[] = rowsLit.map((r) => {
    if (r.length !== names.length) {
      throw new SearchError('PARSE_ERROR', `column count does not match value count (expected ${names.length}, got ${r.length})`);
    }
    const values = new Map<string, Literal>();
    names.forEach((n, i) => values.set(n.toLowerCase(), r[i]));
    return { id: idOf(values.get('id')), values };
  });
  return table.mutex.run(async () => {
    const missing = inputs.filter((r) => r.id === undefined).length;
    const fresh = missing ? await ctx.ids.take(missing) : [];
    let k = 0;
    const ids = inputs.map((r) => r.id ?? fresh[k++]);
    const { docs, inputs: docInputs } = table.prepare(inputs, ids, colNos);
    const n = await table.write(ids, docs, docInputs, st.replace);
    return ok(n, { lastInsertId: ids[ids.length - 1] });
  });
}

/** A WHERE of UPDATE/DELETE as a SELECT over every match. */
function whereAsSelect(table: Table, st: UpdateStatement | DeleteStatement): SelectStatement {
  const all = Math.max(1, table.index.count());
  return {
    kind: 'select', text: st.text, items: [], tables: [table.name], match: st.match, where: st.where,
    options: [...st.options, { name: 'max_matches', value: { kind: 'int', value: all, text: String(all) } }],
    limit: all, offset: 0,
  };
}

function matchingIds(ctx: WriteContext, table: Table, st: UpdateStatement | DeleteStatement): bigint[] {
  const req = buildRequest(table, whereAsSelect(table, st), ctx.flags);
  if (req === 'none') return [];
  return table.search(req).hits.map((h) => h.docId);
}

function existingTable(ctx: WriteContext, name: string): Table {
  const t = ctx.catalog.get(name);
  if (!t) throw new SearchError('UNKNOWN_TABLE', `unknown local table(s) '${name.toLowerCase()}' in search request`);
  return t;
}

export async function execDelete(ctx: WriteContext, st: DeleteStatement): Promise<OkResult> {
  const table = existingTable(ctx, st.table);
  return table.mutex.run(async () => ok(await table.deleteIds(matchingIds(ctx, table, st))));
}

/** Sets a value at a JSON path inside a document's JSON text (`meta.tags[0]=100`). */
function setJsonPath(current: AttrValue, a: Assignment): string {
  const root: unknown = typeof current === 'string' ? JSON.parse(current) : {};
  let cur = root as Record<string | number, unknown>;
  a.path.slice(0, -1).forEach((step) => {
    if (cur[step] === null || typeof cur[step] !== 'object') cur[step] = {};
    cur = cur[step] as Record<string | number, unknown>;
  });
  const l = fromSql(a.value);
  cur[a.path[a.path.length - 1]] = l.t === 'int' ? Number(l.v) : l.t === 'float' ? l.v : l.t === 'string' ? l.v : null;
  return JSON.stringify(root);
}

export async function execUpdate(ctx: WriteContext, st: UpdateStatement): Promise<OkResult> {
  const table = existingTable(ctx, st.table);
  const cols = st.assignments.map((a) => {
    const col = table.column(a.column);
    if (!col) throw new SearchError('UNKNOWN_COLUMN', `table ${table.name}: attribute '${a.column}' not found`);
    // A `string attribute indexed` is an attribute too: Manticore updates it (src/sphinx.cpp rejects fields only).
    if (col.type === 'text') {
      throw new SearchError('BAD_VALUE', `table ${table.name}: attribute '${a.column}' can not be updated (full-text field)`);
    }
    return col;
  });
  const plain = new Map<string, AttrValue>();
  st.assignments.forEach((a, i) => { if (!a.path.length) plain.set(cols[i].name, attrValue(fromSql(a.value), cols[i])); });
  const pathed = st.assignments.map((a, i) => [a, cols[i]] as const).filter(([a]) => a.path.length > 0);
  return table.mutex.run(async () => {
    const ids = matchingIds(ctx, table, st);
    if (!pathed.length) return ok(await table.updateIds(ids, plain));
    let n = 0;
    const names = table.index.schema.attrs.map((x) => x.name);
    for (const id of ids) {
      const values = new Map(plain);
      const current = table.index.getAttrs(id) ?? [];
      for (const [a, col] of pathed) values.set(col.name, setJsonPath(values.get(col.name) ?? current[names.indexOf(col.name)], a));
      n += await table.updateIds([id], values);
    }
    return ok(n);
  });
}
