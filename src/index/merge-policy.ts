/**
 * Tiered merge policy (Lucene's LogMergePolicy, by live rows): a segment's level is
 * floor(log_F(rows)); a run of MERGE_FACTOR adjacent segments on one level merges into one.
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
/** The largest segment a background merge builds (OPTIMIZE still merges everything into one). */
export const MAX_MERGED_ROWS = 4_000_000;

export interface MergePolicy {
  /** The [start, end) range of adjacent segments to merge next, or null. */
  findMerge(liveRows: number[]): [number, number] | null;
}

function level(rows: number, factor: number): number {
  return rows <= 1 ? 0 : Math.floor(Math.log(rows) / Math.log(factor));
}

export class TieredMergePolicy implements MergePolicy {
  constructor(readonly factor = MERGE_FACTOR, readonly maxMergedRows = MAX_MERGED_ROWS) {}

  findMerge(liveRows: number[]): [number, number] | null {
    let runStart = 0;
    let runRows = liveRows.length ? liveRows[0] : 0;
    for (let i = 1; i <= liveRows.length; i++) {
      const same = i < liveRows.length && level(liveRows[i], this.factor) === level(liveRows[runStart], this.factor);
      if (!same) {
        runStart = i;
        runRows = i < liveRows.length ? liveRows[i] : 0;
        continue;
      }
      runRows += liveRows[i];
      if (i - runStart + 1 < this.factor) continue;
      if (runRows <= this.maxMergedRows) return [runStart, i + 1];
      runRows -= liveRows[runStart++]; // too big to merge: slide past the run's first segment
    }
    return null;
  }
}
