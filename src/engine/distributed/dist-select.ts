/**
 * SELECT over a distributed table, as Manticore's master runs it: the remote agents are sent the shard
 * query first and answer concurrently while the local tables are searched (each on the query threads,
 * side by side), then every answer is merged. An agent that failed is reported in the warning and the
 * others' rows are returned; when no shard answered the failures are the error.
 */
import { collation } from '../../util/collation.js';
import type { SelectStatement } from '../../sql/ast.js';
import { metrics } from '../../metrics/metrics.js';
import { SearchError } from '../../util/errors.js';
import type { Catalog } from '../catalog.js';
import { execSelect, type GlobalFlags } from '../exec/exec-select.js';
import { rows, type RowsResult, type SearchMeta } from '../result.js';
import { newSession, type Session } from '../session.js';
import { queryAgent, sendToBlackhole, type AgentOutcome } from './agent-query.js';
import type { DistributedDef } from './dist-def.js';
import { mergeGrouped, mergePlain } from './merge-rows.js';
import { remoteQuery } from './remote-query.js';
import { planShards, type ShardPlan } from './shard-plan.js';
import { checkHaving } from '../group/having-check.js';
import { fromLocal, fromRemote, type ShardRows } from './shard-rows.js';

interface LocalOutcome {
  name: string;
  rows?: ShardRows;
  failure?: string;
}

async function runLocal(catalog: Catalog, name: string, plan: ShardPlan, flags: GlobalFlags): Promise<LocalOutcome> {
  try {
    const table = catalog.get(name);
    if (!table) throw new SearchError('UNKNOWN_TABLE', `unknown local table '${name}'`);
    const r = await execSelect(table, { ...plan.shard, tables: [name] }, newSession(), flags);
    return { name, rows: fromLocal(r) };
  } catch (e) {
    return { name, failure: (e as Error).message };
  }
}

/** Keyword statistics of all shards: docs and hits added per keyword (Manticore's MergeWordStats). */
function mergeKeywords(shards: ShardRows[]): SearchMeta['keywords'] {
  const out = new Map<string, { keyword: string; docs: number; hits: number }>();
  for (const s of shards) {
    for (const k of s.keywords) {
      const have = out.get(k.keyword);
      if (have) { have.docs += k.docs; have.hits += k.hits; } else out.set(k.keyword, { ...k });
    }
  }
  return [...out.values()];
}

/** SHOW META's per-agent rows (quarry's names: Manticore shows no per-agent figures there). */
function agentMeta(remotes: AgentOutcome[]): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  remotes.forEach((a, i) => {
    out.push([`agent[${i}]`, `${a.url}:${a.indexes}`], [`agent_time[${i}]`, (a.ms / 1000).toFixed(3)]);
    out.push([`agent_total_found[${i}]`, String(a.result?.totalFound ?? 0)], [`agent_response_bytes[${i}]`, String(a.bytes)]);
    out.push([`agent_attempts[${i}]`, String(a.attempts)]);
    if (a.failure) out.push([`agent_error[${i}]`, a.failure]);
  });
  return out;
}

/** Failures and remote warnings as Manticore's report: `table d: agent h:p: ...`, one per line. */
function report(table: string, lines: string[]): string | undefined {
  const unique = [...new Set(lines)];
  return unique.length ? unique.map((l) => `table ${table}: ${l}`).join(';\n') : undefined;
}

/**
 * `counted`: whether SHOW STATUS dist_* counts this query (the statement's own SELECT; its FACETs and
 * aggs run in the same batch, which Manticore counts once).
 */
export async function execDistributedSelect(
  catalog: Catalog, def: DistributedDef, st: SelectStatement, session: Session, flags: GlobalFlags, counted = true,
): Promise<RowsResult> {
  const started = performance.now();
  checkHaving(st);
  const plan = planShards(st);
  const live = def.agents.filter((a) => !a.blackhole);
  if (def.agents.length) remoteQuery(plan.shard, def.name); // refuses what agents cannot be sent, before any is
  for (const a of def.agents) if (a.blackhole) sendToBlackhole(def, a, plan.shard, flags.collation);
  const remote = Promise.all(live.map((a) => queryAgent(def, a, plan.shard, flags.collation)));
  const localStarted = performance.now();
  const locals = await Promise.all(def.locals.map((name) => runLocal(catalog, name, plan, flags)));
  const localMs = performance.now() - localStarted;
  const remotes = await remote;
  const shards: ShardRows[] = [];
  const failures: string[] = [];
  for (const l of locals) {
    if (l.rows) shards.push(l.rows);
    else failures.push(`${l.name}: ${l.failure}`);
    if (l.rows?.warning) failures.push(l.rows.warning);
  }
  for (const a of remotes) {
    const r = a.result;
    if (!r) { failures.push(`agent ${a.url}: ${a.failure}`); continue; }
    if (r.error) { failures.push(`agent ${a.url}: remote query error: ${r.error}`); continue; }
    if (r.warning) failures.push(`agent ${a.url}: remote query warning: ${r.warning}`);
    shards.push(fromRemote(r));
  }
  const answered = locals.some((l) => l.rows) || remotes.some((a) => a.result && !a.result.error);
  const message = report(def.name, failures);
  if (!answered) throw new SearchError('QUERY_ERROR', message ?? `table ${def.name}: no shard answered`);
  const coll = collation(flags.collation);
  const merged = plan.grouped ? mergeGrouped(plan, shards, coll) : mergePlain(plan, shards, coll);
  // aggregates without GROUP BY: one row over all matches, whose count total_found reports (as a local table)
  if (plan.grouped && !plan.groupKeys.length) merged.totalFound = shards.reduce((n, s) => n + s.totalFound, 0);
  const meta: SearchMeta = {
    total: merged.rows.length, totalFound: merged.totalFound,
    totalRelation: shards.some((s) => s.gte) && !plan.grouped ? 'gte' : 'eq',
    timeMs: performance.now() - started, keywords: mergeKeywords(shards), extra: agentMeta(remotes),
  };
  if (message) meta.warning = message;
  // SHOW STATUS dist_*: only queries that asked remote agents, as Manticore counts them
  if (live.length && counted) metrics.observeDist(meta.timeMs, localMs, remotes.reduce((n, a) => n + a.ms, 0));
  session.lastMeta = meta;
  session.lastWarning = message;
  return rows(merged.columns, merged.rows, {
    meta, weights: st.match !== undefined ? merged.weights : undefined, ...(message ? { warning: message } : {}),
  });
}
