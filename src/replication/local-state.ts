/**
 * This node's clusters, kept in the store's meta (lmdb, beside the tables): for each cluster the
 * stream sequence applied so far and the tables it replicates here.
 */
import type { Store } from '../store/index.js';

export interface ClusterState {
  /** Last stream sequence applied to this node's tables. */
  seq: number;
  /** Tables of the cluster (lower-cased). */
  tables: string[];
  /** The address given to JOIN CLUSTER ... AT, or this node's own for CREATE CLUSTER. */
  nodesSet: string;
}

const META_KEY = 'replication_clusters';

export class LocalState {
  #clusters: Record<string, ClusterState>;
  constructor(private readonly store: Store) {
    this.#clusters = { ...((store.getMeta(META_KEY) as Record<string, ClusterState> | undefined) ?? {}) };
  }

  names(): string[] { return Object.keys(this.#clusters).sort(); }

  get(cluster: string): ClusterState | undefined { return this.#clusters[cluster]; }

  /** The cluster a table belongs to on this node, if any. */
  clusterOf(table: string): string | undefined {
    const t = table.toLowerCase();
    return this.names().find((c) => this.#clusters[c]!.tables.includes(t));
  }

  async put(cluster: string, state: ClusterState): Promise<void> {
    this.#clusters = { ...this.#clusters, [cluster]: state };
    await this.store.setMeta(META_KEY, this.#clusters);
  }

  async remove(cluster: string): Promise<void> {
    const { [cluster]: _gone, ...rest } = this.#clusters;
    this.#clusters = rest;
    await this.store.setMeta(META_KEY, this.#clusters);
  }
}
