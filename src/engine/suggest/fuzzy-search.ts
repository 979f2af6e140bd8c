/**
 * SELECT ... WHERE MATCH('...') OPTION fuzzy=1 [, distance=N] [, preserve=0|1] [, layouts='us,ru'] [, force_bigrams=0|1]
 * and /search's "options": {"fuzzy": true, ...}: Manticore Buddy's Fuzzy plugin (manual,
 * Searching/Spell_correction.md "Fuzzy Search"). The query's words are replaced by their fuzzy
 * variations (fuzzy-variations.ts, over the phrase and its keyboard-layout readings): in MATCH text
 * each word becomes `(w1^b|w2^b|...)`, boosted by its position as Buddy does (a quoted phrase stays a
 * phrase of such groups); in JSON a `match` becomes a bool `should` of every candidate and a
 * `query_string` is rewritten as MATCH text. A word nothing stands for is left out (kept with
 * preserve=1). The table needs min_infix_len ("Fuzzy search requires min_infix_len to be set").
 */
import type { NamedValue, SelectStatement } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import type { Catalog } from '../catalog.js';
import type { DistributedTables } from '../distributed/dist-registry.js';
import type { Table } from '../table.js';
import { isJsonInt, isJsonNumber, isJsonObject, tableName, type JsonObject, type JsonValue } from '../json/json-value.js';
import { fuzzyVariations } from './fuzzy-variations.js';
import { layoutVariants, parseLayouts } from './keyboard-layouts.js';
import { requireInfixes } from './infix-check.js';

interface FuzzyOptions { fuzzy: boolean; distance: number; preserve: boolean; layouts: string[]; bigrams: boolean }

const FUZZY_OPTIONS = new Set(['fuzzy', 'distance', 'preserve', 'layouts', 'force_bigrams']);
const NO_MATCH = "The 'fuzzy' option requires a full-text query. Use: MATCH('search query') or MATCH('search query', table_name)";

/** Each position's candidate words: the union over the phrase and its layout readings, in first-seen order. */
function positions(table: Table, text: string, o: FuzzyOptions): string[][] {
  const phrases = [text, ...(o.layouts.length ? layoutVariants(text, o.layouts) : [])];
  const out: Set<string>[] = [];
  for (const phrase of phrases) {
    const { words } = fuzzyVariations(table, phrase, o.distance, o.bigrams, o.preserve);
    words.forEach((w, i) => { for (const k of w.keywords) (out[i] ??= new Set()).add(k); });
  }
  return out.filter((s) => s?.size).map((s) => [...s]);
}

/** Buddy's boost of the i-th position: 50 / (i + 1)^1.44, at least 1. */
const boost = (i: number): string => String(Math.round(Math.max(50 / (i + 1) ** 1.44, 1) * 1e6) / 1e6);

/** A word as literal query text: the query operators' characters escaped. */
const escapeWord = (w: string): string => w.replace(/[()[\]<!|*/\-~^$@\\"=]/g, '\\$&');

/** The MATCH text for `text`: a group of candidates per position (the text, escaped, when nothing is found). */
export function fuzzyMatchText(table: Table, text: string, o: FuzzyOptions): string {
  if (!text) return '';
  const phrase = text.startsWith('"');
  const inner = phrase ? text.replace(/^"+|"+$/g, '') : text;
  const words = positions(table, inner, o);
  // nothing stands for any word: the text itself, as literal words (Buddy's fallback; '$#@!' then
  // matches nothing instead of failing as query syntax, test-fuzzy-search.rec)
  if (!words.length) return phrase ? `"${escapeWord(inner)}"` : escapeWord(inner);
  const groups = words.map((list, i) => `(${list.map((w) => `${escapeWord(w)}^${boost(i)}`).join('|')})`);
  return phrase ? `"${groups.join(' ')}"` : groups.join(' ');
}

const invalid = (name: string) => new SearchError('PARSE_ERROR', `Invalid value for option '${name}'`);

/** The SQL options fuzzy, distance, preserve and layouts read (digits, as Buddy's patterns take them). */
function sqlFuzzyOptions(options: NamedValue[]): FuzzyOptions {
  const o: FuzzyOptions = { fuzzy: false, distance: 2, preserve: false, layouts: [], bigrams: false };
  for (const { name, value } of options) {
    if (!FUZZY_OPTIONS.has(name)) continue;
    if (name === 'layouts') {
      if (value.kind !== 'string') throw new SearchError('PARSE_ERROR', 'Invalid options in query string, make sure they are separated by commas');
      o.layouts = parseLayouts(value.value);
      continue;
    }
    if (value.kind !== 'int' || value.value < 0) throw invalid(name);
    if (name === 'fuzzy') o.fuzzy = value.value !== 0;
    else if (name === 'distance') o.distance = Number(value.value);
    else if (name === 'preserve') o.preserve = value.value !== 0;
    else o.bigrams = value.value !== 0;
  }
  return o;
}

/** The table whose dictionary a fuzzy query reads: the named one, or a distributed table's first local. */
function dictionaryTable(catalog: Catalog, dist: DistributedTables | undefined, name: string): Table | undefined {
  return catalog.get(dist?.get(name)?.locals[0] ?? name);
}

/** `st` with OPTION fuzzy applied: its MATCH rewritten, the fuzzy options gone (unchanged without fuzzy). */
export function fuzzySelect(catalog: Catalog, dist: DistributedTables | undefined, st: SelectStatement): SelectStatement {
  if (!st.options.some((o) => o.name === 'fuzzy')) return st;
  const o = sqlFuzzyOptions(st.options);
  if (st.match === undefined) throw new SearchError('PARSE_ERROR', NO_MATCH);
  const rest = { ...st, options: st.options.filter((x) => !FUZZY_OPTIONS.has(x.name)) };
  const table = st.tables[0] === undefined ? undefined : dictionaryTable(catalog, dist, st.tables[0]);
  if (!table) return rest; // the SELECT itself reports the missing table
  requireInfixes(table, 'Fuzzy search requires min_infix_len to be set');
  return o.fuzzy ? { ...rest, match: fuzzyMatchText(table, st.match, o) } : rest;
}

const truthy = (v: JsonValue | undefined): boolean =>
  v !== undefined && v !== null && v !== false && v !== '' && v !== '0' && !(isJsonNumber(v) && Number(v.value) === 0);

/** JSON options: fuzzy and preserve as truth values, distance a number, layouts an array or a comma list. */
function jsonFuzzyOptions(opts: JsonObject): FuzzyOptions {
  const layouts = opts.layouts;
  // an array or a comma list; anything else (an object, a number) refused, not read as no layouts
  if (layouts !== undefined && layouts !== null && !Array.isArray(layouts) && typeof layouts !== 'string') {
    throw new SearchError('PARSE_ERROR', "options.layouts: an array of layout names or a comma-separated string expected");
  }
  const list = Array.isArray(layouts) ? layouts.map(String).join(',') : layouts ?? '';
  const distance = opts.distance;
  return {
    fuzzy: truthy(opts.fuzzy),
    distance: isJsonInt(distance) ? Number(distance.value) : 2,
    preserve: truthy(opts.preserve),
    bigrams: truthy(opts.force_bigrams),
    layouts: Array.isArray(layouts) && !layouts.length ? [] : parseLayouts(list),
  };
}

/** The `query` with each match / match_phrase / query_string text replaced by its fuzzy form. */
function rewriteQuery(table: Table, q: JsonValue, o: FuzzyOptions): JsonValue {
  if (Array.isArray(q)) return q.map((x) => rewriteQuery(table, x, o));
  if (!isJsonObject(q)) return q;
  const out: JsonObject = {};
  for (const [key, v] of Object.entries(q)) {
    if (key === 'query_string' && typeof v === 'string') { out[key] = fuzzyMatchText(table, v, o); continue; }
    if ((key === 'match' || key === 'match_phrase') && isJsonObject(v)) {
      const [field, spec] = Object.entries(v)[0] ?? [];
      const text = typeof spec === 'string' ? spec : isJsonObject(spec) && typeof spec.query === 'string' ? spec.query : undefined;
      if (field !== undefined && text !== undefined) {
        const should = positions(table, text, o).flat().map((w): JsonValue => ({ match: { [field]: w } }));
        if (should.length) return { ...out, bool: { should } };
      }
    }
    out[key] = rewriteQuery(table, v, o);
  }
  return out;
}

/** A /search body with options.fuzzy applied: its query rewritten, the fuzzy options gone. */
export function fuzzyJsonSearch(catalog: Catalog, dist: DistributedTables | undefined, obj: JsonObject): JsonObject {
  const opts = obj.options;
  if (!isJsonObject(opts) || !Object.keys(opts).some((k) => FUZZY_OPTIONS.has(k))) return obj;
  const o = jsonFuzzyOptions(opts);
  const options = Object.fromEntries(Object.entries(opts).filter(([k]) => !FUZZY_OPTIONS.has(k)));
  const rest: JsonObject = { ...obj, options };
  if (!Object.keys(options).length) delete rest.options;
  const table = dictionaryTable(catalog, dist, tableName(obj));
  if (!table) return rest;
  requireInfixes(table, 'Fuzzy search requires min_infix_len to be set');
  return o.fuzzy && obj.query !== undefined ? { ...rest, query: rewriteQuery(table, obj.query, o) } : rest;
}
