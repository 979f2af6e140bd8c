/** The pieces a text pipeline is built from, each derived once per distinct setting values. */
import {
  addFlaggedChars, buildCaseFolding, FLAG_BLEND, FLAG_BOUNDARY, FLAG_IGNORE, type CharsetTable,
} from './charset-table.js';
import { ZONE_MARK } from './spz-marks.js';
import { stemEn } from './stem-en.js';
import { stemRu } from './stem-ru.js';
import type { StemFn } from './term-dictionary.js';
import type { Stemmer, TextSettings } from './text-settings.js';
import { QUERY_SPECIALS, SENTENCE_SPECIALS } from './tokenizer.js';

const STEMMERS: Record<Stemmer, StemFn> = { stem_en: stemEn, stem_ru: stemRu };

export function stemmersFor(ts: TextSettings): StemFn[] {
  return ts.morphology.map((name) => STEMMERS[name]);
}

/** Stemmers that only strip or change a word's tail, never its first letter (both are suffix rules). */
const TAIL_ONLY: ReadonlySet<Stemmer> = new Set<Stemmer>(['stem_en', 'stem_ru']);

/** True when the morphology keeps every word's first letter (what lets a highlight skip tokens by it). */
export function stemsKeepFirstLetter(ts: TextSettings): boolean {
  return ts.morphology.every((m) => TAIL_ONLY.has(m));
}

/**
 * The tables of one pipeline: base (charset + flags), index (plus SPZ specials), query (plus
 * operators), and with blend_chars, parts: the index table where blend characters only separate.
 */
export interface CharsetTables {
  base: CharsetTable;
  index: CharsetTable;
  query: CharsetTable;
  parts?: CharsetTable;
}

const cache = new Map<string, CharsetTables>();

/**
 * Folding tables for the settings, built in Manticore's order (charset_table, phrase_boundary,
 * ignore_chars, blend_chars) and shared between tables with identical charset settings.
 */
export function charsetTablesFor(ts: TextSettings): CharsetTables {
  const key = JSON.stringify([ts.charsetTable, ts.phraseBoundary, ts.ignoreChars, ts.blendChars, ts.indexSp, ts.indexZones !== '']);
  let tables = cache.get(key);
  if (!tables) {
    const base = buildCaseFolding(ts.charsetTable);
    if (ts.phraseBoundary) addFlaggedChars(base, 'phrase_boundary', ts.phraseBoundary, FLAG_BOUNDARY, 'phrase boundary', false);
    if (ts.ignoreChars) addFlaggedChars(base, 'ignore_chars', ts.ignoreChars, FLAG_IGNORE, 'ignored', false);
    const unblended = ts.blendChars ? base.clone() : null;
    if (ts.blendChars) addFlaggedChars(base, 'blend_chars', ts.blendChars, FLAG_BLEND, 'blend', true);
    const spz = (ts.indexSp ? SENTENCE_SPECIALS : '') + (ts.indexZones ? String.fromCharCode(ZONE_MARK) : '');
    tables = { base, index: spz ? base.withSpecials(spz) : base, query: base.withSpecials(QUERY_SPECIALS) };
    if (unblended) tables.parts = unblended;
    cache.set(key, tables);
  }
  return tables;
}
