/**
 * Tiered merge policy (Lucene's LogMergePolicy, by live rows): a segment's level is
 * floor(log_F(rows)); a run of MERGE_FACTOR adjacent segments on one level merges into one.
 * Adjacent runs keep the internal row order of full scans stable.
 */

/** Segments per level before they merge; Lucene's default mergeFactor. */
export const MERGE_FACTOR = 10;

export interface MergePolicy {
  /** The [start, end) range of adjacent segments to merge next, or null. */
  findMerge(liveRows: number[]): [number, number] | null;
}

function level(rows: number, factor: number): number {
  return rows <= 1 ? 0 : Math.floor(Math.log(rows) / Math.log(factor));
}

export class TieredMergePolicy implements MergePolicy {
  constructor(readonly factor = MERGE_FACTOR) {}

  findMerge(liveRows: number[]): [number, number] | null {
    let runStart = 0;
    for (let i = 1; i <= liveRows.length; i++) {
      const same = i < liveRows.length && level(liveRows[i], this.factor) === level(liveRows[runStart], this.factor);
      if (same) {
        if (i - runStart + 1 >= this.factor) return [runStart, i + 1];
        continue;
      }
      runStart = i;
    }
    return null;
  }
}
