/**
 * One remote agent of a distributed query: a mirror picked by the table's ha_strategy, the query sent
 * over the binary API within agent_connect_timeout / agent_query_timeout, and on failure up to
 * agent_retry_count further attempts, each on the next mirror (Manticore's mirror retries). A blackhole
 * agent is sent the query and never waited for. A persistent agent's connections come from the table's pool.
 */
import type { CollationName } from '../../util/collation.js';
import { searchAgentSized } from '../../agent/agent-client.js';
import type { AgentResult } from '../../agent/search-write.js';
import type { SelectStatement } from '../../sql/ast.js';
import { agentOptions } from './agent-pools.js';
import { mirrorOrder, noteFailure, noteStart, noteSuccess } from './agent-health.js';
import { mirrorUrl, type AgentSpec, type DistributedDef } from './dist-def.js';
import { haFor } from './ha-settings.js';
import { remoteQuery } from './remote-query.js';

export interface AgentOutcome {
  /** host:port of the mirror that answered (or failed last). */
  url: string;
  indexes: string;
  result?: AgentResult;
  /** The failure, in searchd's words, when no mirror answered. */
  failure?: string;
  ms: number;
  bytes: number;
  attempts: number;
}

export async function queryAgent(def: DistributedDef, agent: AgentSpec, st: SelectStatement, coll?: CollationName): Promise<AgentOutcome> {
  const karmaMs = haFor(def.ha).karmaPeriodMs;
  const order = mirrorOrder(agent, def.haStrategy, Math.random, karmaMs);
  const attempts = 1 + def.retryCount;
  const timeouts = agentOptions(def, agent);
  let last: AgentOutcome | undefined;
  for (let a = 0; a < attempts; a++) {
    const m = order[a % order.length]!;
    const started = performance.now();
    noteStart(m);
    const base = { url: mirrorUrl(m), indexes: m.indexes, attempts: a + 1 };
    try {
      const q = remoteQuery(st, m.indexes, coll);
      const { results, bytes } = await searchAgentSized(m, [q], timeouts);
      const result = results[0]!;
      const ms = performance.now() - started;
      noteSuccess(m, ms, !!result.warning, karmaMs);
      return { ...base, result, ms, bytes };
    } catch (e) {
      const message = (e as Error).message;
      noteFailure(m, message, karmaMs);
      last = { ...base, failure: message, ms: performance.now() - started, bytes: 0 };
    }
  }
  return last!;
}

/** A blackhole agent: every mirror is sent the query; replies and failures are ignored. */
export function sendToBlackhole(def: DistributedDef, agent: AgentSpec, st: SelectStatement, coll?: CollationName): void {
  const timeouts = agentOptions(def, agent);
  for (const m of agent.mirrors) {
    searchAgentSized(m, [remoteQuery(st, m.indexes, coll)], timeouts).catch(() => undefined);
  }
}
