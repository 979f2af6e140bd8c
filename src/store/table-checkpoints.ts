import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SearchError } from '../util/errors.js';
import type { CatalogEntry } from './catalog.js';
import { loadSegments, saveSegments } from './checkpoint.js';
import { fsyncDirSync } from './durable-fs.js';
import { deleteRange } from './gc.js';
import { opsUpTo } from './keys.js';
import type { StoreDbs } from './lmdb-env.js';
import type { MaintenanceQueue } from './maintenance-queue.js';
import { emptyManifest, MANIFEST_FILE, readManifest, type Manifest } from './manifest.js';
import type { Checkpoint, SegmentEntry } from './types.js';

/** What the checkpoints need of the store. */
export interface CheckpointHost {
  /** Read at each use: the store replaces its databases when it releases mapped pages. */
  readonly dbs: StoreDbs;
  readonly queue: MaintenanceQueue;
  readonly readOnly: boolean;
  readonly deleteChunk: number;
  readonly manifestSwapDelayMs: number;
  checkOpen(): void;
  entry(name: string): CatalogEntry;
  lastSeqOf(e: CatalogEntry): bigint;
  genDir(name: string, gen: number): string;
}

/**
 * Each table's checkpoint (its manifest, cached by generation, and segment files) and the pruning of
 * the op log it covers. Names given here are table keys (catalog.ts tableKey).
 */
export class TableCheckpoints {
  /** Manifests by generation, read lazily; dropped when the generation ends. */
  readonly #manifests = new Map<number, Manifest>();
  readonly #host: CheckpointHost;

  constructor(host: CheckpointHost) {
    this.#host = host;
  }

  /** Caches the manifest of generation `gen` (read at open). */
  remember(gen: number, m: Manifest): void {
    this.#manifests.set(gen, m);
  }

  /** Drops the cached manifest of a generation that ended. */
  forget(gen: number): void {
    this.#manifests.delete(gen);
  }

  /** Records a checkpoint covering every op up to `lastSeq` (Store.saveCheckpoint). */
  async save(name: string, segments: SegmentEntry[], lastSeq: bigint): Promise<void> {
    const h = this.#host;
    await h.queue.run(name, async () => {
      h.checkOpen();
      const e = h.entry(name);
      const cur = this.manifest(e);
      const now = h.lastSeqOf(e);
      if (lastSeq < cur.lastSeq || lastSeq > now) {
        throw new SearchError('BAD_VALUE', `checkpoint of '${name}' at seq ${lastSeq} outside ${cur.lastSeq}..${now}`);
      }
      const dir = h.genDir(name, e.gen);
      const next = await saveSegments(dir, e.gen, cur, segments, lastSeq, h.manifestSwapDelayMs);
      this.#manifests.set(e.gen, next);
    });
  }

  /** The last saved checkpoint (empty, at the generation's base sequence, if none). */
  load(name: string): Checkpoint {
    const e = this.#host.entry(name);
    return loadSegments(this.#host.genDir(name, e.gen), e.gen, e.baseSeq);
  }

  /** Deletes a damaged checkpoint's manifest (first: without it no file is trusted), then its files. */
  discard(name: string): void {
    const h = this.#host;
    h.checkOpen();
    if (h.readOnly) return;
    const e = h.entry(name);
    const dir = h.genDir(name, e.gen);
    rmSync(join(dir, MANIFEST_FILE), { force: true });
    if (existsSync(dir)) fsyncDirSync(dir);
    rmSync(dir, { recursive: true, force: true });
    this.#manifests.set(e.gen, emptyManifest(e.gen, e.baseSeq));
  }

  /** Deletes op records covered by both `uptoSeq` and the checkpoint (Store.pruneOps). */
  prune(name: string, uptoSeq: bigint): Promise<number> {
    const h = this.#host;
    return h.queue.run(name, () => {
      h.checkOpen();
      const e = h.entry(name);
      const covered = this.manifest(e).lastSeq;
      const upto = uptoSeq < covered ? uptoSeq : covered;
      return deleteRange(h.dbs, h.dbs.ops, opsUpTo(e.gen, upto), h.deleteChunk);
    });
  }

  /** The manifest of the entry's generation, read from disk on first use. */
  manifest(e: CatalogEntry): Manifest {
    let m = this.#manifests.get(e.gen);
    if (!m) {
      const dir = this.#host.genDir(e.schema.name, e.gen);
      m = readManifest(dir) ?? emptyManifest(e.gen, e.baseSeq);
      this.#manifests.set(e.gen, m);
    }
    return m;
  }
}
