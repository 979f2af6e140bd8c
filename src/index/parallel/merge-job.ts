/**
 * Merges on another thread: what the index hands over (a MergeJob: addresses of the parts' blobs in
 * the core's shared memory, snapshots of their deleted rows, their dictionaries), and the hook through
 * which the host supplies that thread (src/engine/background/merge-thread.ts in Node). src/index imports no Node
 * built-in: without a host thread, or over a core whose memory is not shared, merges run inline.
 */
import type { Core } from '../../wasm/core.js';
import type { Segment } from '../segment/segment.js';
import type { BuiltSegment } from '../segment/segment-builder.js';
import type { IndexSchema } from '../types.js';

/** One part of a merge as the merge thread reads it. */
export interface MergeJobPart {
  blobPtr: number;
  /** The deleted-rows bitmap when the job was made: the rows merged are the others. */
  deleted: Uint8Array;
  terms: readonly string[];
}

export interface MergeJob {
  schema: IndexSchema;
  parts: MergeJobPart[];
}

/** A part as the merge thread read it: its deleted rows then, and its version (Segment.version) then. */
export interface PartSnapshot {
  deleted: Uint8Array;
  version: number;
}

/**
 * Which part and row each row of a merge of `parts` comes from: the rows live for the merge (in the
 * snapshot it read, or now), in order, as mergeSegments numbers them.
 */
export function mergedRows(parts: readonly Segment[], snap?: readonly PartSnapshot[]): { part: Uint32Array; row: Uint32Array } {
  const live = (p: number, r: number) => (snap ? ((snap[p].deleted[r >>> 3] >>> (r & 7)) & 1) === 0 : !parts[p].isDeleted(r));
  let n = 0;
  parts.forEach((seg, p) => { for (let r = 0; r < seg.rows; r++) if (live(p, r)) n++; });
  const part = new Uint32Array(n);
  const row = new Uint32Array(n);
  let at = 0;
  parts.forEach((seg, p) => {
    for (let r = 0; r < seg.rows; r++) if (live(p, r)) { part[at] = p; row[at++] = r; }
  });
  return { part, row };
}

/**
 * Runs a job on another thread over `core`'s memory; resolves with the merged segment, whose host
 * columns (string, json, mva: JS values the thread does not get) the caller fills in.
 */
export type MergeRunner = (job: MergeJob) => Promise<BuiltSegment>;

/** Makes the runner for a core (null when there is no thread for it). */
export type MergeRunnerFactory = (core: Core) => MergeRunner | null;

let factory: MergeRunnerFactory | null = null;
const runners = new WeakMap<Core, MergeRunner | null>();

/** Installs (or with null removes) the merge threads indexes use from now on. */
export function setMergeRunnerFactory(f: MergeRunnerFactory | null): void {
  factory = f;
}

/** The merge thread of `core`, made on first use; null: merge inline. */
export function mergeRunner(core: Core): MergeRunner | null {
  if (!factory || !core.shared) return null;
  let r = runners.get(core);
  if (r === undefined) {
    r = factory(core);
    runners.set(core, r);
  }
  return r;
}
