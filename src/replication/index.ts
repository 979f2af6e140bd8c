/**
 * Replication over NATS JetStream (Manticore's cluster statements, JetStream's replicated streams
 * underneath): what the server hands the engine when searchd names `replication_nats`.
 */
import type { ExecContext } from '../engine/exec/executor.js';
import { createJsonApi } from '../engine/json/json-api.js';
import type { Store } from '../store/index.js';
import { ClusterAdmin } from './cluster-admin.js';
import { ClusterLog } from './cluster-log.js';
import { LocalState } from './local-state.js';
import { Replicator } from './replicator.js';
import { DEFAULT_TRIGGERS, type SnapshotTriggers } from './snapshot-triggers.js';

export { parseReplicationNats } from './nats-option.js';

export interface ReplicationOptions {
  /** NATS server URLs (searchd replication_nats). */
  servers: string[];
  /** This node's address, its name in every cluster (SHOW STATUS nodes_view, its durable consumer). */
  node: string;
  /** When cluster snapshots are due, after which the stream is trimmed (searchd replication_snapshot_ops, _bytes, _interval); unset ones keep their defaults. */
  snapshots?: Partial<SnapshotTriggers>;
}

export interface Replication { close(): Promise<void> }

/** Connects to NATS, resumes this node's clusters and installs the hook in `ctx`. */
export async function startReplication(ctx: ExecContext, store: Store, opts: ReplicationOptions): Promise<Replication> {
  const log = await ClusterLog.open(opts.servers);
  const localCtx: ExecContext = { ...ctx, replication: undefined };
  const admin = new ClusterAdmin(log, new LocalState(store), opts.node, ctx.catalog, { ctx: localCtx, json: createJsonApi(localCtx) },
    { ...DEFAULT_TRIGGERS, ...opts.snapshots });
  ctx.replication = new Replicator(admin, ctx);
  await admin.resume();
  return { close: () => admin.close() };
}
