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
import type { Store } from '../../store/index.js';
import type { Segment } from '../../index/segment/segment.js';
import { serializeSegmentInTurns } from '../../index/segment/segment-codec.js';
import type { Table } from '../table.js';
import { logWarning } from '../../util/server-log.js';

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
  constructor(seq: bigint, entries: readonly { bytes?: Uint8Array }[], cause: unknown) {
    const fresh = entries.filter((e) => e.bytes);
    const bytes = fresh.reduce((n, e) => n + e.bytes!.length, 0);
    super(`${entries.length} segment(s) at seq ${seq}, ${fresh.length} new of ${bytes} bytes: ${(cause as Error)?.message ?? String(cause)}`, { cause });
  }
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
      // a big segment's bytes are copied a slice per turn (queries run in between); writes wait for the lock
      const entries: { name: string; bytes?: Uint8Array }[] = [];
      for (const [i, seg] of segments.entries()) {
        const was = saved.get(seg);
        if (was && was.version === seg.version && listed.has(was.name)) entries.push({ name: was.name });
        else entries.push({ name: `seg-${stamp}-${i}.bin`, bytes: await serializeSegmentInTurns(seg) });
      }
      try {
        await this.store.saveCheckpoint(table.name, entries, seq);
      } catch (e) {
        throw new CheckpointFailure(seq, entries, e);
      }
      segments.forEach((seg, i) => saved.set(seg, { name: entries[i].name, version: seg.version }));
      await this.store.pruneOps(table.name, seq);
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
