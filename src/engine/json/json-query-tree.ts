/**
 * The `query` object of `/search`, `/update` and `/delete` split as Manticore does it: the full-text
 * part (match, match_phrase, query_string, match_all, bool) as one query tree, the filters
 * (equals, range, in, exists) as a WHERE condition (src/sphinxjsonquery.cpp CheckRootNode and
 * ConstructBoolNode; filters in json-filters.ts).
 */
import { boolOf, fullTextNode, isFullTextProperty, nothing, type JsonQueryOptions, type QueryNode } from '../../query/index.js';
import type { Condition } from '../../sql/ast.js';
import { SearchError } from '../../util/errors.js';
import { isFilterProperty, queryFilters } from './json-filters.js';
import { isJsonObject, plainJson, type JsonObject, type JsonValue } from './json-value.js';

export interface JsonQueryParts {
  /** The full-text tree before the final pass; null when the query has no full-text part. */
  fullText: QueryNode | null;
  /** Attribute filters; undefined when there are none. */
  where?: Condition;
  warnings: string[];
}

/** A request-shape error (HTTP 400), as opposed to a query error found while building the tree. */
const shapeError = (msg: string): SearchError => new SearchError('PARSE_ERROR', msg);

/** Manticore's CheckRootNode: at most one filter, one bool and one full-text property at the top. */
function checkRoot(query: JsonObject): void {
  let filter = false, bool = false, fullText = false;
  for (const name of Object.keys(query)) {
    if (isFilterProperty(name)) {
      if (filter) throw shapeError('"query" has multiple filter properties, use bool node');
      filter = true;
    } else if (name === 'bool') {
      if (bool) throw shapeError('"query" has multiple bool properties');
      bool = true;
    } else if (isFullTextProperty(name)) {
      if (fullText) throw shapeError('"query" has multiple full-text properties, use bool node');
      fullText = true;
    }
  }
}

/** Thrown inside the tree builder; the caller turns it into `table X: query error: ... at 'path'`. */
function treeError(msg: string, path: string): SearchError {
  return new SearchError('PARSE_ERROR', `query error: ${msg} at '${path}'`);
}

class TreeBuilder {
  readonly warnings: string[] = [];
  /** Set when a full-text item built nothing (with a warning): the whole query then matches nothing. */
  voided = false;
  constructor(private readonly opts: JsonQueryOptions) {}

  /** One node: a bool or a full-text property at `path` (the path of the object holding it). */
  node(name: string, value: JsonValue, path: string): QueryNode | null {
    if (name === 'bool') return this.bool(value, `${path}/bool`);
    const built = fullTextNode(name, plainJson(value), { ...this.opts, path });
    this.warnings.push(...built.warnings);
    if (built.node === null) this.voided = true;
    return built.node;
  }

  /** A clause's items; filters are skipped here (json-filters.ts reads them). */
  #items(clause: string, value: JsonValue, path: string): { nodes: (QueryNode | null)[]; filter: boolean; fullText: boolean } {
    const items = Array.isArray(value) ? value : isJsonObject(value) ? [value] : undefined;
    if (!items) throw treeError(`"${clause}" value should be an object or an array`, path);
    const out = { nodes: [] as (QueryNode | null)[], filter: false, fullText: false };
    for (const item of items) {
      if (!isJsonObject(item)) throw treeError(`"${clause}" array value should be an object`, path);
      const entries = Object.entries(item);
      // Manticore reads an item's first property only; a second one would be silently dropped
      if (entries.length > 1) throw treeError(`"${clause}" item should have one property, got ${entries.map(([k]) => `"${k}"`).join(', ')}`, path);
      const first = entries[0];
      if (!first) continue;
      const [name, v] = first;
      if (isFilterProperty(name)) { out.filter = true; continue; }
      const node = this.node(name, v, path);
      // A nested bool that builds nothing is left out; any other item that builds nothing voids the bool.
      if (node === null && name === 'bool') continue;
      if (name !== 'bool') out.fullText = true;
      out.nodes.push(node);
    }
    return out;
  }

  bool(value: JsonValue, path: string): QueryNode | null {
    if (!isJsonObject(value)) throw treeError('"bool" value should be an object', path);
    const must: (QueryNode | null)[] = [], should: (QueryNode | null)[] = [], mustNot: (QueryNode | null)[] = [];
    for (const [clause, v] of Object.entries(value)) {
      // Manticore skips it (a FIXME in ConstructBoolNode); an ignored constraint would widen the matches
      if (clause === 'minimum_should_match') throw new SearchError('UNSUPPORTED', `"minimum_should_match" property is not supported at '${path}'`);
      const target = clause === 'must' || clause === 'filter' ? must : clause === 'should' ? should : clause === 'must_not' ? mustNot : null;
      if (!target) throw treeError(`unknown bool query type: "${clause}"`, path);
      const items = this.#items(clause, v, `${path}/${clause}`);
      if (clause === 'should' && items.filter && items.fullText) {
        throw treeError('filter and full-text can be used together only inside "must" node', path);
      }
      target.push(...items.nodes);
    }
    return boolOf({ must, should, mustNot });
  }
}

/**
 * Splits a `query` value. Shape errors are SearchError('PARSE_ERROR') with Manticore's text; errors
 * inside the full-text tree are SearchError('QUERY_ERROR') `query error: ... at '/query/...'`.
 */
export function splitJsonQuery(query: JsonValue | undefined, opts: JsonQueryOptions): JsonQueryParts {
  if (query === undefined) return { fullText: null, warnings: [] };
  if (!isJsonObject(query)) throw shapeError('"query" property value should be an object');
  if (Object.keys(query).length === 0) throw shapeError('"query" property is empty');
  checkRoot(query);
  const where = queryFilters(query);
  const ft = Object.entries(query).find(([name]) => !isFilterProperty(name));
  if (!ft) return { fullText: null, where, warnings: [] };
  const builder = new TreeBuilder(opts);
  let fullText: QueryNode | null;
  try {
    fullText = builder.node(ft[0], ft[1], '/query');
  } catch (e) {
    if (e instanceof SearchError && e.code === 'PARSE_ERROR') throw new SearchError('QUERY_ERROR', e.message);
    throw e;
  }
  // A match that built nothing matches nothing (Manticore: an empty OR); a bool of filters only is a full scan.
  if (fullText === null && builder.voided) fullText = nothing();
  return { fullText, where, warnings: builder.warnings };
}
