/**
 * The highlight query in the form the search planner takes: words in dictionary form (the same
 * normalizer as search), wildcards and exact forms over the document's folded words, and with
 * CALL SNIPPETS / TO_STRING the @field names dropped (the @f[N] position limit stays).
 */
import type { FieldLimit, QueryNode, TermNode } from '../query/ast.js';
import type { TextPipeline } from '../text/text-pipeline.js';
import { EXACT_HEAD } from '../index/exact-forms.js';
import { wildcardRegExp } from '../index/wildcard.js';
import { normalizeTableQuery, type TableNormalizers } from '../index/normalize-query.js';

export interface SnippetQueryOptions {
  /** CALL SNIPPETS and TO_STRING: @field operators do not restrict. */
  ignoreFields: boolean;
  /** expand_keywords with min_infix_len / min_prefix_len: plain words also match inside / at the start of words. */
  expandInfix: boolean;
  expandPrefix: boolean;
  /**
   * The table's index_exact_words is in effect (exactWordsEnabled): `=word` looks up the word's
   * exact form. Without it search reads `=word` as a plain word (stemmed), and so must highlighting.
   * Unset: exact forms on (callers that do not know the table's settings).
   */
  exactWords?: boolean;
}

export interface SnippetQuery {
  /** The normalized tree; null when no searchable word is left. */
  root: QueryNode | null;
  /** The tree looks up `=word` forms (exact words, wildcards): the document index needs them. */
  exactForms: boolean;
  /** Field names the tree's @field operators name (the document index gives them empty fields). */
  fieldNames: string[];
  /** Dictionary terms the tree looks up (`=form` for exact words): the document index holds only these. */
  terms: Set<string>;
  /** Wildcards, matched against a word's folded text (its `=form` joins the document index). */
  patterns: RegExp[];
  /** The tree has SENTENCE, PARAGRAPH or ZONE: the document index needs the mark terms. */
  spz: boolean;
}

/** The terms, wildcard patterns and operators the normalized tree uses. */
function lookups(n: QueryNode, out: Pick<SnippetQuery, 'terms' | 'patterns' | 'spz'>): void {
  const term = (t: TermNode): void => {
    if (t.wildcard) out.patterns.push(wildcardRegExp(t.text.startsWith(EXACT_HEAD) ? t.text.slice(1) : t.text));
    else out.terms.add(t.exact ? EXACT_HEAD + t.text : t.text);
  };
  switch (n.kind) {
    case 'term': term(n); break;
    case 'phrase': case 'proximity': case 'quorum': n.terms.forEach(term); break;
    case 'sentence': case 'paragraph': out.spz = true; n.children.forEach((c) => lookups(c, out)); break;
    case 'and': case 'or': case 'order': case 'near': n.children.forEach((c) => lookups(c, out)); break;
    case 'zone': out.spz = true; lookups(n.child, out); break;
    case 'not': lookups(n.child, out); break;
    case 'maybe': lookups(n.left, out); lookups(n.right, out); break;
    case 'empty': break;
  }
}

const visitFields = (n: QueryNode, f: (l: FieldLimit) => FieldLimit | undefined): QueryNode => {
  const field = 'field' in n && n.field ? f(n.field) : undefined;
  const withField = <T extends QueryNode>(x: T): T => ('field' in x && x.field ? { ...x, field } : x);
  switch (n.kind) {
    case 'term': return withField(n);
    case 'phrase': case 'proximity': case 'quorum':
      return withField({ ...n, terms: n.terms.map((t) => visitFields(t, f) as TermNode) });
    case 'and': case 'or': case 'order': case 'sentence': case 'paragraph': case 'near':
      return { ...n, children: n.children.map((c) => visitFields(c, f)) } as QueryNode;
    case 'not': return { kind: 'not', child: visitFields(n.child, f) };
    case 'maybe': return { kind: 'maybe', left: visitFields(n.left, f), right: visitFields(n.right, f) };
    case 'zone': return { ...n, child: visitFields(n.child, f) };
    case 'empty': return n;
  }
};

/** Wildcards match the document's folded words (Manticore's snippet index matches stars against the word as written). */
function wildcardsOnForms(n: QueryNode, seen: { exact: boolean }): QueryNode {
  const term = (t: TermNode): TermNode => {
    if (t.exact) seen.exact = true;
    if (!t.wildcard) return t;
    seen.exact = true;
    return t.text.startsWith(EXACT_HEAD) ? t : { ...t, text: EXACT_HEAD + t.text };
  };
  switch (n.kind) {
    case 'term': return term(n);
    case 'phrase': case 'proximity': case 'quorum': return { ...n, terms: n.terms.map(term) };
    case 'and': case 'or': case 'order': case 'sentence': case 'paragraph': case 'near':
      return { ...n, children: n.children.map((c) => wildcardsOnForms(c, seen)) } as QueryNode;
    case 'not': return { kind: 'not', child: wildcardsOnForms(n.child, seen) };
    case 'maybe': return { kind: 'maybe', left: wildcardsOnForms(n.left, seen), right: wildcardsOnForms(n.right, seen) };
    case 'zone': return { ...n, child: wildcardsOnForms(n.child, seen) };
    case 'empty': return n;
  }
}

/** A word normalizer that normalizes each distinct word once (a long query repeats its words). */
function memo(f: (w: string) => string[]): (w: string) => string[] {
  const seen = new Map<string, string[]>();
  return (w) => {
    let r = seen.get(w);
    if (!r) { r = f(w); seen.set(w, r); }
    return r;
  };
}

/** The parsed highlight query as the planner reads it. */
export function snippetPlanQuery(root: QueryNode, pipeline: TextPipeline, o: SnippetQueryOptions): SnippetQuery {
  const fieldNames = new Set<string>();
  const limited = visitFields(root, (l) => {
    if (o.ignoreFields) return { fields: [], exclude: false, maxPos: l.maxPos };
    for (const f of l.fields) fieldNames.add(f);
    return l;
  });
  const fold = memo((w: string): string[] => pipeline.keywords(w).map((r) => r.tokenized));
  const expand = o.expandInfix || o.expandPrefix;
  const exactWords = o.exactWords ?? true;
  const norm: TableNormalizers = {
    word: memo((w) => pipeline.normalizeWord(w)), exact: exactWords ? fold : undefined, exactWords, wildcards: true,
    expansion: { minPrefixLen: 0, minInfixLen: 0, exactForms: true },
    keywords: expand ? { star: true, exact: false, minInfixLen: o.expandInfix ? 1 : 0, minPrefixLen: o.expandPrefix ? 1 : 0, fold } : undefined,
  };
  const normalized = normalizeTableQuery(limited, norm);
  const used = { terms: new Set<string>(), patterns: [] as RegExp[], spz: false };
  if (!normalized || normalized.kind === 'empty') return { root: null, exactForms: false, fieldNames: [...fieldNames], ...used };
  const seen = { exact: false };
  const out = wildcardsOnForms(normalized, seen);
  lookups(out, used);
  return { root: out, exactForms: seen.exact, fieldNames: [...fieldNames], ...used };
}
