/**
 * searchd `replication_nats` (quarry's own option): the NATS servers holding the clusters' streams,
 * comma-separated, e.g. `replication_nats = nats://10.0.0.1:4222,nats://10.0.0.2:4222,nats://10.0.0.3:4222`.
 * Streams get as many replicas as servers are named, at most 3.
 */
import { SearchError } from '../util/errors.js';

export function parseReplicationNats(value: string): string[] {
  const servers = value.split(/[,\s]+/).filter(Boolean).map((s) => (s.includes('://') ? s : `nats://${s}`));
  for (const s of servers) {
    let url: URL;
    try { url = new URL(s); } catch { throw new SearchError('BAD_SETTING', `replication_nats: '${s}' is not a NATS server address`); }
    if (!/^(nats|tls):$/.test(url.protocol) || !url.hostname) throw new SearchError('BAD_SETTING', `replication_nats: '${s}' is not a NATS server address (nats://host:port)`);
  }
  if (servers.length === 0) throw new SearchError('BAD_SETTING', 'replication_nats: no NATS server named');
  return servers;
}
