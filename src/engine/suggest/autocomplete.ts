/**
 * CALL AUTOCOMPLETE('text', 'table' [, value AS option ...]) and POST /autocomplete: the phrases a
 * user may be typing, as Manticore Buddy's Autocomplete plugin builds them (Manticore's manual,
 * Searching/Autocomplete.md). For the phrase and its other keyboard-layout readings: each word's
 * fuzzy variations (fuzzy-variations.ts), then the last word's completions: the dictionary words
 * CALL KEYWORDS expands `*word*` to (prepend/append choose the stars; at most expansion_len code
 * points longer) and those CALL SUGGEST finds that start or end within the fuzziness of the word.
 * Combinations are ranked by the variations' scores, the phrase itself first, then those that start
 * with a typed phrase; a combination none of whose words has a document is dropped.
 * The table needs min_infix_len, as in Manticore ("Autocomplete requires min_infix_len to be set").
 */
import type { CallStatement, Literal } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import { rows, stringColumns, type Result } from '../result.js';
import type { Table } from '../table.js';
import { keywordRows, type KeywordRow } from '../exec/call-keywords.js';
import { fuzzyVariations, suggestText, type Variation } from './fuzzy-variations.js';
import { ALL_LAYOUTS, layoutVariants, parseLayouts } from './keyboard-layouts.js';
import { requireInfixes } from './infix-check.js';
import { editDistance } from '../../util/edit-distance.js';
import { MAX_TOKEN_CODEPOINTS } from '../../text/tokenizer.js';

export interface AutocompleteOptions {
  fuzziness: number; prepend: boolean; append: boolean; expansionLen: number;
  layouts: string[]; preserve: boolean; forceBigrams: boolean;
}

export const autocompleteDefaults = (): AutocompleteOptions => ({
  fuzziness: 2, prepend: true, append: true, expansionLen: 10, layouts: [...ALL_LAYOUTS], preserve: false, forceBigrams: false,
});

const parseError = (msg: string) => new SearchError('PARSE_ERROR', msg);

/** Buddy's checks of fuzziness and expansion_len (its messages, bounds included). */
export function checkAutocompleteOptions(o: AutocompleteOptions): void {
  if (o.fuzziness < 0 || o.fuzziness > 2) throw parseError('Fuzziness must be greater than 0 and lower than 3');
  if (o.expansionLen < 0 || o.expansionLen > 20) throw parseError('Expansion limit must be greater than 0 and lower than 20');
}

/** Sets one option from its text value (SQL digits or quoted text, JSON values as text); Buddy's names and casts. */
export function setAutocompleteOption(o: AutocompleteOptions, name: string, value: string): void {
  const int = (): number => Number.parseInt(value, 10) || 0;
  const bool = (): boolean => value !== '' && value !== '0' && value !== 'false';
  switch (name.toLowerCase()) {
    case 'fuzziness': o.fuzziness = int(); break;
    case 'prepend': o.prepend = bool(); break;
    case 'append': o.append = bool(); break;
    case 'expansion_len': o.expansionLen = int(); break;
    case 'layouts': o.layouts = parseLayouts(value); break;
    case 'preserve': o.preserve = bool(); break;
    case 'force_bigrams': o.forceBigrams = bool(); break;
    default: // Buddy names the option as its property: snake_case to camelCase
      throw parseError(`Unknown option '${name.toLowerCase().replace(/_([a-z])/g, (_, c: string) => c.toUpperCase())}'`);
  }
}

/** CALL AUTOCOMPLETE's arguments: two quoted strings, options as digits or quoted text (else Buddy's 'Failed to parse query'). */
export function callAutocompleteArgs(st: CallStatement): { text: string; table: string; options: AutocompleteOptions } {
  const [text, table] = st.args as Literal[];
  if (st.args.length !== 2 || text?.kind !== 'string' || table?.kind !== 'string' || table.value === '') throw parseError('Failed to parse query');
  const options = autocompleteDefaults();
  for (const { name, value } of st.options) {
    if (value.kind === 'int' && value.value >= 0) setAutocompleteOption(options, name, String(value.value));
    else if (value.kind === 'string') setAutocompleteOption(options, name, value.value);
    else throw parseError('Failed to parse query');
  }
  checkAutocompleteOptions(options);
  return { text: text.value, table: table.value, options };
}

/** CALL KEYWORDS(text, table, 1 as stats [, 'docs' as sort_mode, N as expansion_limit])' rows. */
function keywordStats(table: Table, text: string, expansion?: number): KeywordRow[] {
  return keywordRows(table, text, { stats: true, foldWildcards: false, expansionLimit: expansion ?? 0, sortMode: expansion === undefined ? '' : 'docs' });
}

/** Buddy's applyThreshold: under `topN` rows those with documents; else those above half the mean, the first `topN` by documents. */
function threshold<T extends { docs: number }>(list: T[], topN: number): T[] {
  if (list.length < topN) return list.filter((r) => r.docs > 0);
  const sorted = [...list].sort((a, b) => b.docs - a.docs);
  const min = Math.round((sorted.reduce((s, r) => s + r.docs, 0) / sorted.length) * 0.5);
  return sorted.filter((r) => r.docs > min).slice(0, topN);
}

const cpLength = (s: string): number => [...s].length;

/** Buddy's edit budget for a word: none under 3 code points, 1 up to 6 (3 with force_bigrams), else 2; at most the fuzziness. */
function wordDistance(word: string, o: AutocompleteOptions): number {
  if (!o.fuzziness) return 0;
  const len = cpLength(word);
  return Math.min(o.fuzziness, len > (o.forceBigrams ? 3 : 6) ? 2 : len > 2 ? 1 : 0);
}

const starred = (word: string, o: AutocompleteOptions): string => `${o.prepend ? '*' : ''}${word}${o.append ? '*' : ''}`;

/** The completions of the last word: its wildcard expansions, as long as expansion_len allows. */
function expandKeywords(table: Table, word: string, o: AutocompleteOptions): string[] {
  const found = threshold(keywordStats(table, starred(word, o), 100), 10).map((r) => r.normalized.replace(/^=+/, ''));
  const max = cpLength(word) + o.expansionLen;
  return found.filter((k) => cpLength(k) <= max);
}

/** Words CALL SUGGEST finds near the last word that begin (prepend) or end (append) within its edit budget. */
function expandSuggestions(table: Table, word: string, o: AutocompleteOptions): string[] {
  const distance = wordDistance(word, o);
  if (!distance) return [];
  const found = threshold(suggestText(table, starred(word, o), 100, o.expansionLen, false), 20).map((s) => s.term);
  const wordCps = [...word];
  const len = wordCps.length;
  return found.filter((s) => {
    const at = s.indexOf(word);
    if (at >= 0) {
      if (o.prepend && cpLength(s.slice(0, at)) <= distance) return true;
      if (o.append && cpLength(s.slice(at + word.length)) <= distance) return true;
    }
    const cps = [...s];
    if (o.prepend && editDistance(wordCps, cps.slice(0, len), distance) <= distance) return true;
    return o.append && editDistance(wordCps, cps.slice(-len), distance) <= distance;
  });
}

/** Buddy's buildRelevantCombinations: one word per position, best summed scores kept (at most maxCount each step). */
function combinations(words: Variation[], score: Map<string, number>, maxCount: number): string[] {
  let combos = new Map<string, number>([['', 0]]);
  const best = (m: Map<string, number>) => [...m].sort((a, b) => b[1] - a[1]);
  for (const { keywords } of words) {
    let next = new Map<string, number>();
    for (const [combo, s] of combos) {
      for (const w of keywords) {
        const sum = s + (score.get(w) ?? 0);
        if (next.size >= maxCount && sum <= Math.min(...next.values())) continue;
        next.set(`${combo} ${w}`.trim(), sum);
        if (next.size > maxCount) next = new Map(best(next).slice(0, maxCount));
      }
    }
    combos = next;
  }
  return best(combos).map(([k]) => k).filter((k) => k !== '').slice(0, maxCount);
}

/** `values` with those in `first` moved to the front (Buddy's boostListValues). */
const boosted = (values: string[], first: string[]): string[] => [...first.filter((f) => values.includes(f)), ...values.filter((v) => !first.includes(v))];

function processPhrase(table: Table, phrase: string, o: AutocompleteOptions, maxCount: number): string[] {
  const distance = wordDistance(phrase, o);
  let { words, score } = distance > 0 ? fuzzyVariations(table, phrase, distance, o.forceBigrams, o.preserve) : { words: [] as Variation[], score: new Map<string, number>() };
  if (!words.length) words = [{ original: phrase, keywords: o.preserve ? [phrase] : [] }];
  const last = words[words.length - 1]!;
  const lastWords = last.keywords.length ? [...last.keywords] : [last.original];
  const merged = new Set(last.keywords);
  for (const w of lastWords) {
    for (const k of expandKeywords(table, w, o)) merged.add(k);
    for (const s of expandSuggestions(table, w, o)) merged.add(s);
  }
  last.keywords = [...merged];
  return boosted(combinations(words, score, maxCount), [phrase]);
}

/** Round-robin over the lists (Buddy's Arrays::blend), each value once. */
function blend(lists: string[][]): string[] {
  const out = new Set<string>();
  for (let i = 0; lists.some((l) => i < l.length); i++) for (const l of lists) if (i < l.length) out.add(l[i]!);
  return [...out];
}

/** A run of word characters (in any charset) longer than the tokenizer keeps of a token. */
const LONG_WORD = new RegExp(`[\\p{L}\\p{N}\\p{M}_]{${MAX_TOKEN_CODEPOINTS + 1},}`, 'gu');

/**
 * The query with each long run of word characters cut to the tokenizer's first MAX_TOKEN_CODEPOINTS (42,
 * searchd's SPH_MAX_WORD_LEN): the token it makes is the same, so the same suggestions are found, and a
 * 140,000-character word costs its first 42 (its layout readings, CALL SUGGEST and CALL KEYWORDS over it
 * took seconds of CPU). Punctuation and spaces end a run, so the words after them are kept whole.
 */
const clipWords = (query: string): string => query.replace(LONG_WORD, (w) => [...w].slice(0, MAX_TOKEN_CODEPOINTS).join(''));

export function autocomplete(table: Table, text: string, o: AutocompleteOptions): Result {
  requireInfixes(table, 'Autocomplete requires min_infix_len to be set');
  const query = clipWords(text);
  const phrases = [...new Set([query, ...(o.layouts.length ? layoutVariants(query, o.layouts) : [])])];
  const bytes = Buffer.byteLength(query);
  const maxCount = bytes < 2 ? 50 : bytes < 5 ? 25 : 10;
  const sets: string[][] = [];
  let count = 0;
  for (const phrase of phrases) {
    const s = processPhrase(table, phrase, o, maxCount);
    sets.push(s);
    count += s.length;
    if (count >= maxCount) break;
  }
  const lower = phrases.map((p) => p.toLowerCase());
  const rank = (s: string): number => (lower.some((p) => s.toLowerCase().startsWith(p)) ? 0 : 4)
    + (o.append && s.startsWith(query) ? 0 : 2) + (o.prepend && s.endsWith(query) ? 0 : 1);
  const ordered = blend(sets).map((s, i) => ({ s, i, r: rank(s) })).sort((a, b) => a.r - b.r || a.i - b.i).map((x) => x.s);
  const withDocs = ordered.filter((s) => keywordStats(table, s.replace(/[*%?']/g, '\\$&')).some((k) => k.docs > 0));
  return rows(stringColumns('query'), withDocs.map((s) => [s]));
}
