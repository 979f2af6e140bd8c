/**
 * Pair postings (Manticore's bigram index, built automatically): next to its words a segment keeps
 * terms `\u0001a\u0001b` listing the rows where word b stands right after word a in the same field,
 * for pairs of words frequent in the segment. A phrase holding "a b" is evaluated over the pair's
 * rows only (the core's phrase guide, assembly/plan/node.ts N_GUIDE), so a phrase of two common
 * words reads one short list instead of checking positions on every row holding both. Answers do
 * not change: a pair only narrows the rows the phrase's own position check runs on.
 *
 * Completeness is what makes that safe: a segment holding pair term P has it on every row where
 * the pair occurs. A batch builds a pair on every occurrence once both words qualify (pair-builder.ts);
 * a merge builds P from the words' positions in each part that lacks it (pair-fill.ts), so a part that
 * did not list it never leaves the merged list short, and big segments keep their parts' pairs. A hit per occurrence, at the first word's position: for a phrase
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
 * reach AUTO_HITS_PER_ROW a row, with each other and with words reaching AUTO_MID_HITS_PER_ROW; Manticore's bigram_index modes pair by `freqWords` (bigram_freq_words):
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
