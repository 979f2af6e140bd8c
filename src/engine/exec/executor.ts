/** Runs parsed statements against the catalog: the one dispatch from statement kind to its executor. */
import type { NamedValue, Statement } from '../../sql/ast.js';
import { checkOptions, type OptionStatement } from '../statement-options.js';
import { SearchError } from '../../util/errors.js';
import type { Catalog } from '../catalog.js';
import { execAlter, execFlush, execOptimize } from './exec-admin.js';
import { execBackup } from './exec-backup.js';
import { execCall } from './exec-call.js';
import { execInformationSchema, execLockTables, execUnlockTables } from './exec-dump-tools.js';
import { execAttach, execCreate, execCreateLike, execDescribe, execDrop, execTruncate, type ConfigTable } from './exec-ddl.js';
import { execSelect } from './exec-select.js';
import { execFacets } from '../group/facets.js';
import { execSelectNoTable, execSet, execShow } from './exec-show.js';
import { execDelete, execInsert, execUpdate } from './exec-write.js';
import type { IdGenerator } from '../id-generator.js';
import { ok, type Result } from '../result.js';
import type { GlobalSettings } from '../server-vars.js';
import type { Session } from '../session.js';
import { execDeleteInTransaction, execInsertInTransaction } from '../transaction/transaction-write.js';
import { buffersWrites, commit, rollback, savepoint } from '../transaction/transaction.js';

/** Statements with an OPTION clause, by the option list they take (statement-options.ts). */
const OPTION_STATEMENTS: Partial<Record<Statement['kind'], OptionStatement>> = {
  select: 'select', update: 'update', delete: 'delete', insert: 'insert', optimize: 'optimize', show: 'show',
  drop_table: 'drop_table',
};

export interface ExecContext {
  catalog: Catalog;
  ids: IdGenerator;
  settings: GlobalSettings;
  config: Map<string, ConfigTable>;
}

/** One statement's results: one, or several for a SELECT with FACET clauses. */
export async function executeStatement(ctx: ExecContext, st: Statement, session: Session): Promise<Result | Result[]> {
  const flags = { notTermsOnlyAllowed: ctx.settings.not_terms_only_allowed, expansionLimit: ctx.settings.expansion_limit };
  const write = { catalog: ctx.catalog, ids: ctx.ids, autoSchema: ctx.settings.auto_schema, flags };
  // options are checked first, as Manticore's parser does (an unknown option fails even on a missing table)
  const optionKind = OPTION_STATEMENTS[st.kind];
  if (optionKind && 'options' in st) checkOptions(optionKind, st.options as NamedValue[]);
  switch (st.kind) {
    case 'select': {
      if (st.tables.length === 0) return execSelectNoTable(st, session, ctx.settings);
      if (st.tables.length > 1) throw new SearchError('UNSUPPORTED', 'selecting from several tables is not supported');
      const table = ctx.catalog.get(st.tables[0]);
      if (!table) throw new SearchError('UNKNOWN_TABLE', `unknown local table(s) '${st.tables[0].toLowerCase()}' in search request`);
      const main = await execSelect(table, st, session, flags);
      if (!st.facets?.length) return main;
      // each FACET is one more result set; SHOW META keeps describing the main query
      const meta = { lastMeta: session.lastMeta, lastWarning: session.lastWarning };
      const facets = (await execFacets(table, st, session, flags)).map((r, i) => ({ ...r, facet: st.facets![i]!.items[0]!.expr.text }));
      Object.assign(session, meta);
      return [main, ...facets];
    }
    case 'insert': return buffersWrites(session) ? execInsertInTransaction(write, st, session) : execInsert(write, st);
    case 'update': return execUpdate(write, st);
    case 'delete': return buffersWrites(session) ? execDeleteInTransaction(write, st, session) : execDelete(write, st);
    case 'create_table': return execCreate(ctx.catalog, st);
    case 'create_table_like': return execCreateLike(ctx.catalog, st);
    case 'drop_table': return execDrop(ctx.catalog, st);
    case 'truncate': return execTruncate(ctx.catalog, st, ctx.config);
    case 'attach': return execAttach(ctx.catalog, st);
    case 'alter_table': return execAlter(ctx.catalog, st);
    case 'optimize': return execOptimize(ctx.catalog, st);
    case 'flush': return execFlush(ctx.catalog, st);
    case 'describe': return execDescribe(ctx.catalog, st);
    case 'show': return execShow(ctx.catalog, st, session, ctx.settings);
    case 'set': {
      const r = execSet(st, session, ctx.settings);
      // SET autocommit=1 commits what autocommit=0 left open, as in MySQL.
      if (session.autocommit && session.transaction && st.assignments.some((a) => a.name === 'autocommit')) await commit(session, ctx.catalog);
      return r;
    }
    case 'set_names': case 'set_transaction': return ok(0);
    case 'call': return execCall(ctx.catalog, st);
    case 'backup': return execBackup(ctx.catalog, st);
    case 'lock_tables': return execLockTables(ctx.catalog, st, session);
    case 'unlock_tables': return execUnlockTables(session);
    case 'information_schema': return execInformationSchema(ctx.catalog, st);
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
