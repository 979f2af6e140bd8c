/** SHOW statements, SET, and SELECT without FROM: what clients ask about the server and session. */
import type { SelectStatement, SetStatement, ShowStatement } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import type { Catalog } from '../catalog.js';
import { execShowCreate, execShowFields } from './exec-ddl.js';
import { likeMatcher } from '../like.js';
import { tableSettingsText } from '../schema-text.js';
import { constantValue } from '../expr/constant-expr.js';
import { ok, rows, stringColumns, type Cell, type OkResult, type Result, type ResultColumn, type SearchMeta } from '../result.js';
import { buddySysvar, searchdSysvar, systemVariable, VERSION, type GlobalSettings } from '../server-vars.js';
import type { Session } from '../session.js';
import { collationName, DEFAULT_COLLATION } from '../../util/collation.js';
import { lastInsertIdText, variablesRows } from './show-variables.js';
import { checkSetName, checkSetValue } from './set-known.js';
import { uservarOf } from './uservars.js';
import { processlistResult, statusRows, tableStatusRows, threadsResult, type ThreadsOptions } from './exec-status.js';
import { optionText } from '../values/sql-values.js';

/** A session before its first search, or after a write: searchd's empty CSphQueryResultMeta. */
const NO_META: SearchMeta = { total: 0, totalFound: 0, totalRelation: 'eq', timeMs: 0, keywords: [] };

/** searchd's BuildMeta: error and warning first, the totals, then the keywords in byte order (MakeSortedWordStat). */
function metaRows(session: Session): string[][] {
  const m = session.lastMeta ?? NO_META;
  const out: string[][] = [];
  if (m.error) out.push(['error', m.error]);
  if (m.warning) out.push(['warning', m.warning]);
  out.push(
    ['total', String(m.total)], ['total_found', String(m.totalFound)],
    ['total_relation', m.totalRelation], ['time', (m.timeMs / 1000).toFixed(3)],
  );
  const words = [...m.keywords].sort((a, b) => Buffer.compare(Buffer.from(a.keyword), Buffer.from(b.keyword)));
  words.forEach((k, i) => out.push([`keyword[${i}]`, k.keyword], [`docs[${i}]`, String(k.docs)], [`hits[${i}]`, String(k.hits)]));
  for (const [k, v] of m.extra ?? []) out.push([k, v]);
  return out;
}

/** SHOW THREADS' options, the last of each name winning as searchd sets them in order (checkOptions vetted them). */
function threadsOptions(st: ShowStatement): ThreadsOptions {
  const out: ThreadsOptions = {};
  for (const o of st.options) {
    if (o.name === 'columns') out.columns = Number(optionText(o.value));
    // format=sphinxql: searchd shows a JSON request as SQL; quarry's Info for HTTP stays its method and path
    else if (o.name === 'format') out.all = optionText(o.value).toLowerCase() === 'all';
  }
  return out;
}

/** SHOW CREATE TABLE's OPTION output_words (checkOptions vetted the value): 'list' unless 'file'. */
function outputWords(st: ShowStatement): 'list' | 'file' {
  let words: 'list' | 'file' = 'list';
  for (const o of st.options) {
    if (o.name === 'output_words' || o.name === 'format_output_words') words = optionText(o.value).toLowerCase() === 'file' ? 'file' : 'list';
  }
  return words;
}

export function execShow(catalog: Catalog, st: ShowStatement, session: Session, settings: GlobalSettings, dist?: { names(): string[] }): Result {
  const like = likeMatcher(st.like);
  const kv = (data: string[][]) => rows(stringColumns('Variable_name', 'Value'), data.filter((r) => like(r[0])));
  switch (st.what) {
    case 'tables': {
      const all = [...catalog.names().map((n) => [n, 'rt']), ...(dist?.names() ?? []).map((n) => [n, 'distributed'])]
        .sort((a, b) => (a[0]! < b[0]! ? -1 : 1)).filter((r) => like(r[0]!));
      if (st.full) return rows(stringColumns('Tables_in_Manticore', 'Table_type'), all.map(([n]) => [n!, 'BASE TABLE']));
      return rows(stringColumns('Table', 'Type'), all);
    }
    case 'meta': return kv(metaRows(session));
    case 'warnings':
      return rows(stringColumns('Level', 'Code', 'Message'), session.lastWarning ? [['warning', '1000', session.lastWarning]] : []);
    case 'variables': return kv(variablesRows(settings, session, catalog, st.scope));
    case 'status': return rows(stringColumns('Counter', 'Value'), statusRows(String(systemVariable('version', settings))).filter((r) => like(r[0])));
    // searchd lists one row per loaded component (Daemon, Columnar, Secondary, Knn, Buddy...); quarry has only the daemon
    case 'version': return rows(stringColumns('Component', 'Version'), [['Daemon', String(systemVariable('version', settings))]]);
    case 'databases': return rows(stringColumns('Databases'), [['Manticore']]);
    case 'threads': return threadsResult(threadsOptions(st));
    case 'processlist': return processlistResult(st.full === true);
    // quarry has no triggers; mysqldump asks for each table's
    case 'triggers': return rows(stringColumns('Trigger', 'Event', 'Table', 'Statement', 'Timing', 'Created', 'sql_mode', 'Definer', 'character_set_client', 'collation_connection', 'Database Collation'), []);
    case 'plugins': return rows(stringColumns('Type', 'Name', 'Library', 'Users', 'Extra'), []);
    // searchd's HandleMysqlShowLocks: each table (by name) with LOCK TABLES read locks held, from any
    // session; quarry has no FREEZE, so no 'freeze' rows
    case 'locks': return rows(stringColumns('Type', 'Name', 'Lock Type', 'Additional Info'), catalog.names()
      .sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1))
      .flatMap((n) => { const locks = catalog.get(n)?.readLocks ?? 0; return locks > 0 ? [['rt', n, 'read', `Count: ${locks}`]] : []; }));
    case 'collation': return rows(stringColumns('Collation', 'Charset', 'Id', 'Default', 'Compiled', 'Sortlen'), [['utf8mb4_general_ci', 'utf8mb4', '45', 'Yes', 'Yes', '1']]);
    case 'character_set': return rows(stringColumns('Charset', 'Description', 'Default collation', 'Maxlen'), [['utf8mb4', 'UTF-8 Unicode', 'utf8mb4_general_ci', '4']]);
    case 'create_table': return execShowCreate(catalog, st.table!, session.quoteShowCreate, outputWords(st));
    case 'columns': return execShowFields(catalog, st.table!);
    case 'table_status': {
      if (!st.table) return rows(stringColumns('Name', 'Engine', 'Rows'), catalog.names().filter(like).map((n) => [n, 'rt', String(catalog.get(n)!.index.count())]));
      const t = catalog.get(st.table);
      if (!t) throw new SearchError('UNKNOWN_TABLE', `no such table '${st.table.toLowerCase()}'`);
      return kv(tableStatusRows(t, catalog.store.checkpointBytes(t.name), catalog.store.lastSeq(t.name), catalog.store.checkpointSeq(t.name)));
    }
    case 'table_settings': {
      const t = catalog.get(st.table!);
      if (!t) throw new SearchError('UNKNOWN_TABLE', `no such table '${st.table!.toLowerCase()}'`);
      return rows(stringColumns('Variable_name', 'Value'), [['settings', tableSettingsText(t.schema)]]);
    }
    // searchd lists each attribute's secondary index (Name, Type, Enabled, Percent) over the disk chunks;
    // quarry builds none (filters read the columns), so the list is empty, as for a table held in RAM
    case 'table_indexes': {
      if (!catalog.get(st.table!)) throw new SearchError('UNKNOWN_TABLE', 'SHOW TABLE INDEXES requires an existing table');
      return rows(stringColumns('Name', 'Type', 'Enabled', 'Percent'), []);
    }
    // searchd prints the last profiled query's transformed full-text tree and stage timings; quarry
    // records neither, so it says so instead of an empty or made-up answer
    case 'plan':
    case 'profile':
      throw new SearchError('UNSUPPORTED', `SHOW ${st.what.toUpperCase()} is not supported: quarry records no query ${st.what} (SET profiling=1 is accepted and records nothing)`);
    default: throw new SearchError('UNSUPPORTED', `SHOW ${st.what.toUpperCase()} is not supported`);
  }
}

function boolValue(name: string, v: SetStatement['assignments'][number]['value']): boolean {
  // searchd's HandleSetLocal: a session boolean takes 0 or 1 only
  if (v.kind === 'int' && Number(v.value) !== 0 && Number(v.value) !== 1) {
    throw new SearchError('BAD_VALUE', `sphinxql: only 0 and 1 could be used as boolean values near '${String(v.value)}'`);
  }
  if (v.kind === 'int') return Number(v.value) !== 0;
  if (v.kind === 'ident' || v.kind === 'string') {
    const s = (v.kind === 'ident' ? v.name : v.value).toLowerCase();
    if (['1', 'on', 'true'].includes(s)) return true;
    if (['0', 'off', 'false'].includes(s)) return false;
  }
  throw new SearchError('BAD_VALUE', `Unknown value for '${name}'`);
}

/** A setting's value as text (`utf8_general_ci`, 'binary', 5). */
function textValue(v: SetStatement['assignments'][number]['value']): string {
  return v.kind === 'ident' ? v.name : v.kind === 'string' ? v.value : 'value' in v ? String(v.value) : '';
}

/** A non-negative integer setting. */
function countValue(name: string, v: SetStatement['assignments'][number]['value']): number {
  if (v.kind === 'int' && Number(v.value) >= 0) return Number(v.value);
  throw new SearchError('BAD_VALUE', `Unknown value for '${name}'`);
}

const I64_MAX = (1n << 63n) - 1n;

/**
 * searchd's HandleSetGlobal optimize_cutoff: a positive integer (a string reads as 0). The literal is
 * GetValueInt's int64 (saturated: 2^63 and past, even past 2^64, are INT64_MAX), kept in the int
 * m_iOptimizeCutoff, so its low 32 bits signed are what SHOW VARIABLES prints (2^63 -> -1, 2^32 -> 0);
 * the error prints the int64 through %d, its low 32 bits too. A cutoff below 1 compacts nothing here.
 */
function cutoffValue(v: SetStatement['assignments'][number]['value']): number {
  let n = v.kind === 'int' ? BigInt(v.value) : 0n;
  if (n > I64_MAX) n = I64_MAX;
  if (n < -I64_MAX - 1n) n = -I64_MAX - 1n;
  const int = Number(BigInt.asIntN(32, n));
  if (n < 1n) throw new SearchError('BAD_VALUE', `optimize_cutoff should be greater than 0, got ${int}`);
  return int;
}

/**
 * Every name and value of a SET checked, nothing set yet (apply sets them all), so a refused statement
 * changes nothing; turnsAutocommitOn says whether it sets autocommit to 1 (the caller commits first).
 */
export function prepareSet(st: SetStatement, session: Session, settings: GlobalSettings, catalog: Catalog): { apply: () => void; turnsAutocommitOn: boolean } {
  const apply: (() => void)[] = [];
  let turnsAutocommitOn = false;
  for (const a of st.assignments) {
    // a user variable without GLOBAL is a session name searchd's HandleSetLocal does not know
    if (a.user && a.scope !== 'global') checkSetName(`@${a.name}`, a.scope);
    if (!a.system && !a.user && !globalList(a)) {
      checkSetName(a.name, a.scope);
      checkSetValue(a.name, a.scope, textValue(a.value));
    }
    apply.push(setter(a, session, settings, catalog));
    if (!a.user && a.name === 'autocommit') turnsAutocommitOn = boolValue(a.name, a.value);
  }
  return { apply: () => { for (const f of apply) f(); }, turnsAutocommitOn };
}

/** `SET GLOBAL name = (1,2)`: searchd's SET_GLOBAL_UVAR whatever the name (sphinxql_second.y), a user variable. */
function globalList(a: SetStatement['assignments'][number]): boolean {
  return a.scope === 'global' && !a.system && a.value.kind === 'tuple';
}

/** What one assignment does, its value already converted (a bad one throws here, before anything is set). */
function setter(a: SetStatement['assignments'][number], session: Session, settings: GlobalSettings, catalog: Catalog): () => void {
  const none = () => {};
  if (a.user || globalList(a)) {
    const [name, values] = uservarOf(a);
    return () => { settings.uservars.set(name, values); };
  }
  switch (a.name) {
    case 'auto_schema': { const v = boolValue(a.name, a.value); return () => { settings.auto_schema = v; }; }
    case 'not_terms_only_allowed': { const v = boolValue(a.name, a.value); return () => { settings.not_terms_only_allowed = v; }; }
    case 'expansion_limit': { const v = countValue(a.name, a.value); return () => { settings.expansion_limit = v; }; }
    case 'autocommit': { const v = boolValue(a.name, a.value); return () => { session.autocommit = v; }; }
    // searchd's g_iAutoOptimizeCutoffMultiplier and optimize_cutoff default, for every table at once
    case 'auto_optimize': { const v = countValue(a.name, a.value); return () => catalog.setOptimize({ autoOptimize: v }); }
    case 'optimize_cutoff': { const v = cutoffValue(a.value); return () => catalog.setOptimize({ cutoff: v }); }
    case 'sql_quote_show_create': { const v = boolValue(a.name, a.value); return () => { session.quoteShowCreate = v; }; }
    // searchd takes an unknown name as its default collation, libc_ci, without an error
    case 'collation_connection': { const v = collationName(textValue(a.value)) ?? DEFAULT_COLLATION; return () => { session.collation = v; }; }
    // held by the server (its query log); searchd's HandleSetGlobal sets them for the next statement
    case 'query_log_format': case 'log_level': {
      const v = textValue(a.value);
      return () => settings.onServerSetting?.(a.name, v);
    }
    // (int)iSetValue: a string reads as 0
    case 'query_log_min_msec': {
      const v = a.value.kind === 'int' ? String(a.value.value) : '0';
      return () => settings.onServerSetting?.(a.name, v);
    }
    // the other names searchd takes (set-known.ts) are accepted without an effect, as searchd takes them
    default: return none;
  }
}

/** SELECT without FROM: @@variables, DATABASE(), USER(), VERSION(), literals. */
export function execSelectNoTable(st: SelectStatement, session: Session, settings: GlobalSettings): Result {
  const cols: ResultColumn[] = [];
  const row: Cell[] = [];
  // searchd checks every item first and fails with all their errors joined (HandleMysqlSelectColumns)
  const errors: string[] = [];
  // a @@name searchd does not answer itself sends the whole statement to Buddy, which writes the values its way
  const byBuddy = st.items.some((i) => i.expr.kind === 'variable' && i.expr.system && !searchdSysvar(i.expr.text));
  for (const item of st.items) {
    const e = item.expr;
    let v: Cell;
    let name = item.alias ?? item.name;
    if (e.kind === 'variable' && e.system && /^(session\.)?last_insert_id$/i.test(e.name)) v = lastInsertIdText(session);
    else if (e.kind === 'variable' && e.system) {
      const known = systemVariable(e.name, settings);
      if (known === undefined) { errors.push(`unknown sysvar ${e.text}`); continue; }
      v = byBuddy ? buddySysvar(e.name, known) : known;
      // searchd matches its own names case-sensitively; Buddy answers the others under the lower-cased name
      if (item.alias === undefined) name = name.toLowerCase();
    }
    // the expression parser has no rule for a bare @uservar
    else if (e.kind === 'variable') { errors.push("P09: syntax error, unexpected TOK_USERVAR near ''"); continue; }
    else if (e.kind === 'call' && e.name === 'database') v = session.database;
    else if (e.kind === 'call' && (e.name === 'user' || e.name === 'current_user')) v = 'root@localhost';
    else if (e.kind === 'call' && e.name === 'version') v = VERSION;
    else if (e.kind === 'call' && e.name === 'last_insert_id' && e.args.length === 0) v = lastInsertIdText(session);
    else if (e.kind === 'call' && e.name === 'connection_id') v = BigInt(session.connId ?? 1); // 1 in process
    else if (e.kind === 'literal' && e.value.kind === 'int') v = BigInt(e.value.value);
    else if (e.kind === 'literal' && e.value.kind === 'float') v = e.value.value;
    else if (e.kind === 'literal' && e.value.kind === 'string') v = e.value.value;
    else {
      // arithmetic and functions over constants (`SELECT 1+2`)
      const c = constantValue(e);
      cols.push({ name: item.alias ?? item.name, kind: c.kind });
      row.push(c.value);
      continue;
    }
    cols.push({ name, kind: typeof v === 'bigint' ? 'bigint' : typeof v === 'number' ? (Number.isInteger(v) ? 'uint' : 'float') : 'string' });
    row.push(v);
  }
  if (errors.length > 0) throw new SearchError('PARSE_ERROR', errors.join('; '));
  const limit = st.limit ?? 1;
  return rows(cols, limit > 0 ? [row] : []);
}
