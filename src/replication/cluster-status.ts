/** SHOW STATUS's cluster_* rows, with Manticore's names (manual: Replication_cluster_status). */
import type { ClusterLog } from './cluster-log.js';
import type { Follower } from './follower.js';

/** Rows for one cluster as this node sees it; NATS unreachable shows as status `disconnected`. */
export async function clusterStatusRows(log: ClusterLog, f: Follower, self: string): Promise<string[][]> {
  const c = f.cluster;
  const cs = f.cs;
  const applied = cs?.seq ?? 0;
  let last = applied;
  let nodes: string[] = [self];
  let status = 'primary';
  try {
    last = await log.lastSeq(c);
    nodes = (await log.nodes(c)).map((n) => n.node);
  } catch {
    status = 'disconnected';
  }
  const tables = cs?.tables ?? [];
  return [
    ['cluster_name', c],
    [`cluster_${c}_state_seqno`, String(applied)],
    [`cluster_${c}_conf_id`, String(nodes.length)],
    [`cluster_${c}_status`, status],
    [`cluster_${c}_size`, String(nodes.length)],
    [`cluster_${c}_local_index`, String(Math.max(0, nodes.indexOf(self)))],
    [`cluster_${c}_node_state`, applied >= last ? 'synced' : 'joining'],
    [`cluster_${c}_indexes_count`, String(tables.length)],
    [`cluster_${c}_indexes`, tables.join(',')],
    [`cluster_${c}_nodes_set`, cs?.nodesSet ?? self],
    [`cluster_${c}_nodes_view`, nodes.join(',')],
    [`cluster_${c}_last_committed`, String(last)],
    [`cluster_${c}_last_error`, f.lastError],
  ];
}
