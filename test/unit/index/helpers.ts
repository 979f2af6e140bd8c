// Test helpers: a minimal tokenizer (lowercase, letters and digits) and query-tree builders.
import type { DocInput, FieldTokens, IndexSchema, SearchRequest } from '../../../src/index/types.js';
import type { FieldLimit, QueryNode, TermNode } from '../../../src/query/ast.js';

export function tokens(text: string): FieldTokens {
  const terms = text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);
  return { terms, positions: terms.map((_, i) => i + 1), length: terms.length };
}

export function doc(schema: IndexSchema, id: number | bigint, fields: Record<string, string>, attrs: DocInput['attrs'] = []): DocInput {
  return {
    docId: BigInt(id),
    fields: schema.fields.map((f) => tokens(fields[f] ?? '')),
    attrs: schema.attrs.map((_, i) => attrs[i] ?? null),
  };
}

export const t = (text: string, extra: Partial<TermNode> = {}): TermNode => ({ kind: 'term', text, ...extra });
export const and = (...children: QueryNode[]): QueryNode => ({ kind: 'and', children });
export const or = (...children: QueryNode[]): QueryNode => ({ kind: 'or', children });
export const not = (child: QueryNode): QueryNode => ({ kind: 'not', child });
export const phrase = (words: string, field?: FieldLimit): QueryNode => {
  const ws = words.split(' ');
  const terms: TermNode[] = [];
  const offsets: number[] = [];
  ws.forEach((w, i) => { if (w !== '*') { terms.push(t(w)); offsets.push(i); } });
  return { kind: 'phrase', terms, offsets, field };
};
export const prox = (words: string, distance: number): QueryNode => ({ kind: 'proximity', terms: words.split(' ').map((w) => t(w)), distance });
export const quorum = (words: string, threshold: number): QueryNode => ({ kind: 'quorum', terms: words.split(' ').map((w) => t(w)), threshold });
export const field = (names: string[], extra: Partial<FieldLimit> = {}): FieldLimit => ({ fields: names, exclude: false, ...extra });

export function req(query: QueryNode | null, extra: Partial<SearchRequest> = {}): SearchRequest {
  return { query, ranker: 'proximity_bm25', fieldWeights: {}, filters: [], sort: [], offset: 0, limit: 20, maxMatches: 1000, ...extra };
}
