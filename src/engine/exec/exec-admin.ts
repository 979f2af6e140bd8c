/**
 * Administration statements: ALTER TABLE ... ADD/DROP COLUMN and settings, OPTIMIZE TABLE, FLUSH.
 * A column change rewrites the table under its mutex: schema, documents, then a fresh index built
 * from the documents; the checkpoint is emptied first, so a restart at any point rebuilds from the
 * store of record instead of loading segments of the old schema.
 */
import { copySettingFiles, materialize } from '../table-files.js';
import type { AlterTableStatement, FlushStatement, OptimizeStatement } from '../../sql/ast.js';
import type { DocInput } from '../../index/types.js';
import type { Column, TableSchema } from '../../schema/types.js';
import { createTextPipeline } from '../../text/text-pipeline.js';
import { SearchError } from '../../util/errors.js';
import type { Catalog } from '../catalog.js';
import { defaultAttr } from '../values/coerce.js';
import { settingNotAllowed, TABLE_SETTINGS } from './exec-ddl.js';
import { checkOptimizeCutoff, createIndex, idleCutoffOf } from '../index-factory.js';
import { ok, type OkResult } from '../result.js';
import type { StoredDoc, WriteOp } from '../durability/table-store.js';
import { indexSchemaOf, type Table } from '../table.js';
import { normalizeIntSettings } from '../int-settings.js';

/** Documents per index batch when a table is re-indexed after a column change. */
const REINDEX_BATCH = 20_000;

function alterError(table: string, message: string): SearchError {
  return new SearchError('QUERY_ERROR', `table ${table}: ${message}`);
}

/** Re-indexes every stored document into a fresh index of the table's (new) schema. */
function reindex(catalog: Catalog, table: Table): void {
  const old = table.index;
  table.index = createIndex(indexSchemaOf(table.schema), table.schema.settings, catalog.autoOptimize, catalog.defaultCutoff);
  let batch: DocInput[] = [];
  for (const [docId, doc] of catalog.store.docs(table.name)) {
    batch.push(table.docInput(docId, doc as StoredDoc));
    if (batch.length >= REINDEX_BATCH) { table.index.addBatch(batch); batch = []; }
  }
  if (batch.length) table.index.addBatch(batch);
  old.truncate(); // frees the old segments in the core
}

/** Applies a new schema: documents reshaped by `reshape`, then the index rebuilt. Caller holds the mutex. */
async function changeColumns(catalog: Catalog, table: Table, schema: TableSchema, reshape: (doc: StoredDoc) => StoredDoc): Promise<void> {
  const store = catalog.store;
  await store.saveCheckpoint(table.name, [], store.lastSeq(table.name));
  await store.alterTable(schema);
  const ops: WriteOp[] = [];
  for (const [docId, doc] of store.docs(table.name)) ops.push({ op: 'put', docId, doc: reshape(doc as StoredDoc) });
  if (ops.length) await store.write(table.name, ops);
  table.schema = schema;
  reindex(catalog, table);
}

function toColumn(table: string, def: Extract<AlterTableStatement['action'], { kind: 'add_column' }>['column']): Column {
  if (def.type === 'float_vector') throw alterError(table, `column '${def.name}': float_vector is not supported`);
  const col: Column = { name: def.name.toLowerCase(), type: def.type, indexed: def.indexed, stored: def.stored };
  if (def.bits) col.bits = def.bits;
  return col;
}

async function addColumn(catalog: Catalog, table: Table, col: Column): Promise<void> {
  if (col.name === 'id') throw alterError(table.name, "attribute '@id' is internal");
  const existing = table.column(col.name);
  if (existing) {
    throw alterError(table.name, existing.type === 'text' ? `'${col.name}' field already in schema` : `'${col.name}' attribute already in schema`);
  }
  const schema = { ...table.schema, columns: [...table.schema.columns, col] };
  const fill = col.type === 'text' ? '' : defaultAttr(col);
  await changeColumns(catalog, table, schema, (doc) => ({ ...doc, [col.name]: fill }));
}

async function dropColumn(catalog: Catalog, table: Table, name: string): Promise<void> {
  const key = name.toLowerCase();
  if (key === 'id') throw alterError(table.name, `unable to remove built-in attribute '${name}'`);
  const col = table.column(key);
  if (!col) throw alterError(table.name, `attribute '${name}' does not exist`);
  const schema = { ...table.schema, columns: table.schema.columns.filter((c) => c !== col) };
  await changeColumns(catalog, table, schema, (doc) => {
    const { [col.name]: _dropped, ...rest } = doc;
    return rest;
  });
}

/** New text settings apply to documents written from now on, as in Manticore; optimize_cutoff at once. */
async function changeSettings(catalog: Catalog, table: Table, settings: Record<string, string>): Promise<void> {
  for (const [k, v] of Object.entries(settings)) {
    if (!TABLE_SETTINGS.has(k) || k === 'type') throw alterError(table.name, settingNotAllowed(k, v));
  }
  checkOptimizeCutoff(table.name, settings);
  const merged = { ...table.schema.settings, ...settings };
  // min_infix_len='x' is 0, which is no setting (int-settings.ts): an earlier value goes too
  const read = normalizeIntSettings(settings);
  for (const k of Object.keys(settings)) {
    if (k in read) merged[k] = read[k]!;
    else delete merged[k];
  }
  createTextPipeline(merged); // validates, reading the files where they are, before anything is stored
  // searchd's ALTER copies the files a setting now names into the table (CopyExternalFiles)
  const copied = copySettingFiles({ ...table.schema, settings: merged }, Object.keys(settings));
  const placed = materialize(copied, catalog.filesDir(table.name));
  const pipeline = createTextPipeline(placed.settings);
  await catalog.store.alterTable(copied);
  table.schema = placed;
  table.pipeline = pipeline;
  table.index.setIdleMergeCutoff(idleCutoffOf(merged, catalog.autoOptimize, catalog.defaultCutoff));
}

export async function execAlter(catalog: Catalog, st: AlterTableStatement): Promise<OkResult> {
  if (st.action.kind === 'rename') {
    await catalog.rename(st.table, st.action.to);
    return ok(0);
  }
  const table = catalog.get(st.table);
  if (!table) {
    const name = st.table.toLowerCase();
    if (st.action.kind === 'settings') {
      // searchd's refusal (HandleMysqlAlterIndexSettings), which Buddy takes over when the options name
      // local or agent (its ALTER of a distributed table) and answers for a table it does not find
      if (Object.keys(st.action.settings).some((k) => k === 'local' || k === 'agent')) throw new SearchError('QUERY_ERROR', `Table ${name} doesn't exist`);
      throw new SearchError('QUERY_ERROR', `table '${name}' is not found, or not real-time`);
    }
    throw alterError(name, 'unknown local table in ALTER request');
  }
  const action = st.action;
  await table.mutex.run(async () => {
    switch (action.kind) {
      case 'add_column': return addColumn(catalog, table, toColumn(table.name, action.column));
      case 'drop_column': return dropColumn(catalog, table, action.column);
      case 'settings': return changeSettings(catalog, table, action.settings);
      case 'reconfigure': throw new SearchError('UNSUPPORTED', 'ALTER RECONFIGURE is not supported in RT mode');
      // no secondary indexes to rebuild: every attribute filter reads the columns (README: column storage options)
      case 'rebuild_secondary': return;
      default: throw alterError(table.name, `ALTER ${action.kind.replace('_', ' ').toUpperCase()} is not supported`);
    }
  });
  return ok(0);
}

/** OPTIMIZE TABLE: merges every segment into one now (Manticore's sync=1 behaviour; OK either way). */
export async function execOptimize(catalog: Catalog, st: OptimizeStatement): Promise<OkResult> {
  const table = catalog.get(st.table);
  if (!table) throw new SearchError('UNKNOWN_TABLE', 'OPTIMIZE TABLE requires an existing RT, distributed, or shard table');
  await table.mutex.run(() => table.index.optimize());
  return ok(0);
}

/**
 * FLUSH RAMCHUNK / RTINDEX: every acknowledged write is already durable in the store of record, so
 * there is nothing to flush; the table must exist, as in Manticore. Other FLUSH targets are accepted.
 */
export function execFlush(catalog: Catalog, st: FlushStatement): OkResult {
  if ((st.target === 'ramchunk' || st.target === 'rtindex') && !catalog.get(st.table ?? '')) {
    throw new SearchError('UNKNOWN_TABLE', `FLUSH ${st.target.toUpperCase()} requires an existing RT table`);
  }
  return ok(0);
}
