/** Expands a wildcard keyword (`*` any run, `?` one char, `%` zero or one char) over a sorted dictionary. */
import type { QueryNode, TermNode } from '../query/ast.js';
import { isReservedTerm } from './spz-terms.js';
import { lowerBound } from './segment/sorted-terms.js';
import { patternRegExp } from '../util/pattern-regexp.js';

/** One code point without the 'u' flag: a surrogate pair, or any one code unit. */
const ONE_CHAR = '(?:[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]|[^])';

/**
 * A wildcard keyword as an anchored RegExp (shared by expansion and the snippet matcher). Without flags,
 * so V8's linear engine takes over a match that backtracks too much (pattern-regexp.ts): '*a*a*a...*b'
 * over a 40-letter word took minutes on the event loop. `[^]` is any code unit, ONE_CHAR one code point.
 */
export function wildcardRegExp(pattern: string): RegExp {
  let src = '';
  for (const ch of pattern) {
    if (ch === '*') src += '[^]*';
    else if (ch === '?') src += ONE_CHAR;
    else if (ch === '%') src += `${ONE_CHAR}?`;
    else src += ch.replace(/[.*+?^${}()|[\]\\/-]/g, '\\$&');
  }
  return patternRegExp(`^${src}$`, '', 'wildcard keyword');
}

/** The literal text before the first wildcard character. */
function literalPrefix(pattern: string): string {
  const m = /[*?%]/.exec(pattern);
  return m ? pattern.slice(0, m.index) : pattern;
}

/** Term numbers of the dictionary entries that match `pattern`, ascending. */
export function expandWildcard(terms: string[], pattern: string): number[] {
  const re = wildcardRegExp(pattern);
  const prefix = literalPrefix(pattern);
  // `prefix*`: every term from the prefix on matches; `*infix*`: a substring test will do
  const plainPrefix = pattern.length === prefix.length + 1 && pattern.endsWith('*');
  const infix = /^\*([^*?%]+)\*$/.exec(pattern)?.[1];
  const out: number[] = [];
  for (let i = lowerBound(terms, prefix); i < terms.length; i++) {
    const t = terms[i];
    if (!t.startsWith(prefix)) break;
    // the index's own terms (marks, `=word` exact forms) are not words a pattern stands for
    if (isReservedTerm(t) || (t[0] === '=' && prefix[0] !== '=')) continue;
    if (plainPrefix || (infix !== undefined ? t.includes(infix) : re.test(t))) out.push(i);
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
  /** expansion_limit: how many expansions a keyword keeps, the most frequent (expansion-limit.ts); 0 = all. */
  limit?: number;
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

/** Manticore's sphHasExpandableWildcards: some wildcard, and not only wildcards. */
function expandable(pattern: string): boolean {
  const chars = [...pattern];
  const wilds = chars.filter(isWild).length;
  return wilds > 0 && wilds < chars.length;
}

/**
 * Manticore's sphExpandGetWords: the pattern to look up in the dictionary (the prefix or infix
 * path), or null when its literal prefix (infix) is shorter than min_prefix_len (min_infix_len).
 */
function lookupPattern(pattern: string, s: ExpansionSettings): string | null {
  let word = pattern.startsWith('=*') ? pattern.slice(1) : pattern;
  if (!isWild(word[0]) || s.minInfixLen <= 0) {
    if (word[0] === '=') word = word.slice(1);
    while (word.length && isWild(word[0])) word = word.slice(1);
    if ([...literalPrefix(word)].length < s.minPrefixLen) return null;
    return s.exactForms ? `=${word}` : word;
  }
  return longestLiteral(word) < s.minInfixLen ? null : word;
}

/**
 * The literal prefix by which expandKeyword looks a wildcard keyword up in the sorted dictionary
 * ('' = a scan of all of it), or null when it does not expand: every expansion starts with it, so a
 * page need fetch only the dictionary chunks from the prefix to the prefix followed by U+FFFF.
 */
export function expansionPrefix(pattern: string, s?: ExpansionSettings): string | null {
  if (!s) return literalPrefix(pattern);
  if (s.minPrefixLen <= 0 && s.minInfixLen <= 0) return null;
  const lookup = lookupPattern(pattern, s);
  return lookup === null ? null : literalPrefix(lookup);
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
  const lookup = lookupPattern(pattern, s);
  return lookup === null ? [] : expandWildcard(terms, lookup);
}

/**
 * Manticore's warning (sphExpandXQNode) for a wildcard keyword too short to expand, or null; the
 * keyword then matches nothing. Its text names infix when the table has min_infix_len.
 */
export function expansionWarning(pattern: string, s: ExpansionSettings): string | null {
  if ((s.minPrefixLen <= 0 && s.minInfixLen <= 0) || !expandable(pattern) || lookupPattern(pattern, s) !== null) return null;
  return `Query word length is less than min ${s.minInfixLen > 0 ? 'infix' : 'prefix'} length. word: '${pattern}' `;
}

/** Manticore's sphGetExpansionMagic: how frequent an expansion is for expansion_limit. */
export function expansionRank(docs: number, hits: number): number {
  return hits <= 256 ? 1 : docs + 1;
}

/**
 * expansion_limit (Manticore's ExpandedOrderDesc_T clip): the `limit` most frequent of `ids` by
 * expansionRank, ties in dictionary order; all of them when limit is 0 or not exceeded. Ascending.
 */
export function limitExpansions(ids: number[], limit: number, docs: (t: number) => number, hits: (t: number) => number): number[] {
  if (limit <= 0 || ids.length <= limit) return ids;
  const ranked = ids.map((t) => ({ t, r: expansionRank(docs(t), hits(t)) }));
  ranked.sort((a, b) => b.r - a.r || a.t - b.t);
  return ranked.slice(0, limit).map((e) => e.t).sort((a, b) => a - b);
}

export function isWildcard(text: string): boolean {
  return /[*?%]/.test(text);
}

/** Calls `visit` with the query's words in tree order (Manticore expands its query tree children first to last). */
function eachTerm(n: QueryNode, visit: (t: TermNode) => void): void {
  switch (n.kind) {
    case 'term': visit(n); return;
    case 'phrase': case 'proximity': case 'quorum': for (const t of n.terms) visit(t); return;
    case 'not': case 'zone': eachTerm(n.child, visit); return;
    case 'maybe': eachTerm(n.left, visit); eachTerm(n.right, visit); return;
    case 'empty': return;
    default: for (const c of n.children) eachTerm(c, visit);
  }
}

/** The warning a query's wildcards give: the last too-short one's (each expansion overwrites it). */
export function queryExpansionWarning(root: QueryNode | null, s: ExpansionSettings): string | undefined {
  // a table without prefix or infix lengths warns of nothing (expansionWarning): no walk per query
  if (!root || (s.minPrefixLen <= 0 && s.minInfixLen <= 0)) return undefined;
  let out: string | undefined;
  eachTerm(root, (t) => {
    if (!t.wildcard && !isWildcard(t.text)) return;
    out = expansionWarning(t.exact ? `=${t.text}` : t.text, s) ?? out;
  });
  return out;
}
