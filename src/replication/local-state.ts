/**
 * This node's clusters, kept in the store's meta (lmdb, beside the tables): for each cluster the
 * tables it replicates here, and under a key of its own the stream sequence applied so far, which a
 * replicated write stores in its own commit (Store.alongside) so the two can never disagree.
 */
import { CLUSTERS_META_KEY } from '../engine/replication-hook.js';
import type { Store } from '../store/index.js';

export interface ClusterState {
  /** Last stream sequence applied to this node's tables. */
  seq: number;
  /**
   * Set while op `partial` (one of several commits, a /bulk) is part-way applied: after a crash
   * the tables are not at `seq`, and are restored from a snapshot (cluster-snapshots.ts).
   */
  partial?: number;
  /** Tables of the cluster (lower-cased). */
  tables: string[];
  /** The address given to JOIN CLUSTER ... AT, or this node's own for CREATE CLUSTER. */
  nodesSet: string;
  /** ADD snapshots this node applied (object name, op sequence): deleted once the stream is trimmed past them. */
  adds?: { name: string; seq: number }[];
  /**
   * Set while ops this node had applied once are applied again (restored after a crash inside a
   * /bulk): through sequence `upto` only the tables that were still in the cluster then (`tables`)
   * are written or loaded; the others were dropped from it before the crash, and hold local writes
   * since. Stored, so a crash during the replay resumes it under the same rule.
   */
  replay?: { upto: number; tables: string[] };
}

/** The applied sequence as stored (what a replicated write's commit carries). */
export interface AppliedRecord { seq: number; partial?: number }

const META_KEY = CLUSTERS_META_KEY;
export const appliedKey = (cluster: string) => `replication_applied:${cluster}`;

export class LocalState {
  #clusters: Record<string, ClusterState>;
  constructor(private readonly store: Store) {
    const stored = (store.getMeta(META_KEY) as Record<string, ClusterState> | undefined) ?? {};
    this.#clusters = Object.fromEntries(Object.entries(stored).map(([c, cs]) => {
      const applied = store.getMeta(appliedKey(c)) as AppliedRecord | undefined;
      return [c, { ...cs, seq: applied?.seq ?? cs.seq, partial: applied?.partial }];
    }));
  }

  names(): string[] { return Object.keys(this.#clusters).sort(); }

  get(cluster: string): ClusterState | undefined { return this.#clusters[cluster]; }

  /** The cluster a table belongs to on this node, if any. */
  clusterOf(table: string): string | undefined {
    const t = table.toLowerCase();
    return this.names().find((c) => this.#clusters[c]!.tables.includes(t));
  }

  /** Stores the cluster's tables and applied sequence (membership changes, restores). */
  async put(cluster: string, state: ClusterState): Promise<void> {
    const { partial: _p, ...kept } = state;
    this.#clusters = { ...this.#clusters, [cluster]: kept };
    await Promise.all([this.store.setMeta(META_KEY, this.#clusters), this.store.setMeta(appliedKey(cluster), { seq: kept.seq })]);
  }

  /** Replaces the list of ADD snapshots kept (the applied sequence is left alone: a write may be committing it). */
  async setAdds(cluster: string, adds: ClusterState['adds']): Promise<void> {
    const cs = this.#clusters[cluster];
    if (!cs) return;
    this.#clusters = { ...this.#clusters, [cluster]: { ...cs, adds } };
    await this.store.setMeta(META_KEY, this.#clusters);
  }

  /**
   * Runs `fn` (applying op `seq`) with `record` stored in every commit it makes: { seq } for an op of
   * one commit, { seq: seq - 1, partial: seq } for one of several. Resolves with the commits made.
   */
  alongside<T>(cluster: string, record: AppliedRecord, fn: () => Promise<T>, onCommit?: (n: number) => void): Promise<{ result: T; commits: number }> {
    return this.store.alongside(appliedKey(cluster), record, fn, onCommit);
  }

  /** Op `seq` is applied; `record` false when its own commit stored the sequence already. */
  async applied(cluster: string, seq: number, record: boolean): Promise<void> {
    const cs = this.#clusters[cluster];
    if (!cs) return;
    const { partial: _p, ...kept } = cs;
    this.#clusters = { ...this.#clusters, [cluster]: { ...kept, seq } };
    if (record) await this.store.setMeta(appliedKey(cluster), { seq });
  }

  async remove(cluster: string): Promise<void> {
    const { [cluster]: _gone, ...rest } = this.#clusters;
    this.#clusters = rest;
    await Promise.all([this.store.setMeta(META_KEY, this.#clusters), this.store.setMeta(appliedKey(cluster), undefined)]);
  }
}
