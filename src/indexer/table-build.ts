/**
 * Builds one plain table from its sources: rows stream into a staging table (`NAME__indexing`) in
 * batches; when every source is read the staging table replaces the live one in one step (ATTACH
 * TABLE ... WITH TRUNCATE), so a server answering meanwhile serves the old table until then. A
 * failed build drops the staging table and leaves the live one as it was.
 */
import { lastValue, type ConfigSection } from '../server/config-parser.js';
import { showCreateTable } from '../engine/schema-text.js';
import { replacedTidOf } from '../engine/exec/exec-ddl.js';
import { BatchLoader, rowSender, type BadLine, type LineDoc } from '../import/batch-loader.js';
import { rowLiterals, type ColumnKind } from '../import/doc-builder.js';
import type { Literal } from '../engine/values/literal.js';
import type { Progress } from '../import/progress.js';
import type { ImportTarget } from '../import/target.js';
import { MysqlSource } from './mysql-source.js';
import { PipeSource } from './pipe-source.js';
import { kindOf, tableSchemaFor, type SourceColumn } from './source-schema.js';
import type { RowSource } from './source.js';
import { XmlpipeSource } from './xmlpipe-source.js';

export interface BuildOptions {
  batch: number; skipErrors: boolean; log: (line: string) => void;
  /** True once Ctrl-C was pressed: the build stops at its next rows and drops its staging table. */
  interrupted?: () => boolean;
}

/** A build stopped by Ctrl-C, with the rows it had read; the live table is unchanged. */
export class BuildInterrupted extends Error {
  constructor(readonly table: string, readonly rows: number) {
    super(`interrupted after ${rows.toLocaleString('en-US')} rows; table ${table} is unchanged`);
  }
}
export interface BuildResult { docs: number; skipped: number; killed: number }

class SourceInterrupted extends Error {}

/**
 * A source's events until Ctrl-C, which is noticed while the source waits too (a slow SQL query, a
 * command between rows): the build stops at once, not at the source's next rows. The source is then
 * closed without waiting for its step in progress (the command gets Ctrl-C from the terminal as well).
 * One 50 ms interval for the whole source, waking whichever wait is current: a timer armed and cleared
 * per event (and a promise and a race per event) cost more than the events of a fast pipe source.
 */
async function* interruptible<T>(events: AsyncGenerator<T>, interrupted?: () => boolean): AsyncGenerator<T> {
  if (!interrupted) return yield* events;
  let close = true;
  let wake: ((r: 'interrupted') => void) | undefined;
  const timer = setInterval(() => { if (wake && interrupted()) wake('interrupted'); }, 50);
  try {
    for (;;) {
      const next = interrupted() ? undefined : events.next();
      const r = next && await new Promise<IteratorResult<T> | 'interrupted'>((res, rej) => {
        wake = res;
        next.then(res, rej);
      });
      wake = undefined;
      if (!r || r === 'interrupted') {
        close = false;
        events.return(undefined).catch(() => {});
        throw new SourceInterrupted();
      }
      if (r.done) return;
      yield r.value;
    }
  } finally {
    clearInterval(timer);
    if (close) await events.return(undefined);
  }
}

/** The staging table a build writes before the swap. */
export const stagingName = (table: string): string => `${table}__indexing`;

export function openSource(name: string, section: ConfigSection): RowSource & { afterBuild?(): Promise<void> } {
  const type = (lastValue(section, 'type') ?? '').toLowerCase();
  switch (type) {
    case 'tsvpipe': case 'csvpipe': return new PipeSource(section, type);
    case 'xmlpipe2': return new XmlpipeSource(section);
    case 'mysql': return new MysqlSource(section);
    default: throw new Error(`source '${name}': type '${type}' is not supported (tsvpipe, csvpipe, xmlpipe2, mysql are)`);
  }
}

const sameColumns = (a: SourceColumn[], b: SourceColumn[]) =>
  a.length === b.length && a.every((c, i) => c.name === b[i]!.name && c.type === b[i]!.type);

class StopBuild extends Error {}

export async function buildTable(
  target: ImportTarget, table: string, tableSection: ConfigSection, sources: [string, ConfigSection][],
  progress: Progress, opts: BuildOptions,
): Promise<BuildResult> {
  const staging = stagingName(table);
  await target.sql(`DROP TABLE IF EXISTS ${staging}`);
  // writes to the live table while it is rebuilt are replaced by the swap: told, not silently lost
  const tidBefore = await target.tid(table);
  let columns: SourceColumn[] | undefined;
  let header: string[] = [];
  let kinds = new Map<string, ColumnKind>();
  const killlist: string[] = [];
  let current = '';
  const loader = new BatchLoader(opts.skipErrors, (b: BadLine) => {
    progress.done();
    opts.log(`quarry indexer: table ${table}: source ${current}: row at line ${b.line}: ${b.error}${opts.skipErrors ? ' (skipped)' : ''}`);
  });
  let pending: LineDoc<Literal[]>[] = [];
  const send = async () => {
    const ok = await loader.send(pending, rowSender(target, staging, header, false));
    pending = [];
    if (!ok) throw new StopBuild();
  };
  let bytesBefore = 0;
  try {
    for (const [name, section] of sources) {
      current = name;
      const source = openSource(name, section);
      for await (const ev of interruptible(source.events(), opts.interrupted)) {
        if (ev.kind === 'schema') {
          if (columns && !sameColumns(columns, ev.columns)) throw new Error(`source '${name}' has other columns than the table's first source`);
          if (!columns) {
            columns = ev.columns;
            await target.sql(showCreateTable(tableSchemaFor(staging, columns, tableSection), false, 'file'));
            header = ['id', ...columns.map((c) => c.name)];
            kinds = new Map(columns.map((c) => [c.name.toLowerCase(), kindOf(c.type)]));
          }
        } else if (ev.kind === 'bad') {
          if (!loader.reject({ line: ev.line, error: ev.error })) throw new StopBuild();
        } else if (ev.kind === 'killlist') {
          killlist.push(...ev.ids);
        } else {
          for (const r of ev.rows) {
            const id = r.values[0] ?? '';
            const built = /^0*[1-9]\d*$/.test(id) ? rowLiterals(header, r.values, kinds) : { ok: false as const, error: `document id '${id}' is not a positive integer` };
            if (built.ok) pending.push({ line: r.line, doc: built.row });
            else if (!loader.reject({ line: r.line, error: built.error })) { await send(); throw new StopBuild(); }
            if (pending.length >= opts.batch) await send();
          }
        }
        // a share of the whole only when the table has one source (the others' sizes are unknown)
        progress.update({ docs: loader.imported + pending.length, bytes: bytesBefore + source.bytesRead(), share: sources.length === 1 ? source.done?.() : undefined });
      }
      await send();
      bytesBefore += source.bytesRead();
      await source.afterBuild?.();
    }
    if (!columns) throw new Error('no source gave a schema');
    // the tid the live table had when the swap replaced it, read by the swap itself: no write lands unseen
    const tidAtSwap = await swapIn(target, table, staging);
    if (tidBefore !== undefined && tidAtSwap !== tidBefore) {
      opts.log(`quarry indexer: warning: table ${table} was written to while it was rebuilt (tid ${tidBefore} -> ${tidAtSwap}); `
        + 'the rebuilt table replaced those writes: a table the indexer builds is rebuilt from its sources');
    }
  } catch (e) {
    progress.done();
    await target.sql(`DROP TABLE IF EXISTS ${staging}`).catch(() => {});
    if (e instanceof SourceInterrupted) throw new BuildInterrupted(table, loader.imported + pending.length);
    if (e instanceof StopBuild) throw new Error(`stopped at the bad row above; table ${table} is unchanged (use --skip-errors to go on past bad rows)`);
    throw e;
  }
  progress.update({ docs: loader.imported, bytes: bytesBefore });
  progress.done();
  const killed = await applyKilllist(target, tableSection, killlist, opts.log);
  return { docs: loader.imported, skipped: loader.bad.length, killed };
}

/**
 * The staging table replaces `table` (created empty first when it does not exist yet); resolves with
 * the tid `table` had when replaced (ATTACH's warning says it, read under the same lock as the swap).
 */
async function swapIn(target: ImportTarget, table: string, staging: string): Promise<string | undefined> {
  if (!(await target.describe(table))) await target.sql(`CREATE TABLE ${table} LIKE ${staging}`);
  return replacedTidOf(await target.sql(`ATTACH TABLE ${staging} TO TABLE ${table} WITH TRUNCATE`));
}

/** xmlpipe2 kill-list ids: deleted from the tables killlist_target names (`main:kl` or `main`). */
async function applyKilllist(target: ImportTarget, section: ConfigSection, ids: string[], log: (l: string) => void): Promise<number> {
  if (ids.length === 0) return 0;
  const targets = (lastValue(section, 'killlist_target') ?? '').split(',').map((t) => t.split(':')[0]!.trim()).filter(Boolean);
  if (targets.length === 0) {
    log(`quarry indexer: warning: a kill-list of ${ids.length} ids but no killlist_target; it removes nothing`);
    return 0;
  }
  const valid = ids.filter((id) => /^\d+$/.test(id));
  for (const t of targets) {
    for (let i = 0; i < valid.length; i += 1000) await target.sql(`DELETE FROM ${t} WHERE id IN (${valid.slice(i, i + 1000).join(',')})`);
  }
  return valid.length;
}
