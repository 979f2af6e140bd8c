/** Runs parsed statements against the catalog: the one dispatch from statement kind to its executor. */
import { fuzzySelect } from '../suggest/fuzzy-search.js';
import type { NamedValue, SelectStatement, ShowWhat, Statement } from '../../sql/ast.js';
import { checkOptions, type OptionStatement } from '../statement-options.js';
import type { GlobalFlags } from './exec-select.js';
import { SearchError } from '../../util/errors.js';
import type { Catalog } from '../catalog.js';
import { execAlter, execFlush, execOptimize } from './exec-admin.js';
import { execBackup } from './exec-backup.js';
import { execCall } from './exec-call.js';
import { execInformationSchema } from './exec-dump-tools.js';
import { checkLockedWrite, lockTables, unlockTables } from './table-locks.js';
import { execAttach, execCreate, execCreateLike, execDescribe, execDrop, execTruncate, type ConfigTable } from './exec-ddl.js';
import { execSelect } from './exec-select.js';
import { execFacets } from '../group/facets.js';
import { execSelectNoTable, execShow, prepareSet } from './exec-show.js';
import { execDelete, execInsert, execUpdate } from './exec-write.js';
import type { IdSource } from '../id-generator.js';
import type { DistributedTables } from '../distributed/dist-registry.js';
import { distributedDef, type DistributedDef } from '../distributed/dist-def.js';
import { execDistributedSelect } from '../distributed/dist-select.js';
import { execDistributedFacets } from '../distributed/dist-facets.js';
import { execDistributedWrite } from '../distributed/dist-write.js';
import {
  execAgentStatus, execAlterDistributed, execCreateDistributed, execDescribeDistributed, execShowCreateDistributed, isDistributedCreate, refuseWrite,
} from '../distributed/exec-dist.js';
import { ok, rows, stringColumns, type Result } from '../result.js';
import type { GlobalSettings } from '../server-vars.js';
import type { Session } from '../session.js';
import { NO_REPLICATION, type ReplicationHook } from '../replication-hook.js';
import { execDeleteInTransaction, execInsertInTransaction } from '../transaction/transaction-write.js';
import { buffersWrites, commit, rollback, savepoint } from '../transaction/transaction.js';
import { wholeRowReplace } from './partial-replace.js';
import { bindUservars } from './uservars.js';

/** Statements with an OPTION clause, by the option list they take (statement-options.ts). */
const OPTION_STATEMENTS: Partial<Record<Statement['kind'], OptionStatement>> = {
  select: 'select', update: 'update', delete: 'delete', insert: 'insert', optimize: 'optimize', show: 'show',
  drop_table: 'drop_table', describe: 'describe',
};

/** searchd's CheckOption per SHOW: THREADS and PLAN take columns/format, CREATE TABLE force/format_output_words, the rest none. */
function showOptionKind(what: ShowWhat): OptionStatement {
  return what === 'threads' || what === 'plan' ? 'show' : what === 'create_table' ? 'show_create_table' : 'show_other';
}

/** The longest delay a Node timer holds (2^31 - 1 ms); a longer one fires at once. */
const MAX_TIMER_MS = 2 ** 31 - 1;

export interface ExecContext {
  catalog: Catalog;
  ids: IdSource;
  settings: GlobalSettings;
  config: Map<string, ConfigTable>;
  /** Distributed tables: their names share the catalog's namespace. */
  dist: DistributedTables;
  /** Replication (src/replication/) when searchd names NATS servers; else cluster statements fail. */
  replication?: ReplicationHook;
  /** One checkpoint pass over every table (the engine's checkpointer), which BACKUP runs before its copy. */
  checkpointNow?: () => Promise<void>;
}

/** The distributed table a statement names, if it names one. */
function distributedOf(ctx: ExecContext, st: Statement) {
  const name = st.kind === 'select' ? st.tables[0]
    : st.kind === 'insert' || st.kind === 'update' || st.kind === 'delete' || st.kind === 'drop_table' || st.kind === 'describe' || st.kind === 'truncate' || st.kind === 'alter_table' ? st.table
      : st.kind === 'show' && (st.what === 'create_table' || st.what === 'columns' || st.what === 'table_status') ? st.table : undefined;
  return name === undefined ? undefined : ctx.dist.get(name);
}

/**
 * SELECT ... FROM a, b: searchd searches the listed local tables as one, as a distributed table of those
 * locals answers (the same merge of rows, meta and facets); a name it does not serve is its error.
 */
async function selectSeveral(ctx: ExecContext, st: SelectStatement, session: Session, flags: GlobalFlags): Promise<Result | Result[]> {
  for (const name of st.tables) {
    if (ctx.dist.get(name)) throw new SearchError('UNSUPPORTED', 'selecting from several tables is not supported when one is distributed');
    if (!ctx.catalog.has(name)) throw new SearchError('UNKNOWN_TABLE', `unknown local table(s) '${name.toLowerCase()}' in search request`);
  }
  const def = distributedDef(st.tables.join(','), { local: st.tables }, (n) => ctx.catalog.has(n));
  return (await executeDistributed(ctx, { ...st, tables: [def.name] }, session, flags, def))!;
}

async function executeDistributed(ctx: ExecContext, st: Statement, session: Session, flags: GlobalFlags, def: DistributedDef): Promise<Result | Result[] | undefined> {
  switch (st.kind) {
    case 'select': {
      if (st.tables.length > 1) throw new SearchError('UNSUPPORTED', 'selecting from several tables is not supported');
      const main = await execDistributedSelect(ctx.catalog, def, st, session, flags);
      if (!st.facets?.length) return main;
      const meta = { lastMeta: session.lastMeta, lastWarning: session.lastWarning };
      const facets = await execDistributedFacets(ctx.catalog, def, st, flags);
      keepMainMeta(session, meta, facets);
      return [main, ...facets];
    }
    case 'drop_table': await ctx.dist.drop(st.table); return ok(0);
    case 'alter_table': return execAlterDistributed(ctx.catalog, ctx.dist, def, st);
    case 'describe': return execDescribeDistributed(def, st.like);
    case 'show':
      if (st.what === 'create_table') return execShowCreateDistributed(def);
      throw new SearchError('QUERY_ERROR', `table '${def.name}' is distributed: SHOW ${st.what === 'columns' ? 'COLUMNS' : 'TABLE STATUS'} needs a local table`);
    case 'truncate': throw new SearchError('QUERY_ERROR', 'TRUNCATE RTINDEX requires an existing RT table');
    case 'update': case 'delete': return execDistributedWrite({ catalog: ctx.catalog, ids: ctx.ids, autoSchema: false, flags }, def, st);
    default: return refuseWrite(st, def.name);
  }
}

/** One statement's results: one, or several for a SELECT with FACET clauses. */
export function executeStatement(ctx: ExecContext, st: Statement, session: Session): Promise<Result | Result[]> {
  const routed = (ctx.replication ?? NO_REPLICATION).route(st, session, () => executeLocal(ctx, st, session));
  return routed ?? executeLocal(ctx, st, session);
}

/**
 * After a FACET statement SHOW META describes the main query with every query's time added, as
 * searchd's HandleMysqlSelectStmtGroup (bUseFirstMeta: the first meta, AddQueryTimeUs of the others).
 * A copy: the main result's own meta stays as it was answered.
 */
function keepMainMeta(session: Session, kept: Pick<Session, 'lastMeta' | 'lastWarning'>, facets: readonly Result[]): void {
  const facetMs = facets.reduce((n, r) => n + (r.kind === 'rows' ? r.meta?.timeMs ?? 0 : 0), 0);
  session.lastMeta = kept.lastMeta && { ...kept.lastMeta, timeMs: kept.lastMeta.timeMs + facetMs };
  session.lastWarning = kept.lastWarning;
}

/**
 * The statement with its `IN @name` filters bound to SET GLOBAL @name's values (uservars.ts). A table that does
 * not exist is left to its own error first: searchd makes the filter (and finds the variable missing) only
 * once it has the table.
 */
function withUservars(ctx: ExecContext, st: Statement): Statement {
  const known = (name: string) => ctx.catalog.has(name) || ctx.dist.get(name) !== undefined;
  if (st.kind === 'select' && st.tables[0] !== undefined && known(st.tables[0])) return bindUservars(st, st.tables[0], ctx.settings);
  if ((st.kind === 'update' || st.kind === 'delete') && known(st.table)) return bindUservars(st, st.table, ctx.settings);
  return st;
}

/** One statement on this node only (what the replication layer applies from a cluster's stream). */
export async function executeLocal(ctx: ExecContext, parsed: Statement, session: Session): Promise<Result | Result[]> {
  const bound = withUservars(ctx, parsed);
  // OPTION fuzzy (Buddy's plugin in Manticore): the MATCH rewritten before the options are checked
  const st = bound.kind === 'select' ? fuzzySelect(ctx.catalog, ctx.dist, bound) : bound;
  const flags = {
    notTermsOnlyAllowed: ctx.settings.not_terms_only_allowed, expansionLimit: ctx.settings.expansion_limit,
    collation: session.collation ?? ctx.settings.collation_server,
  };
  const write = { catalog: ctx.catalog, ids: ctx.ids, autoSchema: ctx.settings.auto_schema, flags };
  // options are checked first, as Manticore's parser does (an unknown option fails even on a missing table)
  const optionKind = st.kind === 'show' ? showOptionKind(st.what) : OPTION_STATEMENTS[st.kind];
  if (optionKind && 'options' in st) checkOptions(optionKind, st.options as NamedValue[]);
  // asked synchronously: a statement on a local table (every single-row INSERT) pays no async call and
  // await of its own here
  const def = distributedOf(ctx, st);
  const distributed = def && await executeDistributed(ctx, st, session, flags, def);
  if (distributed) return distributed;
  switch (st.kind) {
    case 'select': {
      if (st.tables.length === 0) return execSelectNoTable(st, session, ctx.settings);
      if (st.tables.length > 1) return selectSeveral(ctx, st, session, flags);
      const table = ctx.catalog.get(st.tables[0]);
      if (!table) throw new SearchError('UNKNOWN_TABLE', `unknown local table(s) '${st.tables[0].toLowerCase()}' in search request`);
      const main = await execSelect(table, st, session, flags);
      // Buddy answers a fuzzy SELECT in Manticore, so the raw JSON endpoints give its layout
      if (st !== bound && main.kind === 'rows') main.buddyLayout = true;
      if (!st.facets?.length) return main;
      // each FACET is one more result set; SHOW META keeps describing the main query
      const meta = { lastMeta: session.lastMeta, lastWarning: session.lastWarning };
      const facets = (await execFacets(table, st, session, flags)).map((r, i) => ({ ...r, facet: st.facets![i]!.items[0]!.expr.text }));
      keepMainMeta(session, meta, facets);
      return [main, ...facets];
    }
    case 'insert': {
      const ins = st.partialId === undefined ? st : wholeRowReplace(ctx.catalog, st as typeof st & { partialId: bigint });
      if (buffersWrites(session)) checkLockedWrite(ctx.catalog, st.table, 'insert');
      const r = await (buffersWrites(session) ? execInsertInTransaction(write, ins, session) : execInsert(write, ins));
      if (r.insertedIds) session.lastInsertIds = r.insertedIds; // kept, not joined: a big batch pays nothing unless asked
      // searchd keeps an INSERT's warning in the session's last meta: SHOW WARNINGS and SHOW META show it
      if (r.warning) {
        session.lastWarning = r.warning;
        session.lastMeta = { total: 0, totalFound: 0, totalRelation: 'eq', timeMs: 0, keywords: [], warning: r.warning };
      }
      return r;
    }
    case 'update': return execUpdate(write, st);
    case 'delete':
      if (!buffersWrites(session)) return execDelete(write, st);
      checkLockedWrite(ctx.catalog, st.table, 'delete');
      return execDeleteInTransaction(write, st, session);
    case 'create_table': return isDistributedCreate(st) ? execCreateDistributed(ctx.catalog, ctx.dist, st) : execCreate(ctx.catalog, st);
    case 'create_table_like': return execCreateLike(ctx.catalog, st);
    case 'drop_table': return execDrop(ctx.catalog, st);
    case 'truncate': return execTruncate(ctx.catalog, st, ctx.config);
    case 'attach': return execAttach(ctx.catalog, st);
    case 'alter_table': return execAlter(ctx.catalog, st);
    case 'optimize': return execOptimize(ctx.catalog, st);
    case 'flush': return execFlush(ctx.catalog, st);
    case 'describe': return execDescribe(ctx.catalog, st);
    case 'show': return st.what === 'agent_status' ? execAgentStatus(ctx.dist, st.table, st.like) : execShow(ctx.catalog, st, session, ctx.settings, ctx.dist);
    case 'set': {
      const set = prepareSet(st, session, ctx.settings, ctx.catalog);
      // SET autocommit=1 commits what autocommit=0 left open, as in MySQL; first, so a commit refused
      // (a duplicate id, a locked table) leaves every variable as it was
      if (set.turnsAutocommitOn && session.transaction) await commit(session, ctx.catalog);
      set.apply();
      return ok(0);
    }
    case 'set_names': case 'set_transaction': return ok(0);
    case 'call': return execCall(ctx.catalog, st, ctx.dist, flags.expansionLimit ?? 0);
    case 'backup': return execBackup(ctx.catalog, st, ctx.checkpointNow);
    case 'lock_tables': return lockTables(ctx.catalog, st, session);
    case 'unlock_tables': return unlockTables(session);
    case 'information_schema': return execInformationSchema(ctx.catalog, st);
    case 'debug_sleep': { // searchd's HandleMysqlDebug: the time slept, in seconds with 3 decimals
      const started = performance.now();
      // in steps a timer can hold (Node fires a longer delay after 1 ms): 1e7 s sleeps 1e7 s as asked
      for (let left = st.seconds * 1000; left > 0; left -= MAX_TIMER_MS) {
        await new Promise((r) => setTimeout(r, Math.min(left, MAX_TIMER_MS)));
      }
      return rows(stringColumns('command', 'result'), [['sleep', ((performance.now() - started) / 1000).toFixed(3)]]);
    }
    case 'begin': // BEGIN inside a transaction commits it first, as in MySQL.
      if (session.transaction) await commit(session, ctx.catalog);
      session.transaction = { writes: [] };
      return ok(0);
    case 'commit': await commit(session, ctx.catalog); return ok(0);
    case 'rollback': rollback(session); return ok(0);
    case 'savepoint': savepoint(session, st.action, st.name); return ok(0);
    default:
      throw new SearchError('UNSUPPORTED', `statement '${(st as Statement).text.split(/\s+/).slice(0, 2).join(' ')}' is not supported yet`);
  }
}
