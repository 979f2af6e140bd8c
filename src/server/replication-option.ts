/**
 * searchd's replication settings: `replication_nats` (quarry's own: the NATS servers) turns replication
 * on; the node's name in its clusters is `node_address` if set, else its binary-API (`listen` sphinx)
 * address, else its MySQL one, as Manticore names nodes by address. `replication_snapshot_ops` (quarry's
 * own) is how many ops a cluster's stream takes between snapshots, after which it is trimmed.
 */
import { startReplication, parseReplicationNats } from '../replication/index.js';
import type { ExecContext } from '../engine/exec/executor.js';
import type { Store } from '../store/index.js';
import { lastValue, type ManticoreConfig } from './config-parser.js';
import { formatAddress } from './listen.js';
import { SearchError } from '../util/errors.js';
import type { ServeOptions } from './serve-options.js';

export function replicationOf(config: ManticoreConfig | undefined, options: ServeOptions) {
  const nats = lastValue(config?.searchd, 'replication_nats');
  if (nats === undefined) return undefined;
  const servers = parseReplicationNats(nats);
  const a = options.agent ?? options.mysql;
  const node = lastValue(config?.searchd, 'node_address') ?? formatAddress(a.host, a.port);
  const ops = lastValue(config?.searchd, 'replication_snapshot_ops');
  const snapshotOps = ops === undefined ? undefined : Number(ops);
  if (snapshotOps !== undefined && !(Number.isInteger(snapshotOps) && snapshotOps > 0)) {
    throw new SearchError('BAD_SETTING', `replication_snapshot_ops: '${ops}' is not a positive integer`);
  }
  return (ctx: ExecContext, store: Store) => startReplication(ctx, store, { servers, node, snapshotOps });
}
