/**
 * Merges on another thread: what the index hands over (a MergeJob: addresses of the parts' blobs in
 * the core's shared memory, snapshots of their deleted rows, their dictionaries), and the hook through
 * which the host supplies that thread (src/engine/merge-thread.ts in Node). src/index imports no Node
 * built-in: without a host thread, or over a core whose memory is not shared, merges run inline.
 */
import type { Core } from '../wasm/core.js';
import type { BuiltSegment } from './segment-builder.js';
import type { IndexSchema } from './types.js';

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
