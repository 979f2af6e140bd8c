/**
 * The statements that name a distributed table other than SELECT: CREATE TABLE ... type='distributed',
 * ALTER TABLE d local=... agent=..., DROP TABLE, DESCRIBE, SHOW CREATE TABLE, SHOW AGENT STATUS, and the refusal of writes.
 */
import type { AlterTableStatement, CreateTableStatement, Statement } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import type { Catalog } from '../catalog.js';
import { likeMatcher } from '../like.js';
import { checkTableName } from '../table-name-rule.js';
import { ok, rows, stringColumns, type OkResult, type RowsResult } from '../result.js';
import { AGENT_COUNTERS, allHosts, hostStats, type HostStats } from './agent-health.js';
import { createText, describeRows, mirrorUrl, type DistributedDef } from './dist-def.js';
import type { DistributedTables } from './dist-registry.js';

export function isDistributedCreate(st: CreateTableStatement): boolean {
  return (st.settings.type ?? '').toLowerCase() === 'distributed';
}

export async function execCreateDistributed(catalog: Catalog, dist: DistributedTables, st: CreateTableStatement): Promise<OkResult> {
  const name = st.table.toLowerCase();
  checkTableName(name); // the same names as any table (they share one namespace)
  if (st.columns.length) throw new SearchError('PARSE_ERROR', `table '${name}': a distributed table has no columns of its own`);
  if (catalog.has(name) || dist.has(name)) {
    if (st.ifNotExists) return ok(0);
    throw new SearchError('TABLE_EXISTS', `table '${name}': CREATE TABLE failed: table '${name}' already exists`);
  }
  await dist.create(name, st.allSettings ?? Object.fromEntries(Object.entries(st.settings).map(([k, v]) => [k, [v]])), (n) => catalog.has(n));
  return ok(0);
}

/**
 * ALTER TABLE d local='a' agent='h:p:t' ...: the listed options become the table's whole definition, as
 * Manticore's ALTER of a distributed table (done by its Buddy sidecar) does; checked as CREATE checks them,
 * so a bad option leaves the old definition. Any other ALTER is searchd's refusal.
 */
export async function execAlterDistributed(catalog: Catalog, dist: DistributedTables, def: DistributedDef, st: AlterTableStatement): Promise<OkResult> {
  // RENAME is Buddy's, which takes only RT tables (CLT core/test-alter-rename.rec)
  if (st.action.kind === 'rename') throw new SearchError('BAD_VALUE', `Table ${def.name} should be RT`);
  if (st.action.kind !== 'settings') throw new SearchError('QUERY_ERROR', 'ALTER is only supported for local (not distributed) tables');
  const opts = { ...(st.action.all ?? Object.fromEntries(Object.entries(st.action.settings).map(([k, v]) => [k, [v]]))) };
  if ((opts.type?.[0] ?? 'distributed').toLowerCase() !== 'distributed') throw new SearchError('QUERY_ERROR', `table '${def.name}': ALTER cannot change the table type`);
  opts.type = ['distributed'];
  await dist.replace(def.name, opts, (n) => catalog.has(n));
  return ok(0);
}

export function execDescribeDistributed(def: DistributedDef, like?: string): RowsResult {
  const match = likeMatcher(like);
  return rows(stringColumns('Agent', 'Type'), describeRows(def).filter((r) => match(r[0]!)));
}

export function execShowCreateDistributed(def: DistributedDef): RowsResult {
  return rows(stringColumns('Table', 'Create Table'), [[def.name, createText(def)]]);
}

/** Writes refused on a distributed table: INSERT and REPLACE, with Manticore's text for both (searchd.cpp). */
export function refuseWrite(st: Statement, name: string): never {
  if (st.kind === 'insert') throw new SearchError('QUERY_ERROR', `table '${name}' does not support INSERT`);
  throw new SearchError('UNSUPPORTED', `${st.kind.toUpperCase()} on distributed table '${name}' is not supported`);
}

function hostRows(h: HostStats, prefix: string): string[][] {
  const now = Date.now();
  const out: string[][] = [
    [`${prefix}_hostname`, h.url],
    [`${prefix}_errorsarow`, String(h.errorsARow)],
    [`${prefix}_lastquery`, h.lastQueryAt ? ((now - h.lastQueryAt) / 1000).toFixed(2) : 'n/a'],
    [`${prefix}_lastanswer`, h.lastAnswerAt ? ((now - h.lastAnswerAt) / 1000).toFixed(2) : 'n/a'],
    [`${prefix}_lastperiodmsec`, h.lastPeriodMs.toFixed(3)],
  ];
  for (const c of AGENT_COUNTERS) out.push([`${prefix}_1periods_${c}`, String(h.counters[c])]);
  return out;
}

/**
 * SHOW AGENT STATUS: every mirror this node has queried (Manticore's dashboard, ag_N_* keys); with a
 * distributed table's name, its locals and agents (dstindex_* keys); with host:port, that mirror.
 */
export function execAgentStatus(dist: DistributedTables, target: string | undefined, like?: string): RowsResult {
  const match = likeMatcher(like);
  const kv = (data: string[][], col = 'Variable_name') => rows(stringColumns(col, 'Value'), data.filter((r) => match(r[0]!)));
  if (!target) {
    const data: string[][] = [['status_period_seconds', '60'], ['status_stored_periods', '1']];
    allHosts().forEach((h, i) => data.push(...hostRows(h, `ag_${i}`)));
    return kv(data, 'Key');
  }
  const def = dist.get(target);
  if (def) {
    const data: string[][] = def.locals.map((l, i) => [`dstindex_local_${i + 1}`, l]);
    def.agents.forEach((a, i) => {
      const ha = a.mirrors.length > 1;
      data.push([`dstindex_${i + 1}_is_ha`, ha ? '1' : '0']);
      a.mirrors.forEach((m, j) => {
        const key = ha ? `dstindex_${i + 1}mirror${j + 1}` : `dstindex_${i + 1}agent`;
        data.push([`${key}_id`, `${mirrorUrl(m)}:${m.indexes}`]);
        if (ha) data.push([`${key}_probability_weight`, `${(100 / a.mirrors.length).toFixed(2)}%`]);
        data.push([`${key}_is_blackhole`, a.blackhole ? '1' : '0'], [`${key}_is_persistent`, a.persistent ? '1' : '0']);
      });
    });
    return kv(data);
  }
  const host = allHosts().find((h) => h.url === target);
  if (host) return kv(hostRows(hostStats({ host: target.split(':')[0]!, port: Number(target.split(':')[1]), indexes: '' }), 'agent'));
  return kv([['status_error', `No such distributed table or agent: ${target}`]]);
}
