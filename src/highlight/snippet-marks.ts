/**
 * Matched-occurrence marks of one document for highlighting: the hits come from the core's plan
 * evaluator (snippet-doc-index), the keyword numbering from the query's keyword list.
 */
import type { QueryNode } from '../query/ast.js';
import type { TextPipeline } from '../text/text-pipeline.js';
import type { Core } from '../wasm/core.js';
import { documentHits, hitKeys, type DocField } from './snippet-doc-index.js';
import { queryKeywords, tokenKeywords, type Keywords } from './snippet-keywords.js';
import { snippetPlanQuery, type SnippetQuery, type SnippetQueryOptions } from './snippet-query.js';

export interface MarkContext extends SnippetQueryOptions {
  /** The table's pipeline: query words are normalized as search normalizes them. */
  pipeline: TextPipeline;
  /** The table's other full-text fields (the query may name them; they count as empty). */
  schemaFields?: string[];
  core?: Core;
}

export interface DocumentMarks {
  /** Sorted hit keys `field * FIELD_SHIFT + pos` of the words that take part in satisfying the query. */
  hits: number[];
  /** Per field, per token: index of the query keyword the token matches, -1 for none. */
  termIndex: Int32Array[];
  /** Query keyword lengths in codepoints (Manticore's passage term weights). */
  termWeights: number[];
  /** Keywords present anywhere in the document, as a bit mask. */
  foundMask: number;
}

/** What a query needs for every document: its planned form and keyword list. */
export interface Prepared { q: SnippetQuery; kw: Keywords }

/** Per parsed query, per pipeline and options (one query serves a page of documents). */
const prepared = new WeakMap<QueryNode, Map<TextPipeline, Map<string, Prepared>>>();

export function prepareMarks(root: QueryNode, ctx: MarkContext): Prepared {
  let byPipeline = prepared.get(root);
  if (!byPipeline) { byPipeline = new Map(); prepared.set(root, byPipeline); }
  let byKey = byPipeline.get(ctx.pipeline);
  if (!byKey) { byKey = new Map(); byPipeline.set(ctx.pipeline, byKey); }
  const key = `${ctx.ignoreFields}:${ctx.expandInfix}:${ctx.expandPrefix}:${ctx.exactWords ?? true}`;
  let p = byKey.get(key);
  if (!p) {
    const kw = queryKeywords(root, {
      normalize: (w) => ctx.pipeline.normalizeWord(w), expandInfix: ctx.expandInfix, expandPrefix: ctx.expandPrefix, exactWords: ctx.exactWords,
    });
    p = { q: snippetPlanQuery(root, ctx.pipeline, ctx), kw };
    byKey.set(key, p);
  }
  return p;
}

/**
 * True when some word of the document is one the query looks up (else no hit can exist). With
 * plain keywords only, the keyword table already tells: no keyword found, no query term present.
 */
function mayMatch(q: SnippetQuery, kw: Keywords, found: number, fields: DocField[]): boolean {
  if (q.patterns.length || q.exactForms) return true;
  if (kw.isPlain()) return found !== 0;
  for (const f of fields) {
    for (const t of f.tokens) {
      if (q.terms.has(t.term)) return true;
      if (t.inner?.some((x) => q.terms.has(x.term))) return true;
    }
  }
  return false;
}

/** Marks `root`'s matched occurrences in the document's fields. */
export function markDocument(root: QueryNode, fields: DocField[], ctx: MarkContext): DocumentMarks {
  const { q, kw } = prepareMarks(root, ctx);
  const table = tokenKeywords(kw, fields.map((f) => f.tokens));
  const none = { hits: [], termIndex: table.termIndex, termWeights: table.weights, foundMask: table.foundMask };
  if (!q.root || !mayMatch(q, kw, table.foundMask, fields)) return none;
  const extraFields = ctx.ignoreFields ? [] : [...q.fieldNames, ...(ctx.schemaFields ?? [])];
  const raw = documentHits({ root: q.root, exactForms: q.exactForms, extraFields, terms: q.terms, patterns: q.patterns, spz: q.spz }, fields, ctx.core);
  if (!raw.length) return none;
  let keyPos: Set<number>[] | null = null;
  const isKeyword = (field: number, pos: number): boolean => {
    // keyword positions per field, made only when a span (phrase, proximity, NEAR) needs cutting
    keyPos ??= fields.map((f, i) => {
      const s = new Set<number>();
      f.tokens.forEach((t, j) => { if (table.termIndex[i][j] >= 0) s.add(t.pos); });
      return s;
    });
    return field < keyPos.length && keyPos[field].has(pos);
  };
  return { ...none, hits: hitKeys(raw, isKeyword) };
}
