/**
 * Where replication plugs into the executor (the layer itself is src/replication/): every statement is
 * offered to the hook first; it takes cluster statements, writes that name a cluster (`c:t`) or touch
 * a replicated table, and SHOW STATUS (its cluster_* rows), and leaves the rest to the local executor.
 */
import type { Statement } from '../sql/ast.js';
import { SearchError } from '../util/errors.js';
import type { BulkLine, BulkReply } from './json/json-bulk.js';
import type { EsBulkDoc, EsBulkItem } from './json/json-es-bulk.js';

export interface EsBulkReply { items: EsBulkItem[]; ok: boolean }
import type { JsonValue } from './json/json-value.js';
import type { Result } from './result.js';
import type { Session } from './session.js';

export type LocalRun = () => Promise<Result | Result[]>;

/** The store meta key under which src/replication keeps this node's clusters and their tables. */
export const CLUSTERS_META_KEY = 'replication_clusters';

/**
 * The cluster that replicates `table` here by the stored membership (read without NATS: an engine
 * opened on a data directory with no server, as `quarry import --data` does).
 */
export function storedClusterOf(meta: unknown, table: string): string | undefined {
  if (typeof meta !== 'object' || meta === null) return undefined;
  const t = table.toLowerCase();
  return Object.keys(meta).sort().find((c) => {
    const tables = (meta as Record<string, { tables?: unknown }>)[c]?.tables;
    return Array.isArray(tables) && tables.includes(t);
  });
}

/** The HTTP JSON writes a cluster can take (`"cluster":"c"` in the body). */
export type JsonWriteKind = 'insert' | 'replace' | 'update' | 'delete';

export interface ReplicationHook {
  /** The statement's results when the hook runs it; undefined leaves it to the local executor. */
  route(st: Statement, session: Session, local: LocalRun): Promise<Result | Result[]> | undefined;
  /** The same for a JSON write: its reply when the hook runs it, undefined to run it locally. */
  routeJson<T>(kind: JsonWriteKind, body: JsonValue, local: () => Promise<T>): Promise<T> | undefined;
  /** The same for a `/bulk` request: its reply when every line writes one cluster's tables. */
  routeBulk(lines: BulkLine[]): Promise<BulkReply> | undefined;
  /** The same for a `/_bulk` request: its reply when every document names `c:t` of one cluster. */
  routeEsBulk(docs: EsBulkDoc[]): Promise<EsBulkReply> | undefined;
  /**
   * Throws when a write run on this node only (a /bulk or /_bulk request the hook declined) targets a
   * replicated table or names a `cluster` (`"cluster"`, or `_index` `c:t`): it would land here only.
   */
  guardLocal(table: string, cluster: string | undefined, endpoint?: '/bulk' | '/_bulk'): void;
}

/** The `"cluster"` a JSON write names, if any (a non-string is left to the request's own checks). */
export function jsonCluster(body: JsonValue): string | undefined {
  const v = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, JsonValue>).cluster : undefined;
  return typeof v === 'string' && v !== '' ? v : undefined;
}

const DISABLED = 'replication is disabled (searchd replication_nats is not set)';

/** The table a write names, when it names one (INSERT/REPLACE, UPDATE, DELETE, TRUNCATE). */
export function writeTable(st: Statement): string | undefined {
  return st.kind === 'insert' || st.kind === 'update' || st.kind === 'delete' || st.kind === 'truncate' ? st.table : undefined;
}

/** A server without replication_nats: cluster statements and `c:t` names fail with Manticore's messages. */
export const NO_REPLICATION: ReplicationHook = {
  route(st) {
    switch (st.kind) {
      case 'create_cluster': throw new SearchError('BAD_VALUE', `can not create cluster '${st.cluster}': ${DISABLED}`);
      case 'join_cluster': throw new SearchError('BAD_VALUE', `can not join cluster '${st.cluster}': ${DISABLED}`);
      case 'alter_cluster': throw new SearchError('BAD_VALUE', `can not ALTER cluster '${st.cluster}': ${DISABLED}`);
      case 'delete_cluster': throw new SearchError('BAD_VALUE', `can not delete cluster '${st.cluster}': ${DISABLED}`);
      default: {
        const table = writeTable(st);
        const colon = table?.indexOf(':') ?? -1;
        if (colon > 0) throw new SearchError('UNKNOWN_TABLE', `unknown cluster '${table!.slice(0, colon)}'`);
        return undefined;
      }
    }
  },
  routeJson(_kind, body) {
    const cluster = jsonCluster(body);
    if (cluster !== undefined) throw new SearchError('UNKNOWN_TABLE', `unknown cluster '${cluster}'`);
    return undefined;
  },
  routeBulk() { return undefined; },
  routeEsBulk() { return undefined; },
  guardLocal(_table, cluster) {
    if (cluster !== undefined) throw new SearchError('UNKNOWN_TABLE', `unknown cluster '${cluster}'`);
  },
};
