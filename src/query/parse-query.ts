/**
 * Full-text query parser: Manticore's extended query syntax (SQL `MATCH('...')`, JSON
 * `query_string`) to the query tree of `ast.ts`, with Manticore's error and warning texts.
 */
import type { ParsedQuery } from './ast.js';
import type { ScannerOptions } from './char-scanner.js';
import { isNameChar } from './field-spec.js';
import { QueryGrammar, QuerySyntaxError } from './query-grammar.js';
import { QueryLexer } from './query-lexer.js';
import { simplify } from './simplify.js';
import { nothing, toAst } from './to-ast.js';
import { fixupTree } from './tree-fixup.js';
import type { XqNode } from './xq-node.js';

export interface ParseOptions extends ScannerOptions {
  /** searchd `not_terms_only_allowed`: a query of only NOT terms means "all documents except". */
  notTermsOnlyAllowed?: boolean;
  /** The table's full-text fields: `@name` is checked against them (case-insensitively). */
  fields?: string[];
  /** Words the table turns into nothing (stopwords, too short): they vanish but keep their position. */
  isNullWord?: (word: string) => boolean;
  /** OPTION boolean_mode='or': words with no operator between them are OR-ed (NOT still ANDs). */
  defaultOr?: boolean;
}

const RELAXED = '@@relaxed';

/**
 * Parses query text. `''` and text of only spaces are an EmptyNode (a full scan); text whose every word vanished is an OR
 * without children (matches nothing). Throws SearchError('PARSE_ERROR') with Manticore's message,
 * e.g. `P08: syntax error, unexpected '/' near '/Tech'` or `query error: query is non-computable
 * (single NOT operator)`; the caller prefixes `table <name>: `. Manticore reports only the last
 * of `warnings`.
 */
export function parseQuery(text: string, opts: ParseOptions = {}): ParsedQuery {
  if (text === '') return { root: { kind: 'empty' }, warnings: [] };
  const parsed = parseToWorkingTree(text, opts);
  // no token read at all (only spaces) and no tree: searchd's query was "not full-text"
  // (XQParser m_bEmpty and no m_bWasFullText), so it runs as a full scan, as '' does
  if (parsed.empty && parsed.root === null) return { root: { kind: 'empty' }, warnings: parsed.warnings };
  const fixed = fixupTree(parsed.root, opts.notTermsOnlyAllowed === true);
  const warnings = [...parsed.warnings, ...fixed.warnings];
  if (!fixed.root) return { root: nothing(), warnings };
  const root = simplify(toAst(fixed.root, warnings, opts.wildcards ?? true));
  return { root, warnings };
}

/** Lexes and parses into the working tree, before Manticore's fix-ups. */
export function parseToWorkingTree(text: string, opts: ParseOptions): { root: XqNode | null; warnings: string[]; empty: boolean } {
  let query = text;
  let relaxed = false;
  if (query.startsWith(RELAXED) && !isNameChar(query[RELAXED.length])) {
    query = query.slice(RELAXED.length);
    relaxed = true;
  }
  const lexer = new QueryLexer(query, { ...opts, field: { fields: opts.fields, relaxed, json: false } });
  try {
    const root = new QueryGrammar(lexer, opts.defaultOr === true).parse();
    return { root, warnings: lexer.warnings, empty: lexer.empty };
  } catch (e) {
    // Manticore ignores a syntax error when no token was read at all (only junk or spaces).
    if (e instanceof QuerySyntaxError && lexer.empty) return { root: null, warnings: lexer.warnings, empty: true };
    throw e;
  }
}
