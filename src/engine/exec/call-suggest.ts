/**
 * CALL SUGGEST / CALL QSUGGEST(text, table [, N AS option ...]): dictionary words near the first
 * (SUGGEST) or last (QSUGGEST) word of `text`, as Manticore's manual describes them: words within
 * `max_edits` Levenshtein edits and less than `delta_len` characters longer or shorter, closest first,
 * then the most documents, at most `limit`; with result_stats (default) their distance and docs.
 * Only tables with infixes (min_infix_len), as in Manticore. Quarry finds every dictionary word within
 * the limits (a trie walk over each segment's sorted dictionary, suggest-walk.ts) rather than searchd's
 * trigram candidates, so `max_matches` and `reject` (knobs of that candidate search) are accepted and
 * have nothing to bound; `sentence` is not implemented and is an error. What searchd's candidate search
 * decides is kept (sphinx.cpp SuggestMatchWords): a word of 2 code points or more, and a dictionary word
 * only if it shares an n-gram with it (bigrams under 6 code points or with `force_bigrams`, trigrams
 * else) and, unless `non_char`, has no code point below 'A' or between 'Z' and 'a' (digits, punctuation).
 */
import type { CallStatement, Literal } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import { rows, stringColumns, type Result } from '../result.js';
import type { Table } from '../table.js';
import { intOption, splitKeywords } from './call-keywords.js';
import { walkSuggestions } from './suggest-walk.js';
import { hasInfixes } from '../suggest/infix-check.js';

export interface SuggestOptions { limit: number; maxEdits: number; deltaLen: number; stats: boolean; bigrams: boolean; nonChar: boolean }

/** CALL SUGGEST's defaults (Manticore's manual). */
export const suggestDefaults = (): SuggestOptions => ({ limit: 5, maxEdits: 4, deltaLen: 3, stats: true, bigrams: false, nonChar: false });

function suggestOptions(st: CallStatement): SuggestOptions {
  const o = suggestDefaults();
  for (const { name, value } of st.options) {
    const n = (v: Literal): number => intOption(name, v, st.name.toUpperCase());
    switch (name.toLowerCase()) {
      case 'limit': o.limit = n(value); break;
      case 'max_edits': o.maxEdits = n(value); break;
      case 'delta_len': o.deltaLen = n(value); break;
      case 'result_stats': o.stats = n(value) !== 0; break;
      case 'force_bigrams': o.bigrams = n(value) !== 0; break;
      case 'non_char': o.nonChar = n(value) !== 0; break;
      case 'max_matches': case 'reject': n(value); break;
      case 'sentence': case 'result_line':
        if (n(value) !== 0) throw new SearchError('UNSUPPORTED', `${st.name.toUpperCase()}: option '${name}' is not supported`);
        break;
      default: throw new SearchError('PARSE_ERROR', `unknown option ${name}`);
    }
  }
  return o;
}

export interface Suggestion { term: string; distance: number; docs: number }

/** The word's n-grams (code points joined), n = 2 under 6 code points or when forced, else 3. */
function nGrams(word: readonly number[], n: number): Set<string> {
  const grams = new Set<string>();
  for (let i = 0; i + n <= word.length; i++) grams.add(String.fromCodePoint(...word.slice(i, i + n)));
  return grams;
}

/** searchd's test of a found term: letters only (unless non_char) and one n-gram in common with the word. */
function candidate(term: string, grams: Set<string>, n: number, nonChar: boolean): boolean {
  const cps = [...term].map((c) => c.codePointAt(0)!);
  if (!nonChar && cps.some((c) => c < 0x41 || (c > 0x5a && c < 0x61))) return false;
  for (let i = 0; i + n <= cps.length; i++) if (grams.has(String.fromCodePoint(...cps.slice(i, i + n)))) return true;
  return false;
}

/** Closest first, then the most documents, then the term (a total order: terms are distinct). */
const before = (a: Suggestion, b: Suggestion): number => a.distance - b.distance || b.docs - a.docs || (a.term < b.term ? -1 : 1);

/**
 * The first `k` suggestions in that order. A short word has tens of thousands within max_edits (every
 * word of up to n + 2 letters is within 4 edits of a 3-letter one) and a page wants 5: kept in a small
 * sorted array instead of sorting them all.
 */
function firstOf(all: Iterable<Suggestion>, k: number): Suggestion[] {
  if (k > 64) return [...all].sort(before).slice(0, k); // insertion into a long array: sorting is cheaper
  const top: Suggestion[] = [];
  if (k === 0) return top;
  for (const s of all) {
    if (top.length === k && before(s, top[k - 1]!) >= 0) continue;
    let i = top.length === k ? k - 1 : top.length;
    if (top.length === k) top.pop();
    while (i > 0 && before(s, top[i - 1]!) < 0) i--;
    top.splice(i, 0, s);
  }
  return top;
}

export function callSuggest(table: Table, st: CallStatement): Result {
  const fn = st.name.toUpperCase();
  if (st.args.length !== 2 || st.args[0]!.kind !== 'string' || st.args[1]!.kind !== 'string') {
    throw new SearchError('PARSE_ERROR', `${fn}() expects 2 arguments (text, table)`);
  }
  const o = suggestOptions(st);
  if (!hasInfixes(table)) {
    throw new SearchError('QUERY_ERROR', 'suggests work only for keywords dictionary with infix enabled');
  }
  // a word with wildcards keeps them, as searchd's tokenizer of an infix table does: '*rich*' is a
  // 6-code-point word, so delta_len and the edit distance count its stars (Buddy's autocomplete asks so)
  const words = splitKeywords(table, st.args[0]!.value, true);
  const cols = o.stats ? stringColumns('suggest', 'distance', 'docs') : stringColumns('suggest');
  if (!words.length) return rows(cols, []);
  const word = (st.name === 'qsuggest' ? words[words.length - 1]! : words[0]!).tokenized;
  const page = suggestWord(table, word, o);
  return rows(cols, page.map((f) => (o.stats ? [f.term, String(f.distance), String(f.docs)] : [f.term])));
}

/**
 * The dictionary words CALL SUGGEST answers for one tokenized word (the candidate rule above), best
 * first, at most `o.limit`; Buddy-level features (CALL AUTOCOMPLETE, OPTION fuzzy) ask this too.
 */
export function suggestWord(table: Table, tokenized: string, o: SuggestOptions): Suggestion[] {
  const word = [...tokenized].map((c) => c.codePointAt(0)!);
  if (word.length < 2) return []; // searchd's SetWord: too short to have n-grams
  const gramLen = word.length < 6 || o.bigrams ? 2 : 3;
  const grams = nGrams(word, gramLen);
  // a term's distance is the same in every segment; its documents add up over them
  const byTerm = new Map<string, Suggestion>();
  for (const seg of table.index.segments) {
    walkSuggestions(seg.terms, word, o.maxEdits, o.deltaLen, (i, distance) => {
      const term = seg.terms[i]!;
      if (!candidate(term, grams, gramLen, o.nonChar)) return;
      const f = byTerm.get(term);
      if (f) f.docs += seg.docFreq(i);
      else byTerm.set(term, { term, distance, docs: seg.docFreq(i) });
    });
  }
  return firstOf(byTerm.values(), Math.max(0, o.limit));
}
