/** The one place the engine constructs RT indexes (and the WASM core behind them). */
import type { IndexSchema } from '../index/types.js';
import { RtIndex, type RtIndexOptions } from '../index/rt-index.js';

/**
 * Segments a table is merged down to once quiet (Manticore's optimize_cutoff), whatever the thread
 * count. Manticore's default is twice the cores because it searches disk chunks in parallel; here the
 * query threads cut a segment into row ranges (search-parallel.ts), so more segments bring no
 * parallelism, and each one costs every query its planning, its evaluation call and its top-K in the
 * merge. Measured on 100k gcide loaded as the side-by-side loads it (/bulk of 1000): twice the 2 cores
 * left 4 segments and the default threads answered MySQL at 64 clients with 0.31-0.38 ms of server CPU
 * a query, all of it on the protocol thread, against 0.22-0.27 with threads = 1, whose cutoff of 2 left 2.
 */
export const IDLE_MERGE_CUTOFF = 2;

/** A table's index takes small writes in a RAM tail (ram-tail.ts): no segment built and merged per INSERT. */
const tableIndex = (): RtIndexOptions => ({ ramTail: true, idleMergeCutoff: IDLE_MERGE_CUTOFF });

export function createIndex(schema: IndexSchema): RtIndex {
  return new RtIndex(schema, tableIndex());
}

/** A table's index over a checkpoint's segment files (serializeSegment output), oldest first. */
export function loadIndex(schema: IndexSchema, files: Uint8Array[]): RtIndex {
  return RtIndex.fromSegments(schema, files, tableIndex());
}
