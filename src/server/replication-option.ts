/**
 * searchd's replication settings: `replication_nats` (quarry's own: the NATS servers) turns replication
 * on; the node's name in its clusters is `node_address` if set, else its binary-API (`listen` sphinx)
 * address, else its MySQL one, as Manticore names nodes by address.
 */
import { startReplication, parseReplicationNats } from '../replication/index.js';
import type { ExecContext } from '../engine/exec/executor.js';
import type { Store } from '../store/index.js';
import { lastValue, type ManticoreConfig } from './config-parser.js';
import { formatAddress } from './listen.js';
import type { ServeOptions } from './serve-options.js';

export function replicationOf(config: ManticoreConfig | undefined, options: ServeOptions) {
  const nats = lastValue(config?.searchd, 'replication_nats');
  if (nats === undefined) return undefined;
  const servers = parseReplicationNats(nats);
  const a = options.agent ?? options.mysql;
  const node = lastValue(config?.searchd, 'node_address') ?? formatAddress(a.host, a.port);
  return (ctx: ExecContext, store: Store) => startReplication(ctx, store, { servers, node });
}
