/**
 * Checkpoints: a table's segments written to files with the last sequence they cover, so a restart
 * loads them instead of re-indexing everything; ops covered by a checkpoint are pruned from the log.
 * Runs under the table's mutex, so the index is exactly the state after that sequence.
 *
 * Checkpoints are incremental: a segment whose file the current checkpoint lists and that has not
 * changed since (same Segment object, same version: deletes and attribute updates bump it) is kept
 * by name; only new and changed segments are serialized and written. Before, every checkpoint of a
 * growing table rewrote all of it, under the table's mutex.
 */
import type { SegmentEntry, Store } from '../../store/index.js';
import type { Segment } from '../../index/segment/segment.js';
import { segmentFilePieces, serializeSegmentInTurns } from '../../index/segment/segment-codec.js';
import type { Table } from '../table.js';
import { logWarning } from '../../util/server-log.js';
import { phase } from '../../util/phase-trace.js';

interface SavedAs { name: string; version: number }

/**
 * The file each segment was last saved to or loaded from, at which version. Keyed by the segment
 * object, so merged-away and dropped segments fall out; a name is only reused while the table's
 * current checkpoint still lists it.
 */
const saved = new WeakMap<Segment, SavedAs>();

/**
 * Recovery: segments just loaded from checkpoint files `names` (same order). Only those still at
 * version 0 match their files; one marked during loading (a later file's copy of a row won) is
 * written afresh at the next checkpoint.
 */
export function noteLoadedSegments(segments: readonly Segment[], names: readonly string[]): void {
  segments.forEach((seg, i) => { if (seg.version === 0 && names[i]) saved.set(seg, { name: names[i], version: 0 }); });
}

/** Default interval between checkpoint passes; QUARRY_CHECKPOINT_MS overrides it. */
export const CHECKPOINT_INTERVAL_MS = 10_000;

/** Whether `segments` are, in order, the files `names` as saved: the checkpoint holds them as they are. */
function matchesFiles(segments: readonly Segment[], names: readonly string[]): boolean {
  return segments.length === names.length && segments.every((seg, i) => {
    const was = saved.get(seg);
    return was?.name === names[i] && was.version === seg.version;
  });
}

/**
 * A checkpoint the store could not save, with what it was writing: how many segments, how many of
 * them new and their bytes (what a full disk had to hold), at which sequence.
 */
class CheckpointFailure extends Error {
  constructor(seq: bigint, entries: readonly SegmentEntry[], cause: unknown) {
    const fresh = entries.filter((e) => e.bytes);
    const bytes = fresh.reduce((n, e) => n + entryBytes(e), 0);
    super(`${entries.length} segment(s) at seq ${seq}, ${fresh.length} new of ${bytes} bytes: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
}

/** Bytes of a new segment's file. */
function entryBytes(e: SegmentEntry): number {
  return e.bytes instanceof Uint8Array ? e.bytes.length : (e.bytes ?? []).reduce((n, p) => n + p.length, 0);
}

export class Checkpointer {
  /** Sequence each table's last checkpoint covers. */
  readonly #covered = new Map<string, bigint>();
  #timer?: NodeJS.Timeout;
  #running?: Promise<void>;
  #counter = 0;

  /** `onWrote`: after a pass that wrote a checkpoint (its buffers are garbage from then on). */
  constructor(private readonly store: Store, private readonly tables: () => Table[], private readonly onWrote?: () => void) {}

  noteCovered(table: string, seq: bigint): void {
    this.#covered.set(table, seq);
  }

  start(intervalMs: number): void {
    this.#timer = setInterval(() => { void this.runOnce(); }, intervalMs);
    this.#timer.unref();
  }

  /** One pass over all tables; overlapping calls share the pass in flight. */
  runOnce(): Promise<void> {
    this.#running ??= this.#pass().finally(() => { this.#running = undefined; });
    return this.#running;
  }

  /**
   * A pass begun after this call: one in flight may have passed a table before its latest writes, so
   * it is waited for, not shared (BACKUP's: its copy then holds every table's segments up to the call).
   */
  async runFresh(): Promise<void> {
    await this.#running;
    return this.runOnce();
  }

  async #pass(): Promise<void> {
    let wrote = false;
    for (const t of this.tables()) {
      try {
        wrote = (await this.checkpoint(t)) || wrote;
      } catch (e) {
        logWarning(`checkpoint of table ${t.name} failed: ${(e as Error).message}`, e instanceof CheckpointFailure ? e.cause : e);
      }
    }
    if (wrote) this.onWrote?.();
  }

  /**
   * Writes the table's checkpoint unless it already covers the table's last op with the segments the
   * table has now; whether it wrote.
   */
  async checkpoint(table: Table): Promise<boolean> {
    return table.mutex.run(async () => {
      if (!this.store.getTable(table.name)) return false; // dropped meanwhile
      // replaced meanwhile (ATTACH ... WITH TRUNCATE): its segments are not the table's any more
      if (!this.tables().includes(table)) return false;
      const seq = this.store.lastSeq(table.name);
      const names = this.store.checkpointNames(table.name);
      // a copy: a merge may swap segments in while a big one is copied in turns (its parts stay pinned)
      const segments = table.index.segments.slice();
      // no new op is not enough: a merge (OPTIMIZE, the merge policy) changes the segments without one
      if (this.#covered.get(table.name) === seq && matchesFiles(segments, names)) return false;
      // unique among the listed files: a checkpoint of a merge at the sequence an earlier process
      // checkpointed (whose counter started at 0 too) would otherwise reuse their names
      let stamp: string;
      do stamp = `${seq}-${++this.#counter}`; while (names.some((n) => n.startsWith(`seg-${stamp}-`)));
      const listed = new Set(names);
      // a new segment's blob is written from the core's shared memory as it is, a step at a time
      // (writePiecesDurable): copied into a buffer of its own and checksummed in one go, a 10M table's
      // checkpoint after its last merges held up the first queries (S20: a phrase of 6.8 ms took 99). Over
      // unshared memory it is copied a slice per turn. Writes wait for the lock; the new segments stay pinned.
      const entries: SegmentEntry[] = [];
      const pinned: Segment[] = [];
      phase(`checkpoint ${table.name} start`);
      try {
        for (const [i, seg] of segments.entries()) {
          const was = saved.get(seg);
          if (was && was.version === seg.version && listed.has(was.name)) { entries.push({ name: was.name }); continue; }
          seg.pin();
          pinned.push(seg);
          entries.push({ name: `seg-${stamp}-${i}.bin`, bytes: segmentFilePieces(seg) ?? await serializeSegmentInTurns(seg) });
        }
        phase(`checkpoint ${table.name} save ${entries.filter((e) => e.bytes).map(entryBytes).join('+')} bytes`);
        await this.store.saveCheckpoint(table.name, entries, seq);
      } catch (e) {
        throw new CheckpointFailure(seq, entries, e);
      } finally {
        for (const seg of pinned) seg.unpin();
      }
      segments.forEach((seg, i) => saved.set(seg, { name: entries[i].name, version: seg.version }));
      phase(`checkpoint ${table.name} prune`);
      await this.store.pruneOps(table.name, seq);
      phase(`checkpoint ${table.name} done`);
      this.#covered.set(table.name, seq);
      return true;
    });
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    await this.#running;
    await this.runOnce();
  }
}
