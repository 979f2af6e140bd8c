/**
 * Snapshots of a whole cluster and the stream's trimming. When one is due (snapshot-triggers.ts: ops,
 * bytes or time since the latest) one node (the first by name, else the next when it lags: node k
 * waits for (k+1) times each threshold) copies every table of the
 * cluster at the sequence it just applied into the object store as `cluster@<seq>`; then the stream
 * is trimmed through that sequence, or through the oldest sequence a node keeping up has applied when
 * one is behind it. A node whose next op was trimmed (down across a trim, or joining) loads the
 * latest snapshot and follows the stream from just after it. The snapshots of tables' ADD ops the
 * trim removed (this node's record of those it applied) are deleted with the older cluster snapshots.
 */
import { serialize, deserialize } from 'node:v8';
import type { Catalog } from '../engine/catalog.js';
import { SearchError } from '../util/errors.js';
import type { ClusterLog } from './cluster-log.js';
import { loadSnapshot, takeSnapshot } from './table-snapshot.js';
import { AppliedBytes, snapshotDue, type SinceSnapshot, type SnapshotTriggers } from './snapshot-triggers.js';

/** At most one bucket read per this many milliseconds when the size or time trigger asks. */
const CHECK_MS = 1000;

/** Cluster snapshots kept in the bucket: the latest, and the one before for a node loading it now. */
const KEEP_SNAPSHOTS = 2;

const PREFIX = 'cluster@';
export const clusterSnapshotName = (seq: number) => `${PREFIX}${String(seq).padStart(16, '0')}`;

/** The sequence a snapshot's name records; undefined for other objects (the tables' ADD snapshots). */
export function snapshotSeqOf(name: string): number | undefined {
  return name.startsWith(PREFIX) ? Number(name.slice(PREFIX.length)) : undefined;
}

/** The stream sequence through which the stream can go: the snapshot's, or a keeping-up node's applied one below it. */
export function trimPoint(snapshotSeq: number, acked: number[], every: number): number {
  const keepingUp = acked.filter((a) => a >= snapshotSeq - every);
  return Math.min(snapshotSeq, ...keepingUp);
}

export class ClusterSnapshots {
  /** Latest snapshot sequence known here (0: none). */
  #latest = 0;
  /** When #latest was taken or first seen here (the time trigger's start). */
  #latestAt = Date.now();
  #nextCheck = 0;
  #nextCheckAt = 0;
  #busy = false;
  readonly #bytes = new AppliedBytes();

  constructor(
    readonly cluster: string,
    readonly node: string,
    private readonly log: ClusterLog,
    private readonly catalog: Catalog,
    readonly triggers: SnapshotTriggers,
    /** Takes the names of the tables' ADD snapshots whose ops are at or below a sequence (trimmed). */
    private readonly takeAdds: (upto: number) => Promise<string[]>,
  ) {}

  /** The newest cluster snapshot's sequence in the bucket, if any. */
  async latest(): Promise<number | undefined> {
    const seqs = (await this.log.snapshotNames(this.cluster)).map(snapshotSeqOf).filter((s): s is number => s !== undefined);
    return seqs.length ? Math.max(...seqs) : undefined;
  }

  /** Ops between snapshots: a node applying within one such interval of a snapshot is keeping up. */
  get every(): number { return this.triggers.ops; }

  /** What this node applied since the latest snapshot it knows of, at `seq`. */
  #since(seq: number): SinceSnapshot {
    return { ops: seq - this.#latest, bytes: this.#bytes.since(this.#latest), ms: Date.now() - this.#latestAt };
  }

  #seen(latest: number): void {
    if (latest > this.#latest) { this.#latest = latest; this.#latestAt = Date.now(); }
  }

  /**
   * Called by the follower between ops (no write of the cluster's tables in flight) with op `seq`'s
   * size: takes this node's turn at a snapshot when one is due; its upload and the trim go on in the
   * background. The bucket is read at most every quarter interval of ops, or every CHECK_MS.
   */
  async afterApply(seq: number, tables: string[], bytes = 0): Promise<void> {
    this.#bytes.add(seq, bytes);
    if (this.#busy || !snapshotDue(this.triggers, this.#since(seq))) return;
    const now = Date.now();
    if (seq < this.#nextCheck && now < this.#nextCheckAt) return;
    this.#nextCheck = seq + Math.max(1, Math.floor(this.every / 4));
    this.#nextCheckAt = now + CHECK_MS;
    this.#seen((await this.latest()) ?? 0);
    const names = (await this.log.nodes(this.cluster)).map((n) => n.node).sort();
    const rank = Math.max(0, names.indexOf(this.node));
    if (!snapshotDue(this.triggers, this.#since(seq), rank)) return;
    const parts: [string, Uint8Array][] = [];
    for (const t of tables) parts.push([t, await takeSnapshot(this.catalog, t)]);
    this.#seen(seq);
    this.#busy = true;
    void this.#publish(seq, serialize(parts)).catch((e) => {
      console.error(`quarry: cluster '${this.cluster}': snapshot at ${seq} not stored:`, (e as Error).message);
    }).finally(() => { this.#busy = false; });
  }

  async #publish(seq: number, bytes: Uint8Array): Promise<void> {
    await this.log.putSnapshot(this.cluster, clusterSnapshotName(seq), bytes);
    const acked = (await this.log.nodes(this.cluster)).map((n) => n.acked);
    const trimmed = trimPoint(seq, acked, this.every);
    await this.log.trimThrough(this.cluster, trimmed);
    // older cluster snapshots, and the ADD snapshots no op left in the stream names
    const old = (await this.log.snapshotNames(this.cluster)).filter((n) => snapshotSeqOf(n) !== undefined).sort().slice(0, -KEEP_SNAPSHOTS);
    for (const name of [...old, ...(await this.takeAdds(trimmed))]) await this.log.deleteSnapshot(this.cluster, name);
  }

  /**
   * When the stream no longer holds op `applied + 1` (or `force`: this node's tables are not at
   * `applied`), loads the latest snapshot: its sequence and tables; undefined when following is enough.
   * `keep`: with `force`, the tables still in the cluster at `applied`; a snapshot taken before then
   * loads only those (the others were dropped from the cluster since, and are this node's own).
   */
  async restoreIfNeeded(applied: number, force: boolean, keep?: Set<string>): Promise<{ seq: number; tables: string[] } | undefined> {
    const first = await this.log.firstSeq(this.cluster);
    if (!force && applied + 1 >= first) return undefined;
    const latest = await this.latest();
    if (latest === undefined || latest + 1 < first) {
      // nothing trimmed yet: the stream from its start (each table's ADD loads it) rebuilds the tables
      if (first <= 1) return force ? { seq: 0, tables: [] } : undefined;
      throw new SearchError('INTERNAL', `cluster '${this.cluster}': the stream starts at ${first} and no snapshot reaches it`);
    }
    const all = deserialize(await this.log.getSnapshot(this.cluster, clusterSnapshotName(latest))) as [string, Uint8Array][];
    const parts = keep && force && latest <= applied ? all.filter(([t]) => keep.has(t)) : all;
    for (const [t, bytes] of parts) await loadSnapshot(this.catalog, t, bytes);
    this.#seen(latest);
    return { seq: latest, tables: parts.map(([t]) => t) };
  }
}
