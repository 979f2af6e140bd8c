/**
 * Pair postings (Manticore's bigram index, built automatically): next to its words a segment keeps
 * terms `\u0001a\u0001b` listing the rows where word b stands right after word a in the same field,
 * for pairs of words frequent in the segment. A phrase holding "a b" is evaluated over the pair's
 * rows only (the core's phrase guide, assembly/plan/node.ts N_GUIDE), so a phrase of two common
 * words reads one short list instead of checking positions on every row holding both. Answers do
 * not change: a pair only narrows the rows the phrase's own position check runs on.
 *
 * Completeness is what makes that safe: a segment holding pair term P has it on every row where
 * the pair occurs. A batch builds a pair on every occurrence once both words qualify (pairsWanted);
 * a merge keeps P only when every part holds it (mergePairFilter), so a part that did not build it
 * never leaves the merged list short. A hit per occurrence, at the first word's position: for a phrase
 * of just the two words without field limits the pair's rows are its rows and its hits give the
 * fields it occurs in, so the core counts such a phrase without reading the words' positions.
 */

export const PAIR_HEAD = '\u0001';

/** The pair term of word `a` followed by word `b`. */
export function pairTerm(a: string, b: string): string {
  return `${PAIR_HEAD}${a}${PAIR_HEAD}${b}`;
}

export function isPairTerm(term: string): boolean {
  return term.charCodeAt(0) === 1;
}

/**
 * Which adjacent words get a pair: `auto` (no bigram_index given) pairs words whose hits in the batch
 * reach AUTO_HITS_PER_ROW a row; Manticore's bigram_index modes pair by `freqWords` (bigram_freq_words):
 * `all` every pair, `first_freq` pairs whose first word is listed, `both_freq` both; `none` given
 * explicitly turns pairs off.
 */
export interface PairSettings {
  mode: 'auto' | 'none' | 'all' | 'first_freq' | 'both_freq';
  freqWords?: readonly string[];
}

export const AUTO_PAIRS: PairSettings = { mode: 'auto' };
/** The pair settings of a table's `bigram_index` / `bigram_freq_words`. */
export function pairSettings(settings: Record<string, string> | undefined): PairSettings {
  const mode = (settings?.bigram_index ?? '').toLowerCase();
  const freqWords = (settings?.bigram_freq_words ?? '').split(/[\s,]+/).filter(Boolean).map((w) => w.toLowerCase());
  if (mode === 'all' || mode === 'first_freq' || mode === 'both_freq') return { mode, freqWords };
  if (mode === 'none') return { mode };
  return AUTO_PAIRS;
}

/**
 * For a merge: per part, which of its terms the merged dictionary keeps. A pair term stays only when
 * every part holds it (a part without it may have occurrences it never listed); words all stay.
 * `to[s][t]` is part s's term t in the merged `all`; returns the kept terms and the maps into them
 * (-1 for a dropped pair), or the inputs when nothing is dropped.
 */
export function keepCompletePairs(all: readonly string[], to: Int32Array[]): { all: readonly string[]; to: Int32Array[] } {
  let pairs = 0;
  while (pairs < all.length && isPairTerm(all[pairs])) pairs++;
  if (pairs === 0) return { all, to };
  const holders = new Uint32Array(pairs);
  for (const map of to) for (let t = 0; t < map.length && map[t] < pairs; t++) holders[map[t]]++;
  const newIndex = new Int32Array(all.length);
  const kept: string[] = [];
  for (let m = 0; m < all.length; m++) {
    if (m < pairs && holders[m] !== to.length) { newIndex[m] = -1; continue; }
    newIndex[m] = kept.length;
    kept.push(all[m]);
  }
  if (kept.length === all.length) return { all, to };
  return { all: kept, to: to.map((map) => map.map((m) => newIndex[m])) };
}
