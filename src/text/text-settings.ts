/** A table's text settings, read from the raw setting strings with Manticore's defaults and rules. */
import type { TableSettings } from '../schema/types.js';
import { SearchError } from '../util/errors.js';

/** Manticore's defaults for the text settings this module implements. */
export const TEXT_DEFAULTS = {
  /** charset_table: the non-continuous scripts table. */
  charsetTable: 'non_cont',
  /** min_word_len: every token is indexed. */
  minWordLen: 1,
  /** overshort_step / stopword_step: skipped tokens still take a position. */
  overshortStep: 1,
  stopwordStep: 1,
  /** phrase_boundary_step: 0 disables phrase_boundary entirely. */
  phraseBoundaryStep: 0,
  /** min_stemming_len: stem words of any length. */
  minStemmingLen: 1,
} as const;

/** Stemmers this server implements, in the order a `morphology` value lists them. */
export type Stemmer = 'stem_en' | 'stem_ru';

export interface TextSettings {
  charsetTable: string;
  ignoreChars: string;
  blendChars: string;
  blendMode: string;
  /** Only set when phraseBoundaryStep is not 0 (Manticore ignores it otherwise). */
  phraseBoundary: string;
  phraseBoundaryStep: number;
  minWordLen: number;
  overshortStep: number;
  stopwordStep: number;
  stopwords: string;
  stopwordsUnstemmed: boolean;
  /** wordforms: file paths, space or comma separated. */
  wordforms: string;
  /** exceptions: one file path. */
  exceptions: string;
  /** The `*_list` settings: the lines of those files given inline (setting-texts.ts); each, when set, replaces its file setting. */
  stopwordsList: string;
  wordformsList: string;
  exceptionsList: string;
  morphology: Stemmer[];
  minStemmingLen: number;
  htmlStrip: boolean;
  htmlIndexAttrs: string;
  htmlRemoveElements: string;
  /** index_sp=1: sentence marks from the tokenizer, paragraph marks from the stripper. */
  indexSp: boolean;
  /** index_zones: zone tags (names or `prefix*`) marked by the stripper. */
  indexZones: string;
}

/** C's atoi(): optional spaces and sign, then digits; anything else reads as 0. */
export function atoi(value: string): number {
  const n = Number.parseInt(value, 10);
  return Number.isNaN(n) ? 0 : n;
}

function intSetting(s: TableSettings, key: string, dflt: number): number {
  const v = s[key];
  return v === undefined ? dflt : atoi(v);
}

function clampStep(n: number): number {
  return Math.min(Math.max(n, 0), 1);
}

/** Morphology names Manticore knows but this server does not implement. */
const KNOWN_UNSUPPORTED = /^(stem_cz|stem_ar|soundex|metaphone|icu_chinese|jieba_chinese|lemmatize_\w+|libstemmer_\w+)$/;

/**
 * Parses `morphology`: lowercased, split on spaces and commas, `none` ignored (Manticore's
 * ParseMorphology). `stem_enru` is `stem_en, stem_ru`.
 */
export function parseMorphology(value: string): Stemmer[] {
  const out: Stemmer[] = [];
  const add = (s: Stemmer): void => { if (!out.includes(s)) out.push(s); };
  for (const name of value.toLowerCase().split(/[\s,]+/)) {
    if (name === '' || name === 'none') continue;
    if (name === 'stem_en' || name === 'stem_ru') add(name);
    else if (name === 'stem_enru') { add('stem_en'); add('stem_ru'); }
    else if (KNOWN_UNSUPPORTED.test(name)) throw new SearchError('UNSUPPORTED', `morphology '${name}' is not supported`);
    else throw new SearchError('BAD_SETTING', `unknown stemmer ${name}`);
  }
  return out;
}

export function parseTextSettings(s: TableSettings): TextSettings {
  const phraseBoundaryStep = Math.max(intSetting(s, 'phrase_boundary_step', TEXT_DEFAULTS.phraseBoundaryStep), -1);
  return {
    charsetTable: s.charset_table ?? TEXT_DEFAULTS.charsetTable,
    ignoreChars: s.ignore_chars ?? '',
    blendChars: s.blend_chars ?? '',
    blendMode: s.blend_mode ?? '',
    phraseBoundary: phraseBoundaryStep !== 0 ? s.phrase_boundary ?? '' : '',
    phraseBoundaryStep,
    minWordLen: Math.max(intSetting(s, 'min_word_len', TEXT_DEFAULTS.minWordLen), 1),
    overshortStep: clampStep(intSetting(s, 'overshort_step', TEXT_DEFAULTS.overshortStep)),
    stopwordStep: clampStep(intSetting(s, 'stopword_step', TEXT_DEFAULTS.stopwordStep)),
    stopwords: s.stopwords ?? '',
    stopwordsUnstemmed: intSetting(s, 'stopwords_unstemmed', 0) !== 0,
    wordforms: s.wordforms ?? '',
    exceptions: s.exceptions ?? '',
    stopwordsList: s.stopwords_list ?? '',
    wordformsList: s.wordforms_list ?? '',
    exceptionsList: s.exceptions_list ?? '',
    morphology: parseMorphology(s.morphology ?? ''),
    minStemmingLen: intSetting(s, 'min_stemming_len', TEXT_DEFAULTS.minStemmingLen),
    htmlStrip: intSetting(s, 'html_strip', 0) !== 0,
    htmlIndexAttrs: s.html_index_attrs ?? '',
    htmlRemoveElements: s.html_remove_elements ?? '',
    indexSp: intSetting(s, 'index_sp', 0) !== 0,
    indexZones: s.index_zones ?? '',
  };
}
