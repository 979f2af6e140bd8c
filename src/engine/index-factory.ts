/** The one place the engine constructs RT indexes (and the WASM core behind them). */
import type { IndexSchema } from '../index/types.js';
import { RtIndex, type RtIndexOptions } from '../index/rt-index.js';
import { queryThreads } from '../index/parallel/query-threads.js';

/**
 * A table's index takes small writes in a RAM tail (ram-tail.ts): no segment built and merged per INSERT;
 * once quiet, its segments are merged down to Manticore's default optimize_cutoff, twice the threads
 * (the cores unless the config says otherwise), never under 2.
 */
const tableIndex = (): RtIndexOptions => ({ ramTail: true, idleMergeCutoff: Math.max(2, 2 * queryThreads()) });

export function createIndex(schema: IndexSchema): RtIndex {
  return new RtIndex(schema, tableIndex());
}

/** A table's index over a checkpoint's segment files (serializeSegment output), oldest first. */
export function loadIndex(schema: IndexSchema, files: Uint8Array[]): RtIndex {
  return RtIndex.fromSegments(schema, files, tableIndex());
}
