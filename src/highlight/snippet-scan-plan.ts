/**
 * Whether a query can take the highlight fast path (snippet-scan-path.ts), and what that path needs
 * for every document: the keywords it tracks, their weights and the letters that start them.
 */
import type { QueryNode, TermNode } from '../query/ast.js';
import { MAX_KEYWORDS } from './snippet-keywords.js';
import { prepareMarks, type MarkContext } from './snippet-marks.js';

/** What a query needs for every document on this path. */
export interface ScanPlan {
  /** The normalized tree (null: nothing to match). */
  root: QueryNode | null;
  /** Dictionary term -> keyword index (all below MAX_KEYWORDS). */
  keywords: Map<string, number>;
  weights: number[];
  /** Every tracked keyword's bit. */
  allMask: number;
  /** Letters a-z that start a tracked keyword (bit i: a + i): the scan names only tokens starting with these (and the stopwords' letters). */
  letters: number;
}

/** Bits of the 26 letters a-z. */
const ALL_LETTERS = (1 << 26) - 1;

/**
 * The letters a-z (as bits) whose tokens the scan may leave unnamed: a token starting with one is
 * neither a keyword (none starts so) nor a stopword that counts (with stopword_step=1 a stopword
 * takes its position as any word does, so only with another step do the stopwords' letters count).
 * 0 when the dictionary may change a token's first letter (`named` null).
 */
export function skipLetters(named: number | null, keywordLetters: number, stopwordStep: number): number {
  if (named === null) return 0;
  return ~(keywordLetters | (stopwordStep === 1 ? 0 : named)) & ALL_LETTERS;
}

/** The letters a-z (as bits) that start one of `terms`. */
function firstLetters(terms: Iterable<string>): number {
  let m = 0;
  for (const t of terms) {
    const i = t.charCodeAt(0) - 0x61;
    if (i >= 0 && i < 26) m |= 1 << i;
  }
  return m;
}

const plans = new WeakMap<QueryNode, Map<string, ScanPlan | null>>();

/** Only these node kinds, NOT only under AND, plain non-anchored terms whose keyword is tracked. */
function supported(n: QueryNode, keywords: Map<string, number>, underAnd: boolean): boolean {
  const term = (t: TermNode): boolean => !t.wildcard && !t.exact && !t.fieldStart && !t.fieldEnd && keywords.has(t.text);
  switch (n.kind) {
    case 'term': return term(n);
    case 'phrase': return !n.field?.maxPos && n.terms.length > 0 && n.terms.every(term);
    case 'and': return n.children.some((c) => c.kind !== 'not') && n.children.every((c) => supported(c, keywords, true));
    case 'or': return n.children.every((c) => supported(c, keywords, false));
    case 'not': return underAnd && supported(n.child, keywords, false);
    default: return false;
  }
}

/** The query's plan for this path, or null when it needs the general one. */
export function scanPlan(root: QueryNode, ctx: MarkContext): ScanPlan | null {
  let byKey = plans.get(root);
  if (!byKey) { byKey = new Map(); plans.set(root, byKey); }
  const key = `${ctx.ignoreFields}:${ctx.expandInfix}:${ctx.expandPrefix}:${ctx.exactWords ?? true}`;
  let p = byKey.get(key);
  if (p !== undefined) return p;
  const { q, kw } = prepareMarks(root, ctx);
  p = null;
  if (kw.isPlain() && !q.exactForms && !q.patterns.length && !q.spz) {
    const keywords = new Map<string, number>();
    for (const [t, k] of kw.byTerm) if (k < MAX_KEYWORDS) keywords.set(t, k);
    let allMask = 0;
    for (const k of keywords.values()) allMask |= 1 << k;
    if (!q.root || supported(q.root, keywords, false)) p = {
      root: q.root, keywords, weights: kw.weights.slice(0, MAX_KEYWORDS), allMask: allMask >>> 0, letters: firstLetters(keywords.keys()),
    };
  }
  byKey.set(key, p);
  return p;
}
