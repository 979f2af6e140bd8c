/**
 * A table's view of a full-text query, without the table object: the parse options its text
 * pipeline gives (word characters, null words, lexer hooks), the JSON `query_string` tree in
 * dictionary form, and the error text a search reply carries. The server's executor and the page
 * (src/browser/) both use these, so the two parse and normalize a query the same way.
 */
import { finishQuery, fullTextNode, nothing, type JsonQueryOptions, type QueryNode } from '../query/index.js';
import type { TextPipeline } from '../text/text-pipeline.js';
import { SearchError } from '../util/errors.js';
import { normalizeTableQuery, tableNormalizers, type TableNormalizers } from './normalize-query.js';
import type { Ranker, SearchRequest } from './types.js';

/** Manticore's rankers (sphinxdefs.h), as OPTION ranker names them. */
export const RANKERS: ReadonlySet<string> = new Set<Ranker>(['proximity_bm25', 'bm25', 'none', 'wordcount', 'proximity', 'matchany', 'fieldmask', 'sph04', 'expr']);

/** Parse options of a table; `norm` adds its exact-word and wildcard lexing (left out: as typed, for highlighting). */
export function tableParseOptions(
  pipeline: TextPipeline, fields: string[], notTermsOnlyAllowed: boolean, norm?: TableNormalizers,
): JsonQueryOptions {
  return {
    fields, notTermsOnlyAllowed,
    ...(norm ? { exactWords: norm.exactWords, wildcards: norm.wildcards } : {}),
    isWordChar: (cp: number) => pipeline.isWordChar(cp),
    isNullWord: (w: string) => pipeline.normalizeWord(w).length === 0,
    textHooks: pipeline,
  };
}

/** What a page's or `/search`'s `query_string` yields: the tree in dictionary form and the tree as typed. */
export interface QueryStringTrees {
  /** null = full scan, 'none' = matches nothing. */
  search: SearchRequest['query'] | 'none';
  /** As typed (not normalized): what highlighting marks. */
  typed: QueryNode;
  warnings: string[];
}

/** `{"query_string": text}` for a table, as `/search` builds it (throws SearchError QUERY_ERROR). */
export function queryStringTrees(
  text: string, pipeline: TextPipeline, settings: Record<string, string>, fields: string[], notTermsOnlyAllowed: boolean,
): QueryStringTrees {
  const norm = tableNormalizers(pipeline, settings);
  const asParse = (e: unknown): unknown =>
    (e instanceof SearchError && e.code === 'PARSE_ERROR' ? new SearchError('QUERY_ERROR', e.message) : e);
  try {
    const opts = tableParseOptions(pipeline, fields, notTermsOnlyAllowed, norm);
    const built = fullTextNode('query_string', text, opts);
    // a query_string that builds nothing (with a warning) matches nothing, as in /search
    const parsed = finishQuery(built.node ?? nothing(), opts);
    const search = parsed.root.kind === 'empty' ? null : normalizeTableQuery(parsed.root, norm) ?? 'none';
    const plain = tableParseOptions(pipeline, fields, notTermsOnlyAllowed);
    const typed = finishQuery(fullTextNode('query_string', text, plain).node ?? nothing(), plain).root;
    return { search, typed, warnings: [...built.warnings, ...parsed.warnings] };
  } catch (e) {
    throw asParse(e);
  }
}

/**
 * Errors of a full-text tree carry the table, as Manticore's search reply does:
 * `table t: query error: ...` (parseQuery's own texts may already say `query error:`).
 */
export function tableQueryError(table: string, e: unknown): unknown {
  if (!(e instanceof SearchError) || e.code !== 'QUERY_ERROR' || e.message.startsWith(`table ${table}:`)) return e;
  const text = e.message.replace(/^query error: query error: /, 'query error: ');
  const msg = text.startsWith('query error:') ? text : `query error: ${text}`;
  return new SearchError('QUERY_ERROR', `table ${table}: ${msg}`);
}
