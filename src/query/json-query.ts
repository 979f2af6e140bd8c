/**
 * The JSON full-text forms of `/search` (`match`, `match_phrase`, `term`, `terms`, `query_string`, `match_all`) as
 * query trees, helpers to combine them as `bool` does, and the final Manticore fix-up pass.
 */
import type { ParsedQuery, QueryNode } from './ast.js';
import { astToXq } from './ast-to-xq.js';
import { matchNode } from './json-match.js';
import { parseQuery, type ParseOptions } from './parse-query.js';
import { simplify } from './simplify.js';
import { isNothing, nothing, toAst } from './to-ast.js';
import { fixupTree } from './tree-fixup.js';
import { SearchError } from '../util/errors.js';

export interface JsonQueryOptions extends ParseOptions {
  /** JSON path of the object holding the property, for error texts; default `/query`. */
  path?: string;
}

/** Full-text properties this module reads. */
export const FULL_TEXT_PROPERTIES = ['match', 'match_phrase', 'term', 'terms', 'query_string', 'match_all'] as const;

export const isFullTextProperty = (name: string): boolean => (FULL_TEXT_PROPERTIES as readonly string[]).includes(name);

/** A built property: null (with a warning) when Manticore builds nothing and raises no error. */
export interface FullTextResult {
  node: QueryNode | null;
  warnings: string[];
}

/**
 * Translates one full-text property. Throws SearchError('PARSE_ERROR') with Manticore's text and
 * the JSON path, e.g. `query error: ill-formed "match" property at '/query/bool/should/match'`.
 * `match_all` (and a `query_string` with no words) is an EmptyNode: it adds no condition.
 */
export function fullTextNode(name: string, value: unknown, opts: JsonQueryOptions = {}): FullTextResult {
  const at = `${opts.path ?? '/query'}/${name}`;
  try {
    switch (name) {
      case 'match': return matchNode(value, false, opts);
      case 'match_phrase': return matchNode(value, true, opts);
      case 'term': return matchNode(value, false, opts, 'term');
      case 'terms': return matchNode(value, false, opts, 'terms');
      case 'match_all': return { node: { kind: 'empty' }, warnings: [] };
      case 'query_string': return queryString(value, opts);
      default: throw new SearchError('PARSE_ERROR', `query error: unknown full-text node '${name}'`);
    }
  } catch (e) {
    if (e instanceof SearchError) throw new SearchError(e.code, `${e.message} at '${at}'`);
    throw e;
  }
}

function queryString(value: unknown, opts: ParseOptions): FullTextResult {
  let text: string;
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    const extra = Object.keys(value).filter((k) => k !== 'query');
    // Manticore reads `query` only; other keys (fields, default_operator, ...) would be silently dropped
    if (extra.length) throw new SearchError('UNSUPPORTED', `query error: "query_string" property "${extra[0]}" is not supported`);
    const q = (value as Record<string, unknown>).query;
    if (typeof q !== 'string' || q === '') {
      throw new SearchError('PARSE_ERROR', 'query error: "query_string" value should be an object with the "query" string');
    }
    text = q;
  } else if (typeof value === 'string') {
    text = value;
  } else {
    throw new SearchError('PARSE_ERROR', 'query error: "query_string" value should be an string');
  }
  let parsed: ParsedQuery;
  try {
    parsed = parseQuery(text, opts);
  } catch (e) {
    if (e instanceof SearchError) throw new SearchError(e.code, `query error: ${e.message}`);
    throw e;
  }
  // A query string that leaves nothing is an empty node to JSON: it adds no full-text condition.
  return { node: isNothing(parsed.root) ? { kind: 'empty' } : parsed.root, warnings: parsed.warnings };
}

/** Implicit AND of several nodes (one node stays itself). */
export function andOf(nodes: QueryNode[]): QueryNode {
  return nodes.length === 1 ? nodes[0]! : { kind: 'and', children: nodes };
}

/** OR of several nodes (one node stays itself). */
export function orOf(nodes: QueryNode[]): QueryNode {
  return nodes.length === 1 ? nodes[0]! : { kind: 'or', children: nodes };
}

export function notOf(node: QueryNode): QueryNode {
  return { kind: 'not', child: node };
}

export function maybeOf(left: QueryNode, right: QueryNode): QueryNode {
  return { kind: 'maybe', left, right };
}

/** The full-text items of a `bool`; a null item is one that built nothing (the whole bool then does too). */
export interface BoolParts {
  must?: (QueryNode | null)[];
  should?: (QueryNode | null)[];
  mustNot?: (QueryNode | null)[];
}

/**
 * Manticore's bool: must AND-ed, should OR-ed, must_not one NOT (of an OR); must with must_not is
 * an AND; should next to either is MAYBE (it only adds weight). Null when there is nothing.
 * A nested bool that gives null is simply left out by the caller.
 */
export function boolOf(parts: BoolParts): QueryNode | null {
  const lists = [parts.must ?? [], parts.should ?? [], parts.mustNot ?? []];
  if (lists.some((l) => l.includes(null))) return null;
  const [must, should, mustNot] = lists as QueryNode[][];
  const mustNode = must.length ? andOf(must) : null;
  const shouldNode = should.length ? orOf(should) : null;
  const notNode = mustNot.length ? notOf(orOf(mustNot)) : null;
  let result = mustNode ?? notNode;
  if (mustNode && notNode) result = { kind: 'and', children: [mustNode, notNode] };
  if (!result) return shouldNode;
  return shouldNode ? maybeOf(result, shouldNode) : result;
}

/** True when a tree built from JSON holds any full-text condition (match_all alone does not). */
export function hasFullText(node: QueryNode): boolean {
  switch (node.kind) {
    case 'empty': return false;
    case 'and': case 'or': return isNothing(node) || node.children.some(hasFullText);
    case 'order': case 'near': case 'sentence': case 'paragraph': return node.children.some(hasFullText);
    case 'not': case 'zone': return hasFullText(node.child);
    case 'maybe': return hasFullText(node.left) || hasFullText(node.right);
    default: return true;
  }
}

/**
 * Manticore's final pass over the whole JSON tree (NOT rules, vanished parts swept). The root is an
 * EmptyNode when there is no full-text condition (a full scan), an OR without children when the
 * conditions match nothing. Errors here carry no JSON path, as in Manticore.
 */
export function finishQuery(root: QueryNode | null, opts: ParseOptions = {}): ParsedQuery {
  if (!root || !hasFullText(root)) return { root: { kind: 'empty' }, warnings: [] };
  const fixed = fixupTree(astToXq(root, opts.fields), opts.notTermsOnlyAllowed === true);
  const warnings = [...fixed.warnings];
  if (!fixed.root) return { root: nothing(), warnings };
  return { root: simplify(toAst(fixed.root, warnings, opts.wildcards ?? true)), warnings };
}
