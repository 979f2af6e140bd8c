/**
 * The top-level keys of a `/search` body and its `options` object. Manticore reads the keys it knows
 * and skips any other; quarry rejects every key it does not act on (a misspelt `"limt"` or a not yet
 * implemented `"aggs"` must not give a silently wrong answer), naming the key in Manticore's
 * property-error shape.
 */
import type { NamedValue } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import { isJsonInt, isJsonNumber, isJsonObject, type JsonObject, type JsonValue } from './json-value.js';
import { checkOptions } from '../statement-options.js';

/** Keys json-search.ts reads (json-api.ts reads `table`/`index`). */
export const SEARCH_KEYS = new Set([
  'table', 'index', 'query', 'limit', 'size', 'offset', 'from', 'max_matches', 'sort', 'track_scores',
  '_source', 'options', 'script_fields', 'expressions', 'highlight', 'cutoff', 'aggs', 'facet_filter_mode',
]);

/** Keys Manticore 29 reads that quarry does not implement yet. */
export const UNSUPPORTED_SEARCH_KEYS = new Set([
  'knn', 'hybrid', 'join', 'profile', 'plan', 'docvalue_fields',
]);

const shapeError = (msg: string): SearchError => new SearchError('PARSE_ERROR', msg);

/** Every key of the body is one quarry acts on. */
export function checkSearchKeys(obj: JsonObject): void {
  for (const key of Object.keys(obj)) {
    if (SEARCH_KEYS.has(key)) continue;
    if (UNSUPPORTED_SEARCH_KEYS.has(key)) throw new SearchError('UNSUPPORTED', `"${key}" property is not supported`);
    throw shapeError(`unknown property "${key}"`);
  }
}

/** `"expr('sum(lcs)')"` -> a call (Manticore's sphSplitRankerCall, quotes around the argument dropped); else a name. */
function rankerValue(v: string): NamedValue['value'] {
  const m = /^([a-z]+)\((.*)\)$/is.exec(v);
  if (!m) return { kind: 'ident', name: v.toLowerCase() };
  const arg = m[2].trim();
  const quoted = arg.length >= 2 && (arg[0] === "'" || arg[0] === '"') && arg[arg.length - 1] === arg[0];
  return { kind: 'call', name: m[1].toLowerCase(), arg: quoted ? arg.slice(1, -1) : arg };
}

/** One `options` entry as the SQL OPTION it is (Manticore's ParseOptions: ints, bools, strings, objects). */
function optionOf(name: string, v: JsonValue): NamedValue {
  if (typeof v === 'boolean') return { name, value: { kind: 'int', value: v ? 1 : 0, text: v ? '1' : '0' } };
  if (isJsonInt(v)) return { name, value: { kind: 'int', value: Number(v.value), text: v.value } };
  if (isJsonNumber(v)) return { name, value: { kind: 'float', value: Number(v.value), text: v.value } };
  if (typeof v === 'string') return { name, value: name === 'ranker' ? rankerValue(v) : { kind: 'string', value: v } };
  if (isJsonObject(v)) {
    const entries = Object.entries(v).map(([field, w]) => {
      if (!isJsonNumber(w)) throw shapeError(`"${field}" property of "${name}"' option should be numeric`);
      return { name: field, value: { kind: 'int' as const, value: Math.trunc(Number(w.value)), text: w.value } };
    });
    return { name, value: { kind: 'list', entries } };
  }
  throw new SearchError('PARSE_ERROR', `unknown option '${name}'`);
}

/** `options` as SQL OPTION values, checked against SELECT's option list. */
export function jsonOptions(opts: JsonValue | undefined): NamedValue[] {
  if (opts === undefined) return [];
  if (!isJsonObject(opts)) throw shapeError('"options" property value should be an object');
  const out = Object.entries(opts).map(([name, v]) => optionOf(name, v));
  checkOptions('select', out);
  return out;
}
