/**
 * expansion_limit over a table's segments, as searchd's RT index applies it to the segments of its
 * RAM chunk (sphinxrt.cpp, DictEntryRtPayload_t::Add/Convert), which is what quarry's segments are
 * (SHOW TABLE STATUS counts them as ram_chunk_segments_count):
 * - an expansion rare enough to be merged into one payload list (sphIsExpandedPayload: fewer than 256
 *   hits or fewer than 32 documents in its segment) is clipped per segment, the `limit` most frequent;
 * - the others are pooled over all segments (one entry per segment a word is in) and clipped to
 *   `limit` x the number of segments, the most frequent of the table, so one segment's frequent words
 *   can take the places of another's.
 * A segment so keeps up to `limit` rare expansions plus its share of the frequent ones.
 */
import { expansionRank, limitExpansions } from './wildcard.js';

/** searchd's expansion_merge_threshold_docs and _hits defaults (indexformat.cpp g_iExpandMerge*). */
const MERGE_DOCS = 32;
const MERGE_HITS = 256;

export interface SegmentExpansions {
  /** The keyword's expansions in this segment (term numbers, ascending). */
  ids: number[];
  docs(t: number): number;
  hits(t: number): number;
}

/** The expansions each segment keeps under `limit` (0: all), ascending term numbers per segment. */
export function limitTableExpansions(segs: readonly SegmentExpansions[], limit: number): number[][] {
  if (limit <= 0) return segs.map((s) => s.ids);
  const kept: number[][] = [];
  const frequent: { seg: number; t: number; rank: number }[] = [];
  segs.forEach((s, seg) => {
    const rare: number[] = [];
    for (const t of s.ids) {
      const docs = s.docs(t);
      const hits = s.hits(t);
      if (hits < MERGE_HITS || docs < MERGE_DOCS) rare.push(t);
      else frequent.push({ seg, t, rank: expansionRank(docs, hits) });
    }
    kept.push(limitExpansions(rare, limit, s.docs, s.hits).slice());
  });
  const cap = limit * segs.length;
  // ties (searchd's sort leaves their order open): segment order, then dictionary order
  if (frequent.length > cap) frequent.sort((a, b) => b.rank - a.rank || a.seg - b.seg || a.t - b.t);
  for (const e of frequent.slice(0, cap)) kept[e.seg]!.push(e.t);
  return kept.map((ids) => ids.sort((a, b) => a - b));
}
