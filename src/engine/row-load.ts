/**
 * The direct load path of `quarry import --data`: a batch of rows (column names once, then one literal
 * per column and row) becomes one write of the table, without a statement or a `/bulk` line per row.
 * Values meet the same coercion as INSERT (Table.storedDocOf), ids are checked once under the table's
 * mutex, and the write is Table.write's: the segment built first, then one store transaction, then
 * the segment made visible. A rejected row writes nothing of the batch and says which row it was.
 */
import type { Column } from '../schema/types.js';
import { asSearchError, SearchError } from '../util/errors.js';
import type { Catalog } from './catalog.js';
import type { IdSource } from './id-generator.js';
import { idOf } from './insert-rows.js';
import { buildJobOf, buildPrimer, buildRunner } from './background/build-job.js';
import type { Literal } from './values/literal.js';
import type { StoredDoc } from './durability/table-store.js';
import type { Table } from './table.js';
import { phase } from '../util/phase-trace.js';

/**
 * One value of a row to load: a literal, or a bare string, which is a string literal ({ t: 'string' }):
 * a bulk load's text values come as they were read, without an object each (import's doc-builder.ts).
 */
export type RowCell = Literal | string;

/** Rows to load: `columns` names each row's values in order (`id` among them or not). */
export interface RowBatch {
  columns: string[];
  rows: RowCell[][];
}

/**
 * The literal of a cell; a bare string's is one object reused row after row: what reads it
 * (Table.storedDocOf, idOf) takes its value and keeps nothing of the object.
 */
const stringCell: { t: 'string'; v: string } = { t: 'string', v: '' };
function cellLiteral(c: RowCell | undefined): Literal | undefined {
  if (typeof c !== 'string') return c;
  stringCell.v = c;
  return stringCell;
}

/** What a load did: every row written, or the (0-based) row that stopped it and why (nothing written). */
export type RowLoadOutcome = { ok: true; written: number } | { ok: false; failedIndex: number; error: string };

interface Layout {
  /** Position of `id` in a row, or -1. */
  idAt: number;
  /** Position in a row of each schema column (-1: not given). */
  at: Int32Array;
}

/** Where each schema column sits in the batch's rows; an unknown column name throws. */
function layoutOf(table: Table, columns: string[]): Layout {
  const at = new Int32Array(table.schema.columns.length).fill(-1);
  const index = new Map(table.schema.columns.map((c, i) => [c.name.toLowerCase(), i]));
  let idAt = -1;
  columns.forEach((name, pos) => {
    const key = name.toLowerCase();
    if (key === 'id') { idAt = pos; return; }
    const i = index.get(key);
    if (i === undefined) throw new SearchError('UNKNOWN_COLUMN', `unknown column: '${name}'`);
    at[i] = pos;
  });
  return { idAt, at };
}

const fail = (failedIndex: number, e: unknown): RowLoadOutcome => ({ ok: false, failedIndex, error: asSearchError(e).message });

/** A batch checked, its ids given and its segment on its way: commit() writes it (nothing is written before). */
export interface PreparedRows {
  commit(): Promise<RowLoadOutcome>;
  /**
   * Whether commit() would write at once: the segment is built (on the build thread: it came back),
   * or there is nothing to wait for. A bulk load skips a checkpoint pass that would sit in its way.
   */
  ready(): boolean;
}

const failed = (outcome: RowLoadOutcome): PreparedRows => ({ commit: async () => outcome, ready: () => true });

/**
 * Loads `batch` into table `name` as one write (INSERT, or REPLACE with `replace`). Ids the rows
 * leave out (absent, null or 0) are generated. Never rejects for a bad row: the outcome names it.
 */
export async function loadRows(
  ctx: { catalog: Catalog; ids: IdSource }, name: string, batch: RowBatch, replace: boolean,
): Promise<RowLoadOutcome> {
  return (await prepareRows(ctx, name, batch, replace)).commit();
}

/**
 * Hands the full-text values of rows still being read (`rows`, values under `columns`) to the build
 * thread, which tokenizes them meanwhile: a bulk load's first batch then builds on words already
 * stemmed and numbered. Changes nothing loaded; does nothing without a build thread or such a table.
 */
export function primeRows(ctx: { catalog: Catalog }, name: string, columns: string[], rows: string[][]): void {
  const primer = buildPrimer();
  const table = primer && ctx.catalog.get(name);
  if (!primer || !table || !table.buildsFromStored) return;
  const lower = columns.map((c) => c.toLowerCase());
  const at = table.index.schema.fields.map((f) => lower.indexOf(f.toLowerCase()));
  const texts: string[] = [];
  const lengths = new Uint32Array(rows.length * at.length);
  let k = 0;
  for (const row of rows) {
    for (const i of at) {
      const v = i >= 0 ? row[i] ?? '' : '';
      texts.push(v);
      lengths[k++] = v.length;
    }
  }
  primer({ settings: table.schema.settings, text: texts.join(''), lengths });
}

/**
 * The first half of loadRows: values coerced, ids given, the segment built (on the build thread when
 * one is installed: build-job.ts). A bulk load prepares its next batch while the one before is being
 * written; commit() checks the ids against the table as it is then and writes.
 */
export async function prepareRows(
  ctx: { catalog: Catalog; ids: IdSource }, name: string, batch: RowBatch, replace: boolean,
): Promise<PreparedRows> {
  phase('prepare');
  const table = ctx.catalog.get(name);
  if (!table) return failed(fail(0, new SearchError('UNKNOWN_TABLE', `table '${name}' absent`))); // as sphHandleMysqlInsert
  let layout: Layout;
  try {
    layout = layoutOf(table, batch.columns);
  } catch (e) {
    return failed(fail(0, e));
  }
  const n = batch.rows.length;
  const given: (bigint | undefined)[] = new Array(n);
  const docs: StoredDoc[] = new Array(n);
  const colNo = (col: Column) => layout.at[table.schema.columns.indexOf(col)] + 1;
  // one getter over the row being read, not a closure per row (25k a batch, each kept by the young
  // generation until the next scavenge)
  let row: RowCell[] = [];
  const valueAt = (_: Column, i: number) => (layout.at[i] >= 0 ? cellLiteral(row[layout.at[i]]) : undefined);
  let missing = 0;
  for (let r = 0; r < n; r++) {
    row = batch.rows[r];
    try {
      const id = layout.idAt >= 0 ? idOf(cellLiteral(row[layout.idAt])) : undefined; // refuses a negative id
      given[r] = id;
      if (id === undefined) missing++;
      docs[r] = table.storedDocOf(valueAt, 1, colNo);
    } catch (e) {
      return failed(fail(r, e));
    }
  }
  stringCell.v = ''; // not the last row's text (a slice keeping its 1 MiB input chunk) until the next batch
  const fresh = missing ? await ctx.ids.take(missing) : [];
  let k = 0;
  const ids = given.map((id) => id ?? fresh[k++]!);
  const inline = () => {
    const { inputs } = table.prepareDocs(docs, ids);
    return table.mutex.run(async () => {
      if (!replace) {
        const dup = table.duplicateAt(ids);
        if (dup >= 0) return fail(dup, new SearchError('DUPLICATE_ID', `duplicate id '${ids[dup]}'`));
      }
      return { ok: true as const, written: await table.write(ids, docs, inputs, replace, true) };
    });
  };
  const runner = buildRunner();
  if (!runner || replace || !table.buildsFromStored) return { commit: inline, ready: () => false };
  phase('job sent');
  const building = runner(buildJobOf(table.index.schema, table.schema.settings, ids, docs));
  let settled = false;
  // a batch never committed (the one before stopped the load) drops its build
  building.then(() => { settled = true; }, () => { settled = true; });
  return {
    ready: () => settled,
    // the rows' store commit queued at once, their segment applied when the build thread sends it
    // (Table.writeBuilding; a failed build builds here)
    commit: () => table.mutex.run(async () => {
      const dup = table.duplicateAt(ids);
      if (dup >= 0) return fail(dup, new SearchError('DUPLICATE_ID', `duplicate id '${ids[dup]}'`));
      return { ok: true as const, written: await table.writeBuilding(ids, docs, building) };
    }),
  };
}
