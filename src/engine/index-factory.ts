/** The one place the engine constructs RT indexes (and the WASM core behind them). */
import type { IndexSchema } from '../index/types.js';
import { RtIndex, type RtIndexOptions } from '../index/rt-index.js';

/** A table's index takes small writes in a RAM tail (ram-tail.ts): no segment built and merged per INSERT. */
const TABLE_INDEX: RtIndexOptions = { ramTail: true };

export function createIndex(schema: IndexSchema): RtIndex {
  return new RtIndex(schema, TABLE_INDEX);
}

/** A table's index over a checkpoint's segment files (serializeSegment output), oldest first. */
export function loadIndex(schema: IndexSchema, files: Uint8Array[]): RtIndex {
  return RtIndex.fromSegments(schema, files, TABLE_INDEX);
}
