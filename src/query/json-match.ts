/**
 * JSON `match`, `match_phrase`, `term` and `terms`: `{field|"*"|"_all"|"f1,f2": text | {query, operator, boost}}`
 * (`term` reads `value` instead of `query`; `terms` takes an array of strings, joined by spaces). The
 * text is split into words only (no operators); words are OR-ed by default (Manticore's
 * ConstructMatchNode, src/sphinxjsonquery.cpp).
 */
import type { QueryNode } from './ast.js';
import { CharScanner } from './char-scanner.js';
import { parseFieldOperator, queryError } from './field-spec.js';
import type { ParseOptions } from './parse-query.js';
import { simplify } from './simplify.js';
import { nothing, toAst } from './to-ast.js';
import { sweepNulls } from './tree-fixup.js';
import { SearchError } from '../util/errors.js';
import { keywordNode, xqNode, type XqOp, type XqSpec, type XqWord } from './xq-node.js';

/** The keys of the object form that are read (`term`: `value` in place of `query`). */
const MATCH_KEYS = new Set(['query', 'operator', 'boost']);
const TERM_KEYS = new Set(['value', 'operator', 'boost']);

/** Which full-text property: `match` and `match_phrase` as before, `term` and `terms` as Manticore 29 reads them. */
export type MatchKind = 'match' | 'match_phrase' | 'term' | 'terms';

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a `match` built: a tree (an OR without children if every word vanished), or null with a warning. */
export interface MatchResult {
  node: QueryNode | null;
  warnings: string[];
}

/** `match`, `match_phrase` (phrase true), `term` or `terms`. Errors carry no JSON path yet. */
export function matchNode(value: unknown, phrase: boolean, opts: ParseOptions, kind: MatchKind = phrase ? 'match_phrase' : 'match'): MatchResult {
  if (!isObject(value)) throw queryError(`"match" value should be an object`);
  const keys = Object.keys(value);
  if (keys.length !== 1) throw queryError(`ill-formed "match" property`);
  const fieldName = keys[0]!;
  const fieldValue = value[fieldName];
  const warnings: string[] = [];
  const warn = (m: string): void => { warnings.push(`query warning: ${m}`); };
  const read = parseFieldOperator(fieldName, 0, { fields: opts.fields, relaxed: false, json: true, warn });
  let spec: XqSpec = { field: { fields: [], exclude: false } };
  if (read.kind === 'ignore') warn(`ignoring fields in "${fieldName}", using "_all"`);
  else spec = { field: read.spec.limit, noField: read.spec.empty };
  let text: string;
  let op: XqOp = phrase ? 'phrase' : 'or';
  let boost: number | undefined;
  if (kind === 'terms') {
    if (!Array.isArray(fieldValue)) {
      warn('values of properties in "terms" should be an array');
      return { node: null, warnings };
    }
    if (fieldValue.some((t) => typeof t !== 'string')) throw queryError('"terms" value should be a string');
    text = (fieldValue as string[]).join(' ');
  } else if (isObject(fieldValue)) {
    const known = kind === 'term' ? TERM_KEYS : MATCH_KEYS;
    const extra = Object.keys(fieldValue).filter((k) => !known.has(k) || (phrase && k === 'operator'));
    // Manticore reads query (value), operator and boost; other keys (fuzziness, slop,
    // minimum_should_match, ...) it silently drops: refused here rather than answered wrongly
    if (extra.length) throw new SearchError('UNSUPPORTED', `"${kind}" property "${extra[0]}" is not supported`);
    text = stringProperty(fieldValue, kind === 'term' ? 'value' : 'query');
    if (!phrase && 'operator' in fieldValue) op = operatorOf(fieldValue.operator);
    if (typeof fieldValue.boost === 'number') boost = Math.fround(fieldValue.boost);
  } else if (typeof fieldValue === 'string') {
    text = fieldValue;
  } else {
    warn('values of properties in "match" should be strings or objects');
    return { node: null, warnings };
  }
  const words = splitWords(text, opts).map((w): XqWord => (boost === undefined ? w : { ...w, boost }));
  const node = sweepNulls(xqNode(op, spec, words.map((w) => keywordNode(w, spec))), false, false);
  return { node: node ? simplify(toAst(node, warnings, opts.wildcards ?? true)) : nothing(), warnings };
}

/** The `query` (`term`: `value`) string of the object form (Manticore's GetStrItem checks and texts). */
function stringProperty(obj: Record<string, unknown>, name: string): string {
  if (!(name in obj)) throw queryError(`"${name}" property missing`);
  const q = obj[name];
  if (typeof q !== 'string') throw queryError(`"${name}" property value should be a string`);
  if (q === '') throw queryError(`"${name}" property empty`);
  return q;
}

function operatorOf(v: unknown): XqOp {
  if (v === 'and' || v === 'or') return v;
  // A non-string reaches Manticore's printf as a null pointer, which glibc prints as (null).
  throw queryError(`unknown operator: "${typeof v === 'string' ? v : '(null)'}"`);
}

/** Words of match text at positions 1, 2, ...; vanished words keep their position. A last empty one closes. */
export function splitWords(text: string, opts: ParseOptions): XqWord[] {
  const scanner = new CharScanner(text, { ...opts, json: true });
  const toks = [];
  for (let tok = scanner.next(); tok; tok = scanner.next()) toks.push(tok);
  const hooks = opts.textHooks;
  const words: XqWord[] = [];
  let pos = 0;
  for (let i = 0; i < toks.length;) {
    // a multi-word wordform source (`core 2 duo`) is one keyword at one position, as in MATCH()
    const span = hooks && hooks.maxMultiWords > 1
      ? hooks.multiWordSpan(toks.slice(i, i + hooks.maxMultiWords).map((t) => t.text)) : 0;
    const n = span > 1 ? span : 1;
    const word = n > 1 ? text.slice(toks[i]!.start, toks[i + n - 1]!.end) : toks[i]!.text;
    pos++;
    words.push({ text: opts.isNullWord?.(word) ? null : word, pos });
    pos += hooks?.extraPositions?.(word) ?? 0;
    i += n;
  }
  words.push({ text: null, pos });
  return words;
}
