/**
 * A table opened in a page (an image in memory or an exported folder fetched in chunks): the
 * server's own query parser, normalizer, planner, core and highlighter over one read-only segment. `search` answers as `/search` with a `query_string`
 * does for the same table (ids, weights, order, highlights); errors carry the server's texts.
 */
import { highlightDocument, highlightPlan, parseJsonHighlight, type HighlightTable, type RowHighlight } from '../highlight/highlight-request.js';
import { tableNormalizers } from '../index/normalize-query.js';
import { searchSegments } from '../index/search.js';
import { RANKERS, queryStringTrees, tableQueryError } from '../index/table-query.js';
import type { ImageManifest, PageDoc } from '../index/table-image.js';
import type { Ranker, SearchRequest } from '../index/types.js';
import type { QueryNode } from '../query/ast.js';
import type { Column } from '../schema/types.js';
import { createTextPipeline, type TextPipeline } from '../text/text-pipeline.js';
import { SearchError } from '../util/errors.js';
import type { TableSource } from './table-source.js';

/** `/search`'s defaults: 20 hits from the first, max_matches 1000 (Manticore's). */
export const PAGE_DEFAULTS = { limit: 20, offset: 0, maxMatches: 1000 } as const;

export interface SearchOptions {
  limit?: number;
  offset?: number;
  /** A ranker name (`bm25`, `sph04`, ...) or `expr('...')`; default proximity_bm25. */
  ranker?: string;
  /** field name -> weight (OPTION field_weights). */
  fieldWeights?: Record<string, number>;
  /** The JSON `highlight` object's options (pre_tags, post_tags, fragment_size, number_of_fragments, fields, ...). */
  highlight?: Record<string, unknown>;
}

export interface PageHit {
  /** The document id: a number up to 2^53, a decimal string beyond. */
  id: number | string;
  weight: number;
  /** Stored text fields and attributes. */
  fields: PageDoc;
  /** Field -> passages, when `highlight` was asked for. */
  highlight?: RowHighlight;
}

export interface PageResult { total: number; hits: PageHit[] }

export interface TableDescription { table: string; columns: Pick<Column, 'name' | 'type' | 'indexed' | 'stored'>[]; rows: number }

/** `bm25`, `expr('sum(lcs)')` (quotes optional), as `/search`'s options.ranker. */
function rankerOption(text: string): { ranker: Ranker; rankExpr?: string } {
  const m = /^([a-z_0-9]+)\((.*)\)$/is.exec(text.trim());
  const name = (m ? m[1] : text.trim()).toLowerCase();
  if (!RANKERS.has(name)) throw new SearchError('UNSUPPORTED', `unknown ranker '${m ? m[1] : text}'`);
  if (!m) {
    if (name === 'expr') throw new SearchError('QUERY_ERROR', 'ranker=expr requires an expression');
    return { ranker: name as Ranker };
  }
  const arg = m[2].trim();
  const quoted = arg.length >= 2 && (arg[0] === "'" || arg[0] === '"') && arg[arg.length - 1] === arg[0];
  return { ranker: name as Ranker, rankExpr: quoted ? arg.slice(1, -1) : arg };
}

/** The options `search` reads; any other key is an error (nothing silently ignored). */
const SEARCH_KEYS = new Set(['limit', 'offset', 'ranker', 'fieldWeights', 'highlight']);

function count(name: string, v: number | undefined, dflt: number): number {
  if (v === undefined) return dflt;
  if (!Number.isInteger(v) || v < 0) throw new SearchError('PARSE_ERROR', `"${name}" property should be a non-negative integer`);
  return v;
}

export class PageIndex {
  readonly #src: TableSource;
  readonly #m: ImageManifest;
  readonly #pipeline: TextPipeline;
  readonly #highlight: HighlightTable;

  constructor(source: TableSource) {
    this.#src = source;
    this.#m = source.manifest;
    this.#pipeline = createTextPipeline(this.#m.settings);
    const stored = this.#m.columns.filter((c) => c.type === 'text' && c.indexed && c.stored).map((c) => c.name);
    this.#highlight = { env: { pipeline: this.#pipeline, settings: this.#m.settings }, schemaFields: this.#m.index.fields, storedFields: stored };
  }

  describe(): TableDescription {
    const columns = this.#m.columns.map(({ name, type, indexed, stored }) => ({ name, type, indexed, stored }));
    return { table: this.#m.table, columns: [{ name: 'id', type: 'bigint', indexed: false, stored: true }, ...columns], rows: this.#m.rows };
  }

  /** `highlight_query`: in a page, `{"query_string": text}` (the page has no attribute filters). */
  #highlightQuery(q: unknown): QueryNode {
    const text = typeof q === 'object' && q !== null ? (q as Record<string, unknown>).query_string : undefined;
    if (typeof text !== 'string') throw new SearchError('PARSE_ERROR', '"highlight_query" in a page should be {"query_string": text}');
    try {
      return queryStringTrees(text, this.#pipeline, this.#m.settings, this.#m.index.fields, false).typed;
    } catch (e) {
      throw tableQueryError(this.#m.table, e);
    }
  }

  async search(query: string, opts: SearchOptions = {}): Promise<PageResult> {
    const m = this.#m;
    const unknown = Object.keys(opts).find((k) => !SEARCH_KEYS.has(k));
    if (unknown !== undefined) throw new SearchError('PARSE_ERROR', `unknown search option "${unknown}"`);
    let trees;
    try {
      trees = queryStringTrees(String(query), this.#pipeline, m.settings, m.index.fields, false);
    } catch (e) {
      throw tableQueryError(m.table, e);
    }
    const spec = opts.highlight === undefined ? undefined : parseJsonHighlight(opts.highlight);
    if (trees.search === 'none') return { total: 0, hits: [] };
    const offset = count('offset', opts.offset, PAGE_DEFAULTS.offset);
    // searchd's CheckQuery, as /search answers it (engine/exec/exec-select.ts checkMaxMatches): a page past
    // max_matches is an error, not an empty page that reads as "no matches"
    if (offset >= PAGE_DEFAULTS.maxMatches) {
      throw new SearchError('QUERY_ERROR', `offset out of bounds (offset=${offset}, max_matches=${PAGE_DEFAULTS.maxMatches})`);
    }
    const req: SearchRequest = {
      query: trees.search, ranker: 'proximity_bm25', fieldWeights: { ...opts.fieldWeights }, filters: [], sort: [],
      offset, limit: count('limit', opts.limit, PAGE_DEFAULTS.limit),
      maxMatches: PAGE_DEFAULTS.maxMatches,
      expansion: { ...tableNormalizers(this.#pipeline, m.settings).expansion, limit: 0 },
      ...(opts.ranker === undefined ? {} : rankerOption(opts.ranker)),
    };
    await this.#src.prepare(req);
    const seg = this.#src.segment;
    const res = searchSegments(m.index, [seg], seg.live, req);
    const docs = await this.#src.hitDocs(res.hits);
    const names = spec ? highlightPlan(spec, this.#highlight) : [];
    const root = spec?.query === undefined ? trees.typed : this.#highlightQuery(spec.query);
    const hits = res.hits.map((h, i): PageHit => {
      const hit: PageHit = { id: docs[i].id, weight: h.weight, fields: docs[i].doc };
      if (spec) hit.highlight = highlightDocument(root, docs[i].doc, names, spec, this.#highlight);
      return hit;
    });
    return { total: res.totalFound, hits };
  }
}
