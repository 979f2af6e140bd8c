/**
 * Tiered merge policy (Lucene's LogMergePolicy, by live rows): a segment's level is
 * floor(log_F(rows)), every segment under MIN_LEVEL_ROWS on the lowest; a run of MERGE_FACTOR
 * adjacent segments on one level merges into one.
 * Adjacent runs keep the internal row order of full scans stable.
 *
 * No merge builds a segment of more than MAX_MERGED_ROWS live rows (Lucene's maxMergedSegmentMB,
 * Manticore's several disk chunks): a merge needs its parts and the result in one wasm32 core at once,
 * and a 10M-document table merged into one segment would need ~1.6 GB for each (synthetic corpus, ~160 B
 * a document), close to the core's 4 GiB with everything else in it. Big tables stay a few big segments,
 * which the query threads evaluate in parallel anyway.
 */

/** Segments per level before they merge; Lucene's default mergeFactor. */
export const MERGE_FACTOR = 10;
/**
 * Segments under this many live rows all share the lowest level (Lucene's minMergeSize). Without it,
 * group commit's rounds of 1 to 16 rows land on levels 0 and 1 by turns, no run of MERGE_FACTOR
 * adjacent segments on one level forms, and the small segments pile up unmerged (measured: 587
 * segments after 5,000 single-row INSERTs from 16 clients).
 */
export const MIN_LEVEL_ROWS = 100;
/** The largest segment a background merge builds (OPTIMIZE still merges everything into one). */
export const MAX_MERGED_ROWS = 4_000_000;
/**
 * A background merge builds at most this share of the table's live rows (never less than
 * MIN_CAPPED_ROWS): the protocol thread's core holds the merge's parts and its result at once while the
 * result is installed, and wasm32 memory, once grown, stays resident. Merging a 1M-row table's ten 100k
 * segments into one raised its PSS from 444 to 657 MiB (1.70x Sphinx's 386; the target is 1.5x), the core's
 * memory from 271 to 496 MiB (bench side-by-side --docs 1000000 --synthetic, session 12); a quarter keeps
 * the high-water a quarter of the index over it.
 */
export const MAX_MERGED_SHARE = 0.25;
/** Tables this small merge into one segment whatever the share (100k gcide: one segment, 113 us a query against 147 over 4). */
export const MIN_CAPPED_ROWS = 200_000;

export interface MergePolicy {
  /** The [start, end) range of adjacent segments to merge next, or null. */
  findMerge(liveRows: number[]): [number, number] | null;
  /** The most live rows a background merge of these segments may build (the idle compaction keeps to it too). */
  capRows?(liveRows: number[]): number;
}

export class TieredMergePolicy implements MergePolicy {
  constructor(
    readonly factor = MERGE_FACTOR, readonly maxMergedRows = MAX_MERGED_ROWS, readonly minLevelRows = MIN_LEVEL_ROWS,
    readonly maxShare = MAX_MERGED_SHARE,
  ) {}

  /** maxMergedRows, or less: maxShare of the live rows, but never under MIN_CAPPED_ROWS. */
  capRows(liveRows: number[]): number {
    let total = 0;
    for (const r of liveRows) total += r;
    return Math.min(this.maxMergedRows, Math.max(MIN_CAPPED_ROWS, Math.floor(total * this.maxShare)));
  }

  /**
   * 0 under minLevelRows, then one more per factor: minLevelRows.. is 1, minLevelRows * factor.. is 2.
   * Counted by multiplying, not by logarithms: Math.log(1000) / Math.log(10) is 2.9999999999999996, which
   * put 100,000 rows on 10,000's level, so a 1000-row load's 100k segment took nine 10k ones into a 190k
   * one, again and again: a 1M load ended as ten uneven segments (5 x 190k, 5 x 10k) instead of one.
   */
  level(rows: number): number {
    if (rows < this.minLevelRows) return 0;
    let level = 1;
    for (let bound = this.minLevelRows * this.factor; rows >= bound; bound *= this.factor) level++;
    return level;
  }

  findMerge(liveRows: number[]): [number, number] | null {
    const cap = this.capRows(liveRows);
    let runStart = 0;
    let runRows = liveRows.length ? liveRows[0] : 0;
    for (let i = 1; i <= liveRows.length; i++) {
      const same = i < liveRows.length && this.level(liveRows[i]) === this.level(liveRows[runStart]);
      if (!same) {
        runStart = i;
        runRows = i < liveRows.length ? liveRows[i] : 0;
        continue;
      }
      runRows += liveRows[i];
      if (i - runStart + 1 < this.factor) continue;
      if (runRows <= cap) return [runStart, i + 1];
      runRows -= liveRows[runStart++]; // too big to merge: slide past the run's first segment
    }
    return null;
  }
}

/**
 * The idle compaction's merge (Manticore's auto-optimize, which merges an RT table's disk chunks down to
 * optimize_cutoff, by default twice the logical cores): with more than `cutoff` segments once the table is
 * quiet, the adjacent run that brings the count to the cutoff with the fewest live rows (a small new segment
 * joins its small neighbours, not the biggest), within `maxRows`; null when none is due (cutoff 0: never).
 * When no run down to the cutoff fits in `maxRows` (a 1M table's quarter cap), the longest run that fits
 * brings the count as near it as it can: at a cutoff of 2, [250k, 250k, 250k, 200k, 40k, 10k] under a 250k
 * cap merges the last three, as a cutoff of 4 did, instead of nothing. `accept` passes over runs the
 * caller cannot take (merge-scheduler.ts: a carried budget only for a result that fits a hole): a shorter run then.
 * The tiered policy alone leaves up to factor - 1 segments a level: a 100k load in 300-row INSERTs ends as
 * 10 segments, in 256-row ones as 13, and every query pays each segment's planning, term lookups and top-K
 * merge (bench/engine/segments.bench.ts, 100k gcide, 1 thread: 113 us a query over 1 segment, 147 over 4, 191 over 10).
 */
export function compactRange(liveRows: number[], cutoff: number, maxRows = Infinity, accept: (run: [number, number]) => boolean = () => true): [number, number] | null {
  if (cutoff < 1) return null;
  for (let k = liveRows.length - cutoff + 1; k >= 2; k--) {
    const run = cheapestRun(liveRows, k, maxRows);
    if (run && accept(run)) return run;
  }
  return null;
}

/** The adjacent run of `k` segments with the fewest live rows, within `maxRows`, or null. */
function cheapestRun(liveRows: number[], k: number, maxRows: number): [number, number] | null {
  let best: [number, number] | null = null;
  let bestRows = Infinity;
  let rows = 0;
  for (let i = 0; i < liveRows.length; i++) {
    rows += liveRows[i];
    if (i >= k) rows -= liveRows[i - k];
    if (i >= k - 1 && rows < bestRows && rows <= maxRows) {
      best = [i - k + 1, i + 1];
      bestRows = rows;
    }
  }
  return best;
}
