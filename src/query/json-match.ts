/**
 * JSON `match` and `match_phrase`: `{field|"*"|"_all"|"f1,f2": text | {query, operator, boost}}`.
 * The text is split into words only (no operators); words are OR-ed by default.
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

/** The keys of the object form that are read. */
const MATCH_KEYS = new Set(['query', 'operator', 'boost']);

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** What a `match` built: a tree (an OR without children if every word vanished), or null with a warning. */
export interface MatchResult {
  node: QueryNode | null;
  warnings: string[];
}

/** `match` (phrase false) or `match_phrase` (phrase true). Errors carry no JSON path yet. */
export function matchNode(value: unknown, phrase: boolean, opts: ParseOptions): MatchResult {
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
  if (isObject(fieldValue)) {
    const extra = Object.keys(fieldValue).filter((k) => !MATCH_KEYS.has(k) || (phrase && k === 'operator'));
    // Manticore reads query, operator and boost; other keys (fuzziness, ...) would be silently dropped
    if (extra.length) throw new SearchError('UNSUPPORTED', `"${phrase ? 'match_phrase' : 'match'}" property "${extra[0]}" is not supported`);
    text = queryProperty(fieldValue);
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

/** The `query` string of the object form (Manticore's GetStrItem checks and texts). */
function queryProperty(obj: Record<string, unknown>): string {
  if (!('query' in obj)) throw queryError('"query" property missing');
  const q = obj.query;
  if (typeof q !== 'string') throw queryError('"query" property value should be a string');
  if (q === '') throw queryError('"query" property empty');
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
