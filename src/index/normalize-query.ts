/**
 * Puts a parsed query's words into dictionary form with the table's text pipeline, before the index
 * sees them. One typed word can become nothing (a stopword or separators only), one term, or several
 * terms (`foo_bar` -> foo, bar), which then must stand next to each other: a phrase.
 */
import type { PhraseNode, QueryNode, TermNode } from '../query/ast.js';
import type { TextPipeline } from '../text/text-pipeline.js';
import { exactWordsEnabled } from './exact-forms.js';
import type { ExpansionSettings } from './wildcard.js';

export type WordNormalizer = (word: string) => string[];

/**
 * The exact-form normalizer in effect: `=word` -> its folded, unstemmed tokens (stopwords left
 * out), looked up as `=token`. Without exact words (index_exact_words off or no morphology) the
 * query tokenizer does not treat `=` as an operator, so exact terms are plain words.
 */
let exactNormalizer: WordNormalizer | undefined;
/** expand_keywords in effect (set with exactNormalizer by normalizeTableQuery). */
let expansion: KeywordExpansion | undefined;

/**
 * expand_keywords (Manticore's ExpandKeyword): a plain word becomes `word | *word*` (or `word*`
 * when only prefixes are indexed) `| =word`, the star form only when the word has min_infix_len
 * (min_prefix_len) characters, the exact one only with exact words.
 */
export interface KeywordExpansion { star: boolean; exact: boolean; minInfixLen: number; minPrefixLen: number; fold: WordNormalizer }

function expandTerm(t: TermNode, base: TermNode): QueryNode {
  const e = expansion!;
  const folded = e.fold(t.text);
  if (folded.length !== 1) return base;
  const w = folded[0];
  const len = [...w].length;
  const variants: QueryNode[] = [base];
  const { exact: _e, ...plain } = t;
  if (e.star && e.minInfixLen > 0 && len >= e.minInfixLen) variants.push({ ...plain, text: `*${w}*`, wildcard: true });
  else if (e.star && e.minPrefixLen > 0 && len >= e.minPrefixLen) variants.push({ ...plain, text: `${w}*`, wildcard: true });
  if (e.exact) variants.push({ ...plain, text: w, exact: true });
  return variants.length === 1 ? base : { kind: 'or', children: variants };
}

function termsOf(t: TermNode, normalize: WordNormalizer): TermNode[] {
  // wildcards keep their text: the index expands them itself
  if (t.wildcard) return [{ ...t, text: t.text.toLowerCase() }];
  if (t.exact && exactNormalizer) return exactNormalizer(t.text).map((text) => ({ ...t, text }));
  const { exact: _drop, ...plain } = t;
  return normalize(t.text).map((text) => ({ ...plain, text }));
}

/**
 * A table's word normalizers, whether `=` is the exact-form operator and `*?%` are wildcards
 * for its queries, and how its wildcards expand.
 */
export interface TableNormalizers {
  word: WordNormalizer; exact?: WordNormalizer; exactWords: boolean; wildcards: boolean; expansion: ExpansionSettings;
  keywords?: KeywordExpansion;
}

/** expand_keywords: 1 (exact and star), or a list of `exact` / `star`; 0 or unset: off. */
function expandFlags(value: string | undefined): { exact: boolean; star: boolean } {
  const v = (value ?? '0').trim().toLowerCase();
  if (/^\d/.test(v)) return Number.parseInt(v, 10) !== 0 ? { exact: true, star: true } : { exact: false, star: false };
  return { exact: v.includes('exact'), star: v.includes('star') };
}

const intSetting = (v: string | undefined) => Math.max(0, Number.parseInt(v ?? '0', 10) || 0);

/** How a table's wildcards expand (TableNormalizers' `expansion`), without building its normalizers. */
export function tableExpansion(pipeline: TextPipeline, settings: Record<string, string>): ExpansionSettings {
  const morph = pipeline.settings.morphology.length > 0;
  const minInfixLen = intSetting(settings.min_infix_len);
  // dict=keywords: an infix table also expands prefixes of any length (GetMinPrefixLen)
  const minPrefixLen = intSetting(settings.min_prefix_len) || (minInfixLen > 0 ? 1 : 0);
  return { minPrefixLen, minInfixLen, exactForms: morph || exactWordsEnabled(morph, settings) };
}

export function tableNormalizers(pipeline: TextPipeline, settings: Record<string, string>): TableNormalizers {
  const morph = pipeline.settings.morphology.length > 0;
  const exactWords = exactWordsEnabled(morph, settings);
  const minInfixLen = intSetting(settings.min_infix_len);
  const expansion = tableExpansion(pipeline, settings);
  const minPrefixLen = expansion.minPrefixLen;
  const wildcards = minPrefixLen > 0 || minInfixLen > 0;
  const word = (w: string) => pipeline.normalizeWord(w);
  // CALL KEYWORDS' tokenized column is the folded token; rows are only made for non-stopwords
  const fold = (w: string) => pipeline.keywords(w).map((r) => r.tokenized);
  const flags = expandFlags(settings.expand_keywords);
  const keywords = (flags.star && wildcards) || (flags.exact && exactWords)
    ? { star: flags.star && wildcards, exact: flags.exact && exactWords, minInfixLen, minPrefixLen: intSetting(settings.min_prefix_len), fold }
    : undefined;
  if (!exactWords) return { word, exactWords, wildcards, expansion, keywords };
  return { word, exactWords, wildcards, expansion, keywords, exact: fold };
}

/** normalizeQuery with a table's normalizers (exact forms included). */
export function normalizeTableQuery(node: QueryNode, n: TableNormalizers): QueryNode | null {
  exactNormalizer = n.exact;
  expansion = n.keywords;
  try {
    return normalizeQuery(node, n.word);
  } finally {
    exactNormalizer = undefined;
    expansion = undefined;
  }
}

function normalizeTerm(t: TermNode, normalize: WordNormalizer): QueryNode | null {
  const parts = termsOf(t, normalize);
  if (parts.length === 0) return null;
  if (parts.length === 1) return expansion && !t.wildcard && !t.exact ? expandTerm(t, parts[0]) : parts[0];
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
