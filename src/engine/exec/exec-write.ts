/** INSERT, REPLACE, UPDATE and DELETE: each one durable transaction on one table. */
import type { Assignment, DeleteStatement, InsertStatement, UpdateStatement } from '../../sql/ast.js';
import type { AttrValue } from '../../index/types.js';
import { SearchError } from '../../util/errors.js';
import type { Catalog } from '../catalog.js';
import { attrValue } from '../values/coerce.js';
import { buildRequest, type GlobalFlags } from './exec-select.js';
import type { IdSource } from '../id-generator.js';
import { ok, type OkResult } from '../result.js';
import { fromSql } from '../values/sql-values.js';
import { parseStoredJson, storedInteger, storedJsonText } from '../json/stored-json.js';
import type { Table } from '../table.js';
import { assignIds, rowInputs, tableForInsert, whereAsSelect } from '../insert-rows.js';
import { commitGrouped } from '../transaction/transaction-group.js';
import { mapPacked } from '../../util/packed-map.js';
import { lockedForChange, lockedForInsert } from './table-locks.js';
import { insertWarning } from './insert-warnings.js';

export interface WriteContext {
  catalog: Catalog;
  ids: IdSource;
  autoSchema: boolean;
  flags: GlobalFlags;
  /** Refuses a bulk write that would bypass replication (replication-hook.ts guardLocal). */
  guard?: (table: string, cluster?: string, endpoint?: '/bulk' | '/_bulk') => void;
}

export async function execInsert(ctx: WriteContext, st: InsertStatement): Promise<OkResult> {
  const rowsLit = st.rows.map((r) => r.map(fromSql));
  // an existing table and rows with their ids (a client's usual INSERT) take no await before the commit
  const table = ctx.catalog.get(st.table) ?? await tableForInsert(ctx, st.table, st.columns, rowsLit);
  // searchd checks LOCK TABLES' read lock before the values (table-locks.ts)
  if (table.readLocks) throw lockedForInsert(table.name);
  const { inputs, colNos } = rowInputs(table, st.columns, rowsLit);
  const ids = inputs.every((r) => r.id !== undefined) ? mapPacked(inputs, (r) => r.id!) : await assignIds(ctx.ids, inputs);
  // concurrent statements share one durable commit (../transaction/transaction-group.ts)
  const n = await commitGrouped(table, () => ({ ids, ...table.prepare(inputs, ids, colNos), replace: st.replace }));
  const warning = insertWarning(table, inputs);
  if (warning) return ok(n, { lastInsertId: ids[ids.length - 1], insertedIds: ids, warning });
  return ok(n, { lastInsertId: ids[ids.length - 1], insertedIds: ids });
}

function matchingIds(ctx: WriteContext, table: Table, st: UpdateStatement | DeleteStatement): bigint[] {
  const req = buildRequest(table, whereAsSelect(table, st), ctx.flags);
  if (req === 'none') return [];
  return table.search(req).hits.map((h) => h.docId);
}

/**
 * UPDATE/DELETE's table. A missing one is named as Manticore's sphHandleMysqlUpdate/Delete name it (its check
 * ahead of the search, src/searchd.cpp), which also serve JSON /update, /delete and /bulk's update/delete lines.
 */
export function missingWriteTable(name: string, verb: 'update' | 'delete'): SearchError {
  return new SearchError('UNKNOWN_TABLE', `unknown table '${name.toLowerCase()}' in ${verb} request`);
}

export function existingTable(ctx: WriteContext, name: string, verb: 'update' | 'delete'): Table {
  const t = ctx.catalog.get(name);
  if (!t) throw missingWriteTable(name, verb);
  return t;
}

export async function execDelete(ctx: WriteContext, st: DeleteStatement): Promise<OkResult> {
  const table = existingTable(ctx, st.table, 'delete');
  return table.mutex.run(async () => ok(await table.deleteIds(matchingIds(ctx, table, st))));
}

/**
 * Sets a value at a JSON path inside a document's JSON text (`meta.tags[0]=100`). Read and written through
 * stored-json.ts, as searchd keeps JSON integers as int64: one past 2^53 (set, or elsewhere in the document)
 * stays exact instead of going through a double.
 */
function setJsonPath(current: AttrValue, a: Assignment): string {
  const parsed: unknown = typeof current === 'string' ? parseStoredJson(current) : {};
  // a scalar document (`j = 5`) is replaced by an object, as a scalar on the path is below
  const root = parsed !== null && typeof parsed === 'object' ? parsed : {};
  let cur = root as Record<string | number, unknown>;
  a.path.slice(0, -1).forEach((step) => {
    if (cur[step] === null || typeof cur[step] !== 'object') cur[step] = {};
    cur = cur[step] as Record<string | number, unknown>;
  });
  const l = fromSql(a.value);
  cur[a.path[a.path.length - 1]] = l.t === 'int' ? storedInteger(l.v) : l.t === 'float' ? l.v : l.t === 'string' ? l.v : null;
  return storedJsonText(root);
}

export async function execUpdate(ctx: WriteContext, st: UpdateStatement): Promise<OkResult> {
  const table = existingTable(ctx, st.table, 'update');
  // searchd (searchd.cpp's update of one table) refuses a read-locked table before the update looks at
  // its columns: `table t: table is locked`, not the full-text field's or unknown attribute's error
  if (table.readLocks) throw lockedForChange(table.name);
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
    // each document gets its own JSON, all in one write (all or nothing, one sequence for replication)
    const names = table.index.schema.attrs.map((x) => x.name);
    const updates = ids.map((id): [bigint, Map<string, AttrValue>] => {
      const values = new Map(plain);
      const current = table.index.getAttrs(id) ?? [];
      for (const [a, col] of pathed) values.set(col.name, setJsonPath(values.get(col.name) ?? current[names.indexOf(col.name)], a));
      return [id, values];
    });
    return ok(await table.updateEach(updates));
  });
}
