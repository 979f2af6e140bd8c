/**
 * The persistent connection pools of distributed tables (agent_persistent, `conn=pconn`): one pool per
 * table, so DROP TABLE closes that table's connections and engine shutdown closes them all.
 */
import type { AgentRequestOptions } from '../../agent/agent-client.js';
import { AgentPool } from '../../agent/agent-pool.js';
import type { AgentSpec, DistributedDef } from './dist-def.js';
import { haFor } from './ha-settings.js';

const pools = new Map<string, AgentPool>();

/** The request options for one agent of `def`: its timeouts, and the table's pool when the agent is persistent. */
export function agentOptions(def: DistributedDef, agent: AgentSpec): AgentRequestOptions {
  const t: AgentRequestOptions = { connectMs: def.connectTimeoutMs, queryMs: def.queryTimeoutMs };
  if (agent.persistent) {
    let pool = pools.get(def.name);
    if (!pool) pools.set(def.name, (pool = new AgentPool(haFor(def.ha).poolLimit)));
    t.pool = pool;
  }
  return t;
}

/** Closes the table's persistent connections (DROP TABLE, CREATE over a dropped name). */
export function closeTablePool(name: string): void {
  pools.get(name)?.close();
  pools.delete(name);
}

/** Closes every persistent connection (engine shutdown). */
export function closeAllPools(): void {
  for (const name of [...pools.keys()]) closeTablePool(name);
}

/** The table's pool, if it has opened one (for tests and status). */
export function tablePool(name: string): AgentPool | undefined {
  return pools.get(name);
}
