// Test helpers: short builders for expected trees and a position-free view of parsed trees.
import type { FieldLimit, QueryNode, TermNode } from '../../../src/query/ast.js';
import { parseQuery, type ParseOptions } from '../../../src/query/parse-query.js';

/** The tree without query positions (most expectations are about shape, not positions). */
export function strip(node: QueryNode): QueryNode {
  return JSON.parse(JSON.stringify(node, (k, v) => (k === 'pos' ? undefined : v))) as QueryNode;
}

/** Parses and strips positions. */
export function tree(q: string, opts?: ParseOptions): QueryNode {
  return strip(parseQuery(q, opts).root);
}

export function t(text: string, extra: Partial<TermNode> = {}): TermNode {
  return { kind: 'term', text, ...extra };
}

export const and = (...children: QueryNode[]): QueryNode => ({ kind: 'and', children });
export const or = (...children: QueryNode[]): QueryNode => ({ kind: 'or', children });
export const not = (child: QueryNode): QueryNode => ({ kind: 'not', child });
export const phrase = (words: string[], offsets?: number[], field?: FieldLimit): QueryNode => ({
  kind: 'phrase', terms: words.map((w) => t(w)), offsets: offsets ?? words.map((_, i) => i), ...(field ? { field } : {}),
});
export const f = (...fields: string[]): FieldLimit => ({ fields, exclude: false });

/** The message of the SearchError a call throws (fails the test if it does not throw). */
export function errorOf(fn: () => unknown): string {
  try {
    fn();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected an error');
}
