/**
 * UPDATE and DELETE on a distributed table, as Manticore forwards them: run on every local table, and
 * sent to every agent's tables as SphinxQL text (the SPHINXQL command, which Sphinx 2.2 and quarry
 * agents serve); the affected rows are added. An agent that fails is a warning while any shard
 * answered, the error when none did.
 */
import { sphinxqlAgent } from '../../agent/agent-client.js';
import type { DeleteStatement, UpdateStatement } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import { execDelete, execUpdate, type WriteContext } from '../exec/exec-write.js';
import { ok, type OkResult } from '../result.js';
import { mirrorOrder } from './agent-health.js';
import { haFor } from './ha-settings.js';
import { mirrorUrl, type DistributedDef } from './dist-def.js';

/** The statement's text with its table name replaced (the name right after UPDATE / DELETE FROM). */
function retarget(st: UpdateStatement | DeleteStatement, table: string): string {
  const head = st.kind === 'update' ? /^(\s*UPDATE\s+)(`[^`]+`|[^\s]+)/i : /^(\s*DELETE\s+FROM\s+)(`[^`]+`|[^\s]+)/i;
  if (!head.test(st.text)) throw new SearchError('UNSUPPORTED', `${st.kind.toUpperCase()} on a distributed table: cannot forward '${st.text}'`);
  return st.text.replace(head, `$1${table}`);
}

export async function execDistributedWrite(ctx: WriteContext, def: DistributedDef, st: UpdateStatement | DeleteStatement): Promise<OkResult> {
  const timeouts = { connectMs: def.connectTimeoutMs, queryMs: def.queryTimeoutMs };
  const jobs: Array<Promise<number>> = def.locals.map(async (name) => {
    const local = { ...st, table: name };
    return (await (local.kind === 'update' ? execUpdate(ctx, local) : execDelete(ctx, local))).affected;
  });
  const names: string[] = def.locals.map((l) => l);
  for (const agent of def.agents) {
    if (agent.blackhole) continue;
    const m = mirrorOrder(agent, def.haStrategy, Math.random, haFor(def.ha).karmaPeriodMs)[0]!;
    for (const table of m.indexes.split(/[\s,]+/).filter(Boolean)) {
      names.push(`agent ${mirrorUrl(m)}`);
      jobs.push(sphinxqlAgent(m, retarget(st, table), timeouts));
    }
  }
  const settled = await Promise.allSettled(jobs);
  const failures = settled.flatMap((r, i) => (r.status === 'rejected' ? [`table ${def.name}: ${names[i]}: ${(r.reason as Error).message}`] : []));
  const affected = settled.reduce((n, r) => n + (r.status === 'fulfilled' ? r.value : 0), 0);
  if (failures.length === settled.length) throw new SearchError('QUERY_ERROR', failures.join(';\n'));
  return ok(affected, failures.length ? { warning: failures.join(';\n') } : {});
}
