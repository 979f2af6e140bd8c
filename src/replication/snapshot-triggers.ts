/**
 * When a cluster snapshot is due (after which the stream is trimmed): after `ops` ops, or once the ops
 * applied since the latest snapshot reach `bytes`, or once `intervalMs` has passed since it and at
 * least one op was applied. Manticore's replication (Galera) has no such settings: its history is
 * gcache.size bytes, a node behind it gets a full state transfer. quarry's searchd settings are
 * replication_snapshot_ops, replication_snapshot_bytes and replication_snapshot_interval.
 */

export interface SnapshotTriggers {
  /** Ops between snapshots (replication_snapshot_ops). */
  ops: number;
  /** Bytes of ops between snapshots (replication_snapshot_bytes; 0: no size trigger). */
  bytes: number;
  /** Milliseconds between snapshots while ops arrive (replication_snapshot_interval; 0: no time trigger). */
  intervalMs: number;
}

/** Ops between snapshots unless searchd's replication_snapshot_ops says otherwise. */
export const DEFAULT_SNAPSHOT_OPS = 10_000;
/** Bytes of ops between snapshots unless replication_snapshot_bytes says otherwise (128M, as the stream's history bound). */
export const DEFAULT_SNAPSHOT_BYTES = 128 * 1024 * 1024;

export const DEFAULT_TRIGGERS: SnapshotTriggers = { ops: DEFAULT_SNAPSHOT_OPS, bytes: DEFAULT_SNAPSHOT_BYTES, intervalMs: 0 };

/** What was applied since the latest snapshot. */
export interface SinceSnapshot { ops: number; bytes: number; ms: number }

/**
 * Whether a snapshot is due for the node of `rank` (0: the first by name): each trigger's threshold
 * times (rank + 1), so the next node takes over only when the one before it lags.
 */
export function snapshotDue(t: SnapshotTriggers, since: SinceSnapshot, rank = 0): boolean {
  if (since.ops <= 0) return false;
  const k = rank + 1;
  return since.ops >= t.ops * k || (t.bytes > 0 && since.bytes >= t.bytes * k) || (t.intervalMs > 0 && since.ms >= t.intervalMs * k);
}

/**
 * The bytes of ops this follower applied, by sequence, so the bytes since any later snapshot are
 * known (a snapshot another node took included). Ops applied before this process started are not
 * counted: after a restart the size trigger counts from there.
 */
export class AppliedBytes {
  /** (sequence, bytes applied through it), oldest first. */
  #marks: Array<[number, number]> = [];
  /** Bytes applied before the first mark. */
  #base = 0;
  #total = 0;

  add(seq: number, bytes: number): void {
    this.#total += bytes;
    this.#marks.push([seq, this.#total]);
  }

  /** Bytes applied after sequence `seq` (which never decreases between calls); the marks through it are forgotten. */
  since(seq: number): number {
    let i = 0;
    while (i < this.#marks.length && this.#marks[i]![0] <= seq) this.#base = this.#marks[i++]![1];
    this.#marks.splice(0, i);
    return this.#total - this.#base;
  }
}
