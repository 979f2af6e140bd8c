/**
 * searchd's replication settings: `replication_nats` (quarry's own: the NATS servers) turns replication
 * on; the node's name in its clusters is `node_address` if set, else its binary-API (`listen` sphinx)
 * address, else its MySQL one, as Manticore names nodes by address. When a cluster snapshot is due,
 * after which the stream is trimmed (quarry's own settings; Manticore's Galera has none): every
 * `replication_snapshot_ops` ops, `replication_snapshot_bytes` of ops (Manticore's size syntax, `64M`;
 * 0 off) or `replication_snapshot_interval` (its time syntax, `10m`; 0 off) since the latest snapshot.
 */
import { startReplication, parseReplicationNats } from '../replication/index.js';
import type { ExecContext } from '../engine/exec/executor.js';
import type { Store } from '../store/index.js';
import { lastValue, type ManticoreConfig } from './config-parser.js';
import { formatAddress } from './listen.js';
import { SearchError } from '../util/errors.js';
import type { ServeOptions } from './serve-options.js';
import { parseDuration, parseSize } from './cli-args.js';
import type { SnapshotTriggers } from '../replication/snapshot-triggers.js';

/** A setting's value, its parse error naming it. */
function setting(name: string, parse: () => number): number {
  try {
    return parse();
  } catch (e) {
    throw new SearchError('BAD_SETTING', `${name}: ${(e as Error).message}`);
  }
}

export function replicationOf(config: ManticoreConfig | undefined, options: ServeOptions) {
  const nats = lastValue(config?.searchd, 'replication_nats');
  if (nats === undefined) return undefined;
  const servers = parseReplicationNats(nats);
  const a = options.agent ?? options.mysql;
  const node = lastValue(config?.searchd, 'node_address') ?? formatAddress(a.host, a.port);
  const snapshots: Partial<SnapshotTriggers> = {};
  const ops = lastValue(config?.searchd, 'replication_snapshot_ops');
  if (ops !== undefined) {
    snapshots.ops = Number(ops);
    if (!(Number.isInteger(snapshots.ops) && snapshots.ops > 0)) throw new SearchError('BAD_SETTING', `replication_snapshot_ops: '${ops}' is not a positive integer`);
  }
  const bytes = lastValue(config?.searchd, 'replication_snapshot_bytes');
  if (bytes !== undefined) snapshots.bytes = setting('replication_snapshot_bytes', () => parseSize(bytes));
  const interval = lastValue(config?.searchd, 'replication_snapshot_interval');
  if (interval !== undefined) snapshots.intervalMs = setting('replication_snapshot_interval', () => parseDuration(interval));
  return (ctx: ExecContext, store: Store) => startReplication(ctx, store, { servers, node, snapshots });
}
