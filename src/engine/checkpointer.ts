/**
 * Checkpoints: a table's segments written to files with the last sequence they cover, so a restart
 * loads them instead of re-indexing everything; ops covered by a checkpoint are pruned from the log.
 * Runs under the table's mutex, so the index is exactly the state after that sequence.
 *
 * Every checkpoint rewrites all segments of a changed table: deletes and attribute updates change
 * segments in place, and a kept file would miss them once their ops are pruned. (An incremental
 * scheme needs per-segment change tracking; measure before adding it.)
 */
import type { Store } from '../store/index.js';
import type { Table } from './table.js';

/** Default interval between checkpoint passes; QUARRY_CHECKPOINT_MS overrides it. */
export const CHECKPOINT_INTERVAL_MS = 10_000;

export class Checkpointer {
  /** Sequence each table's last checkpoint covers. */
  readonly #covered = new Map<string, bigint>();
  #timer?: NodeJS.Timeout;
  #running?: Promise<void>;
  #counter = 0;

  constructor(private readonly store: Store, private readonly tables: () => Table[]) {}

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

  async #pass(): Promise<void> {
    for (const t of this.tables()) {
      try {
        await this.checkpoint(t);
      } catch (e) {
        console.error(`checkpoint of table ${t.name} failed:`, e);
      }
    }
  }

  async checkpoint(table: Table): Promise<void> {
    await table.mutex.run(async () => {
      if (!this.store.getTable(table.name)) return; // dropped meanwhile
      const seq = this.store.lastSeq(table.name);
      if (this.#covered.get(table.name) === seq) return;
      const stamp = `${seq}-${++this.#counter}`;
      const entries = table.index.serializeSegments()
        .map((bytes, i) => ({ name: `seg-${stamp}-${i}.bin`, bytes }));
      await this.store.saveCheckpoint(table.name, entries, seq);
      await this.store.pruneOps(table.name, seq);
      this.#covered.set(table.name, seq);
    });
  }

  async stop(): Promise<void> {
    if (this.#timer) clearInterval(this.#timer);
    await this.#running;
    await this.runOnce();
  }
}
