/**
 * Puts a parsed query's words into dictionary form with the table's text pipeline, before the index
 * sees them. One typed word can become nothing (a stopword or separators only), one term, or several
 * terms (`foo_bar` -> foo, bar), which then must stand next to each other: a phrase.
 */
import type { PhraseNode, QueryNode, TermNode } from '../query/ast.js';

export type WordNormalizer = (word: string) => string[];

function termsOf(t: TermNode, normalize: WordNormalizer): TermNode[] {
  // Exact forms and wildcards keep their text: the index handles `=word` and expansion itself.
  if (t.wildcard) return [{ ...t, text: t.text.toLowerCase() }];
  return normalize(t.text).map((text) => ({ ...t, text }));
}

function normalizeTerm(t: TermNode, normalize: WordNormalizer): QueryNode | null {
  const parts = termsOf(t, normalize);
  if (parts.length === 0) return null;
  if (parts.length === 1) return parts[0];
  return { kind: 'phrase', terms: parts, offsets: parts.map((_, i) => i), field: t.field };
}

function normalizePhrase(p: PhraseNode, normalize: WordNormalizer): QueryNode | null {
  const terms: TermNode[] = [];
  const offsets: number[] = [];
  let shift = 0;
  p.terms.forEach((t, i) => {
    const parts = termsOf(t, normalize);
    // A dropped word still holds its place, so the words around it keep their distance.
    parts.forEach((part, j) => { terms.push(part); offsets.push(p.offsets[i] + shift + j); });
    if (parts.length > 1) shift += parts.length - 1;
  });
  if (terms.length === 0) return null;
  const base = offsets[0];
  return { ...p, terms, offsets: offsets.map((o) => o - base) };
}

function normalizeList(nodes: QueryNode[], normalize: WordNormalizer): QueryNode[] {
  return nodes.map((n) => normalizeQuery(n, normalize)).filter((n): n is QueryNode => n !== null);
}

/** The tree with every word in dictionary form; null when nothing searchable is left. */
export function normalizeQuery(node: QueryNode, normalize: WordNormalizer): QueryNode | null {
  switch (node.kind) {
    case 'term': return normalizeTerm(node, normalize);
    case 'phrase': return normalizePhrase(node, normalize);
    case 'proximity': case 'quorum': {
      const terms = node.terms.flatMap((t) => termsOf(t, normalize));
      return terms.length ? { ...node, terms } : null;
    }
    case 'and': case 'or': case 'order': case 'sentence': case 'paragraph': case 'near': {
      const children = normalizeList(node.children, normalize);
      if (children.length === 0) return null;
      if (children.length === 1 && node.kind !== 'near') return children[0];
      return { ...node, children } as QueryNode;
    }
    case 'not': {
      const child = normalizeQuery(node.child, normalize);
      return child ? { kind: 'not', child } : null;
    }
    case 'maybe': {
      const left = normalizeQuery(node.left, normalize);
      const right = normalizeQuery(node.right, normalize);
      if (!left) return right;
      return right ? { kind: 'maybe', left, right } : left;
    }
    case 'zone': {
      const child = normalizeQuery(node.child, normalize);
      return child ? { ...node, child } : null;
    }
    case 'empty': return node;
  }
}
