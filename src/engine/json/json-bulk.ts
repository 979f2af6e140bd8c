/**
 * `/bulk`: NDJSON lines of insert/create/replace/index/update/delete, run as Manticore runs them
 * (src/searchdhttp.cpp, bulk handler): one transaction per run of lines on the same table, closed by
 * a change of table or an empty line, and answered with one `bulk` item per committed run. The
 * first bad line stops the request; its run is rolled back, earlier runs stay committed.
 *
 * Every line is validated when it is read (values, columns, queries, and for inserts duplicate ids
 * against the table and the run so far); the run is applied at commit, in line order, so a bad line
 * applies nothing of its run. Updates and deletes by query select their documents at commit.
 */
import { SearchError } from '../../util/errors.js';
import { missingWriteTable, type WriteContext } from '../exec/exec-write.js';
import { checkModify, execJsonDelete, execJsonUpdate } from './json-modify.js';
import { docObject, insertId } from './json-write.js';
import { BulkRows } from './bulk-row.js';
import { isJsonInt, isJsonObject, tableName, type JsonObject, type JsonValue } from './json-value.js';
import type { StoredDoc } from '../durability/table-store.js';
import type { Table } from '../table.js';
import { logError } from '../../util/server-log.js';
import { checkDocId } from '../../store/keys.js';

/** One NDJSON line as the protocol read it. */
export type BulkLine =
  | { kind: 'empty' }
  | { kind: 'json'; value: JsonValue }
  /** A line that is not JSON; `error` is Manticore's `unable to parse: ...` text. */
  | { kind: 'bad'; error: string };

/** Counts of one committed run; `lastId` is the last inserted or replaced id (0 if none). */
export interface BulkRunItem { kind: 'bulk'; table: string; lastId: bigint; created: number; deleted: number; updated: number }
/** The line that failed: its operation, table and error. */
export interface BulkErrorItem { kind: 'error'; op: string; table: string; message: string }

export interface BulkReply {
  items: (BulkRunItem | BulkErrorItem)[];
  currentLine: number;
  skippedLines: number;
  /** '' on success. */
  error: string;
  /** ok; parse: a line could not be read (HTTP 400); exec: a line or commit failed (HTTP 500). */
  outcome: 'ok' | 'parse' | 'exec';
  /**
   * What the connection's SHOW WARNINGS / SHOW META keep after the request: searchd runs each statement
   * line through its SQL writer, which starts the session's meta afresh (FreezeLastMeta) and leaves an
   * insert's warning in it; so `metaReset` once a statement line reached the writer, `warning` the last
   * such line's (an insert or replace whose JSON value was stored NULL).
   */
  metaReset?: boolean;
  warning?: string;
}

const BULK_OPS = ['insert', 'create', 'replace', 'index', 'update', 'delete'] as const;
type BulkOp = (typeof BULK_OPS)[number];

/** A validated write: its stored document; the index input is made for the whole batch at commit. */
type Pending =
  | { op: 'write'; replace: boolean; id: bigint; doc: StoredDoc }
  | { op: 'update' | 'delete'; body: JsonObject };

class Run {
  readonly pending: Pending[] = [];
  /** Ids written and deleted by this run so far, for duplicate checks before commit. */
  readonly #added = new Set<bigint>();
  readonly #removed = new Set<bigint>();
  readonly rows: BulkRows;
  constructor(readonly table: Table) {
    this.rows = new BulkRows(table);
  }

  exists(id: bigint): boolean {
    return this.#added.has(id) || ((this.#removed.size === 0 || !this.#removed.has(id)) && this.table.index.has(id));
  }
  wrote(id: bigint): void { this.#added.add(id); this.#removed.delete(id); }
  deleted(id: bigint): void { this.#removed.add(id); this.#added.delete(id); }
}

const parseError = (msg: string): SearchError => new SearchError('PARSE_ERROR', msg);

/** `{ "<op>": { table, ... } }` -> its operation and body (Manticore's sphParseJsonStatement texts). */
function statement(value: JsonValue): { op: BulkOp; body: JsonObject; table: string } {
  if (!isJsonObject(value)) throw parseError('no statement found');
  let op: string | undefined;
  for (const k of Object.keys(value)) { op = k; break; }
  if (op === undefined) throw parseError('no statement found');
  const body = value[op]!;
  if (!isJsonObject(body)) throw parseError(`statement ${op} should be an object`);
  if (!(BULK_OPS as readonly string[]).includes(op)) throw parseError(`unknown bulk operation: ${op}`);
  return { op: op as BulkOp, body, table: tableName(body) };
}

/**
 * Validates an insert/replace line into the run, checks in `/insert`'s order (doc, id, columns, values);
 * a generated id is taken before the values are checked. Synchronous unless an id is generated:
 * the lines of a body with ids run with no await between them.
 */
function addWrite(ctx: WriteContext, run: Run, body: JsonObject, replace: boolean): Promise<void> | undefined {
  const doc = docObject(body);
  const given = insertId(body);
  run.rows.read(doc);
  if (given !== undefined) {
    pushWrite(run, given, replace);
    return undefined;
  }
  return ctx.ids.take(1).then((ids) => pushWrite(run, ids[0]!, replace));
}

function pushWrite(run: Run, id: bigint, replace: boolean): void {
  // checked here, not only when the store writes the key: at commit the run's lines before it (a
  // delete, an update, an earlier batch) were already applied, and the reply said none were
  checkDocId(id);
  const doc = run.rows.stored();
  if (!replace && run.exists(id)) throw new SearchError('DUPLICATE_ID', `duplicate id '${id}'`);
  run.wrote(id);
  run.pending.push({ op: 'write', replace, id, doc });
}

/** Applies a run in line order; consecutive writes of one kind go to the table as one batch. */
async function commit(ctx: WriteContext, run: Run): Promise<BulkRunItem> {
  const item: BulkRunItem = { kind: 'bulk', table: run.table.name, lastId: 0n, created: 0, deleted: 0, updated: 0 };
  const table = run.table;
  for (let i = 0; i < run.pending.length;) {
    const p = run.pending[i]!;
    if (p.op === 'write') {
      const batch: Extract<Pending, { op: 'write' }>[] = [];
      while (i < run.pending.length && run.pending[i]!.op === 'write' && (run.pending[i] as typeof p).replace === p.replace) {
        batch.push(run.pending[i++] as typeof p);
      }
      const ids = batch.map((b) => b.id);
      // the batch's index input (tokenizing) in one call, as a many-row INSERT's
      const { docs, inputs } = table.prepareDocs(batch.map((b) => b.doc), ids);
      await table.mutex.run(async () => {
        // A replace of a live document deletes it first: Manticore counts that delete too.
        if (p.replace) item.deleted += new Set(ids.filter((id) => table.index.has(id))).size;
        await table.write(ids, docs, inputs, p.replace);
      });
      item.created += batch.length;
      item.lastId = ids[ids.length - 1]!;
      continue;
    }
    if (p.op === 'update') item.updated += (await execJsonUpdate(ctx, p.body)).affected;
    else item.deleted += (await execJsonDelete(ctx, p.body)).affected;
    i++;
  }
  return item;
}

function asSearchError(e: unknown): SearchError {
  if (e instanceof SearchError) return e;
  logError(`internal error in /bulk: ${e instanceof Error ? e.message : String(e)}`, e);
  return new SearchError('INTERNAL', e instanceof Error ? e.message : String(e));
}

/**
 * A run's table; `/bulk` never creates one. A missing one is named as Manticore's writer names it:
 * insert/replace go through sphHandleMysqlInsert ("table 'x' absent"), update/delete through
 * sphHandleMysqlUpdate/Delete ("unknown table 'x' in update request").
 */
function openTable(ctx: WriteContext, name: string, cluster: JsonValue | undefined, op: BulkOp): Table {
  ctx.guard?.(name, typeof cluster === 'string' ? cluster : undefined);
  const table = ctx.catalog.get(name);
  if (table) return table;
  if (op === 'update' || op === 'delete') throw missingWriteTable(name, op);
  throw new SearchError('UNKNOWN_TABLE', `table '${name}' absent`);
}

/** Reads one statement line into the open run; a promise only while a generated id is taken. */
function readLine(ctx: WriteContext, st: ReturnType<typeof statement>, run: Run): Promise<void> | undefined {
  if (typeof st.body.cluster === 'string') ctx.guard?.(st.table, st.body.cluster);
  if (st.op === 'update' || st.op === 'delete') {
    checkModify(ctx, run.table, st.body, st.op);
    run.pending.push({ op: st.op, body: st.body });
    if (st.op === 'delete' && isJsonInt(st.body.id)) run.deleted(BigInt(st.body.id.value));
    return undefined;
  }
  return addWrite(ctx, run, st.body, st.op === 'replace' || st.op === 'index');
}

/** Runs the lines of one `/bulk` request. Never throws for a user error: the reply carries it. */
export async function execJsonBulk(ctx: WriteContext, lines: BulkLine[]): Promise<BulkReply> {
  const items: BulkReply['items'] = [];
  let run: Run | undefined;
  let lastTxStart = 0;
  let line = 0;
  let metaReset = false;
  let warning: string | undefined;
  const finish = (outcome: BulkReply['outcome'], error = ''): BulkReply =>
    ({ items, currentLine: line, skippedLines: line - lastTxStart, error, outcome, metaReset, ...(warning === undefined ? {} : { warning }) });
  /** Adds the failed line's (or commit's) item; the reply then stops. */
  const fail = (op: string, table: string, e: unknown): BulkReply => {
    const err = asSearchError(e);
    items.push({ kind: 'error', op, table, message: err.message });
    return finish('exec', err.message);
  };
  /** Commits the open run (lines up to `through`); a failed commit gives the final reply. */
  const close = async (through: number): Promise<BulkReply | undefined> => {
    if (run) {
      try {
        items.push(await commit(ctx, run));
      } catch (e) {
        return fail('bulk', run.table.name, e);
      }
    }
    run = undefined;
    lastTxStart = through;
    return undefined;
  };
  for (const l of lines) {
    line++;
    if (l.kind === 'bad') return finish('parse', l.error);
    if (l.kind === 'empty') {
      const failed = run ? await close(line) : undefined;
      if (failed) return failed;
      continue;
    }
    let st: ReturnType<typeof statement>;
    try {
      st = statement(l.value);
    } catch (e) {
      return finish('parse', (e as Error).message);
    }
    const failed = run && run.table.name !== st.table ? await close(line - 1) : undefined;
    if (failed) return failed;
    metaReset = true;
    warning = undefined;
    try {
      run ??= new Run(openTable(ctx, st.table, st.body.cluster, st.op));
      const reading = readLine(ctx, st, run);
      if (reading) await reading;
    } catch (e) {
      return fail(st.op, st.table, e);
    }
    if (st.op !== 'update' && st.op !== 'delete') warning = run.rows.warning();
  }
  return (await close(line)) ?? finish('ok');
}
