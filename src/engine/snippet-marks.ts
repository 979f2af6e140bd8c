/**
 * Matched-occurrence marks of one document for highlighting: the hits come from the core's plan
 * evaluator (snippet-doc-index), the keyword numbering from the query's keyword list.
 */
import type { QueryNode } from '../query/ast.js';
import type { TextPipeline } from '../text/text-pipeline.js';
import type { Core } from '../wasm/core.js';
import { documentHits, hitKeys, type DocField } from './snippet-doc-index.js';
import { keywordTable } from './snippet-keywords.js';
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

/** Planned form of each parsed query, per pipeline and options (one query serves a page of documents). */
const planned = new WeakMap<QueryNode, Map<string, SnippetQuery>>();

function plannedQuery(root: QueryNode, ctx: MarkContext): SnippetQuery {
  let byKey = planned.get(root);
  if (!byKey) { byKey = new Map(); planned.set(root, byKey); }
  const key = `${ctx.ignoreFields}:${ctx.expandInfix}:${ctx.expandPrefix}`;
  let q = byKey.get(key);
  if (!q || byKey.size > 8) {
    q = snippetPlanQuery(root, ctx.pipeline, ctx);
    byKey.set(key, q);
  }
  return q;
}

/** Marks `root`'s matched occurrences in the document's fields. */
export function markDocument(root: QueryNode, fields: DocField[], ctx: MarkContext): DocumentMarks {
  const kw = keywordTable(root, fields.map((f) => f.tokens), { normalize: (w) => ctx.pipeline.normalizeWord(w), ...ctx });
  const q = plannedQuery(root, ctx);
  if (!q.root) return { hits: [], termIndex: kw.termIndex, termWeights: kw.weights, foundMask: kw.foundMask };
  const extraFields = ctx.ignoreFields ? [] : [...q.fieldNames, ...(ctx.schemaFields ?? [])];
  const raw = documentHits({ root: q.root, exactForms: q.exactForms, extraFields, terms: q.terms, patterns: q.patterns, spz: q.spz }, fields, ctx.core);
  let hits: number[] = [];
  if (raw.length) {
    // keyword positions per field, for spans (phrase, proximity, NEAR) cut down to their keywords
    const keyPos = fields.map((f, i) => {
      const s = new Set<number>();
      f.tokens.forEach((t, j) => { if (kw.termIndex[i][j] >= 0) s.add(t.pos); });
      return s;
    });
    hits = hitKeys(raw, (field, pos) => field < keyPos.length && keyPos[field].has(pos));
  }
  return { hits, termIndex: kw.termIndex, termWeights: kw.weights, foundMask: kw.foundMask };
}
