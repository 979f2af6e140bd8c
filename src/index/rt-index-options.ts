/**
 * What an RtIndex (rt-index.ts) is made with and what a write carries between its halves: its
 * options and a prepared batch. Split from rt-index.ts, which re-exports both.
 */
import type { Core } from '../wasm/core.js';
import type { MergePolicy } from './merge-policy.js';
import type { Segment } from './segment/segment.js';
import type { BuiltSegment } from './segment/segment-builder.js';
import type { DocInput, IndexSchema } from './types.js';

export interface RtIndexOptions {
  /** The core instance holding this index's segments (default: the process-wide one). */
  core?: Core;
  mergePolicy?: MergePolicy;
  /**
   * When the merge policy runs after addBatch: 'deferred' (default) in a later event-loop turn, so a
   * merge never delays the write that caused it; true right inside addBatch; false never (call
   * maybeMerge()).
   */
  autoMerge?: boolean | 'deferred';
  /**
   * Small writes go to a RAM tail (ram-tail.ts), sealed into one segment when it is read, full or idle,
   * instead of a segment each (default false: the engine's tables set it, index-factory.ts).
   */
  ramTail?: boolean;
  /**
   * Once the table is quiet, merges its segments down to this many (merge-scheduler.ts compactRange;
   * Manticore's optimize_cutoff). 0 (default): the tiered policy alone. Needs autoMerge 'deferred'.
   */
  idleMergeCutoff?: number;
  /** How the RAM tail's rows of texts (DocInput.texts) become a segment (default: from their fields, here). */
  tailBuilder?: TailBuilder;
}

/**
 * Builds the RAM tail's rows into a segment from their texts in one batch (the engine's text pipeline:
 * engine/text-row.ts). Answers null for rows it cannot build so (not all rows of texts of one pipeline):
 * the index then builds them from their fields.
 */
export interface TailBuilder {
  build(schema: IndexSchema, rows: DocInput[]): BuiltSegment | null;
}

/**
 * A write made ready by prepareBatch, visible after applyBatch: its segment built and placed in the
 * core, or (a small write to an index with a RAM tail) its rows, with those withheld by withholdRows.
 */
export interface PreparedBatch { seg?: Segment; rows?: DocInput[]; withheld?: Set<number> }
