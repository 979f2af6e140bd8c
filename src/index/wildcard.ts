/** Expands a wildcard keyword (`*` any run, `?` one char, `%` zero or one char) over a sorted dictionary. */
import { isReservedTerm } from './spz-terms.js';

/** A wildcard keyword as an anchored RegExp (shared by expansion and the snippet matcher). */
export function wildcardRegExp(pattern: string): RegExp {
  let src = '';
  for (const ch of pattern) {
    if (ch === '*') src += '.*';
    else if (ch === '?') src += '.';
    else if (ch === '%') src += '.?';
    else src += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${src}$`, 'su');
}

/** The literal text before the first wildcard character. */
function literalPrefix(pattern: string): string {
  const m = /[*?%]/.exec(pattern);
  return m ? pattern.slice(0, m.index) : pattern;
}

/** First index in sorted `terms` whose value is >= `key`. */
function lowerBound(terms: string[], key: string): number {
  let lo = 0;
  let hi = terms.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (terms[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Term numbers of the dictionary entries that match `pattern`, ascending. */
export function expandWildcard(terms: string[], pattern: string): number[] {
  const re = wildcardRegExp(pattern);
  const prefix = literalPrefix(pattern);
  const out: number[] = [];
  for (let i = lowerBound(terms, prefix); i < terms.length; i++) {
    const t = terms[i];
    if (!t.startsWith(prefix)) break;
    // the index's own terms (marks, `=word` exact forms) are not words a pattern stands for
    if (isReservedTerm(t) || (t[0] === '=' && prefix[0] !== '=')) continue;
    if (re.test(t)) out.push(i);
  }
  return out;
}

/**
 * Above this many expansions in a segment, a wildcard's postings are read into one merged list in
 * the core and evaluated as one term (Manticore's expanded-keyword payload); up to it they stay
 * an OR of terms, which costs less than a pass over their postings when they are few.
 */
export const MERGE_EXPANSIONS_ABOVE = 4;

/** The table settings wildcard expansion follows (dict=keywords). */
export interface ExpansionSettings {
  minPrefixLen: number;
  minInfixLen: number;
  /** Morphology or exact words: prefixes expand over the unstemmed `=word` forms. */
  exactForms: boolean;
  /** Expansions merged into one list above this count (default MERGE_EXPANSIONS_ABOVE). */
  mergeAbove?: number;
}

const isWild = (ch: string) => ch === '*' || ch === '?' || ch === '%';

/** Characters (code points) of the longest run without wildcards. */
function longestLiteral(pattern: string): number {
  let best = 0;
  let run = 0;
  for (const ch of pattern) {
    run = isWild(ch) ? 0 : run + 1;
    if (run > best) best = run;
  }
  return best;
}

/**
 * Manticore's sphExpandGetWords: a keyword that does not start with a wildcard (or any keyword
 * when min_infix_len is 0, its leading wildcards dropped) expands by prefix, only when the prefix
 * has min_prefix_len characters, over the `=word` forms when the table has them; one starting
 * with a wildcard expands by infix when its longest literal run has min_infix_len characters.
 * Too short: no expansion (the keyword matches nothing). No settings: plain pattern expansion.
 */
export function expandKeyword(terms: string[], pattern: string, s?: ExpansionSettings): number[] {
  if (!s) return expandWildcard(terms, pattern);
  if (s.minPrefixLen <= 0 && s.minInfixLen <= 0) return [];
  let word = pattern.startsWith('=*') ? pattern.slice(1) : pattern;
  if (!isWild(word[0]) || s.minInfixLen <= 0) {
    if (word[0] === '=') word = word.slice(1);
    while (word.length && isWild(word[0])) word = word.slice(1);
    const prefix = [...literalPrefix(word)].length;
    if (prefix < s.minPrefixLen) return [];
    return expandWildcard(terms, s.exactForms ? `=${word}` : word);
  }
  if (longestLiteral(word) < s.minInfixLen) return [];
  return expandWildcard(terms, word);
}

export function isWildcard(text: string): boolean {
  return /[*?%]/.test(text);
}
