/** The one place the engine constructs RT indexes (and the WASM core behind them). */
import type { IndexSchema } from '../index/types.js';
import { RtIndex, type RtIndexOptions } from '../index/rt-index.js';
import { SearchError } from '../util/errors.js';
import { textRowBuilder } from './text-row.js';

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

/**
 * searchd auto_optimize: 0 no idle compaction (OPTIMIZE still merges), 1 (default) compaction down to
 * the cutoff, 2 down to twice the cutoff (Manticore's throttle; SET GLOBAL auto_optimize=N multiplies it by N,
 * as searchd's g_iAutoOptimizeCutoffMultiplier). Each engine's catalog holds its own
 * (catalog.ts), so embedded open() of several engines in one process keeps each one's setting.
 */
export type AutoOptimize = number;
export const DEFAULT_AUTO_OPTIMIZE: AutoOptimize = 1;

/** A table's optimize_cutoff setting checked: a positive integer (CREATE / ALTER TABLE refuse others). */
export function checkOptimizeCutoff(table: string, settings: Record<string, string>): void {
  const v = settings.optimize_cutoff;
  if (v !== undefined && !/^\s*[1-9][0-9]{0,8}\s*$/.test(v)) {
    throw new SearchError('BAD_SETTING', `table '${table}': optimize_cutoff must be a positive integer (got '${v}')`);
  }
}

/**
 * The idle compaction's segment count for a table with these settings, under its engine's auto_optimize;
 * `defaultCutoff` is the one for a table without its own (SET GLOBAL optimize_cutoff changes it).
 */
export function idleCutoffOf(settings: Record<string, string>, autoOptimize: AutoOptimize, defaultCutoff = IDLE_MERGE_CUTOFF): number {
  if (autoOptimize === 0) return 0;
  // CREATE / ALTER TABLE and a config's table section (config-tables.ts) refuse a bad value; one a table
  // stored from a config read before that check keeps the default rather than compacting nothing (NaN)
  const set = Number.parseInt(settings.optimize_cutoff ?? '', 10);
  const cutoff = set >= 1 ? set : defaultCutoff;
  return autoOptimize * cutoff;
}

/**
 * A table's index takes small writes in a RAM tail (ram-tail.ts): no segment built and merged per INSERT;
 * their rows come as texts (text-row.ts), tokenized at the tail's seal, all in one batch.
 */
const tableIndex = (settings: Record<string, string>, autoOptimize: AutoOptimize, defaultCutoff?: number): RtIndexOptions =>
  ({ ramTail: true, idleMergeCutoff: idleCutoffOf(settings, autoOptimize, defaultCutoff), tailBuilder: textRowBuilder });

/**
 * `settings`: the table's settings (optimize_cutoff); `autoOptimize`: its engine's searchd auto_optimize;
 * `defaultCutoff`: its engine's optimize_cutoff for tables without their own.
 */
export function createIndex(schema: IndexSchema, settings: Record<string, string>, autoOptimize: AutoOptimize, defaultCutoff?: number): RtIndex {
  return new RtIndex(schema, tableIndex(settings, autoOptimize, defaultCutoff));
}

/** A table's index over a checkpoint's segment files (serializeSegment output), oldest first. */
export function loadIndex(schema: IndexSchema, files: Uint8Array[], settings: Record<string, string>, autoOptimize: AutoOptimize): RtIndex {
  return RtIndex.fromSegments(schema, files, tableIndex(settings, autoOptimize));
}
