/**
 * The query's keywords as the passage scorer counts them (Manticore's snippet keyword list): each
 * distinct keyword in query order with its weight, and per document token the keyword it is an
 * occurrence of. Which occurrences satisfy the query is the plan evaluator's job (snippet-doc-index).
 */
import { wildcardRegExp } from '../index/wildcard.js';
import type { QueryNode, TermNode } from '../query/ast.js';
import type { Token } from '../text/text-pipeline.js';

/** Manticore tracks at most 32 query keywords in a passage mask. */
export const MAX_KEYWORDS = 32;

export interface KeywordContext {
  /** Query word -> dictionary terms with the table's pipeline (stopwords give []). */
  normalize: (word: string) => string[];
  /** expand_keywords with min_infix_len / min_prefix_len: plain words match inside / at start. */
  expandInfix: boolean;
  expandPrefix: boolean;
  /** `=word` is an exact form (index_exact_words in effect); false: a plain word, as search reads it. Unset: true. */
  exactWords?: boolean;
}

export interface KeywordTable {
  /** Keyword weights: the query word's length in codepoints as typed (Manticore's term weight). */
  weights: number[];
  /** Per field, per token: index of the query keyword the token matches, -1 for none. */
  termIndex: Int32Array[];
  /** Keywords present anywhere in the document, as a bit mask. */
  foundMask: number;
}

const cpLength = (s: string): number => [...s].length;

/** Keywords in query order; plain ones by dictionary term, the rest (exact, wildcard, expanded) by test. */
export class Keywords {
  readonly words: string[] = [];
  readonly weights: number[] = [];
  readonly byTerm = new Map<string, number>();
  readonly byText = new Map<string, number>();
  readonly tests: { k: number; test: (t: Token) => boolean }[] = [];

  constructor(private readonly ctx: KeywordContext) {}

  /** Keywords already listed (a Set: a long query's words are many). */
  private readonly listed = new Set<string>();

  private add(word: string, weight: number): number {
    if (this.listed.has(word)) return -1;
    this.listed.add(word);
    this.words.push(word);
    this.weights.push(weight);
    return this.words.length - 1;
  }

  /** Query words already taken: a repeated word adds nothing, so it is not normalized again. */
  private readonly typed = new Set<string>();

  term(t: TermNode): void {
    const typed = `${t.wildcard ? '*' : t.exact ? '=' : ' '}${t.text}`;
    if (this.typed.has(typed)) return;
    this.typed.add(typed);
    if (t.wildcard) {
      const pat = t.text.toLowerCase();
      const re = wildcardRegExp(pat);
      const k = this.add(pat, cpLength(pat));
      // stars match the word as written, as the document index matches them
      if (k >= 0) this.tests.push({ k, test: (tok) => re.test(tok.text) });
      return;
    }
    if (t.exact && this.ctx.exactWords !== false) {
      const form = t.text.toLowerCase();
      const k = this.add(`=${form}`, cpLength(form));
      if (k >= 0 && !this.byText.has(form)) this.byText.set(form, k);
      return;
    }
    const terms = this.ctx.normalize(t.text);
    const folded = t.text.toLowerCase();
    for (const w of terms) {
      const k = this.add(w, cpLength(terms.length === 1 ? folded : w));
      if (k < 0) continue;
      this.byTerm.set(w, k);
      if (terms.length !== 1) continue;
      if (this.ctx.expandInfix) this.tests.push({ k, test: (tok) => tok.text.includes(folded) });
      if (this.ctx.expandPrefix) this.tests.push({ k, test: (tok) => tok.text.startsWith(folded) });
    }
  }

  /** Only dictionary-term keywords, all of them tracked (a token is an occurrence of one by its term alone). */
  isPlain(): boolean {
    return !this.tests.length && !this.byText.size && this.words.length <= MAX_KEYWORDS;
  }

  /** Every term of the tree, in query order. */
  walk(n: QueryNode): void {
    switch (n.kind) {
      case 'term': this.term(n); break;
      case 'phrase': case 'proximity': case 'quorum': n.terms.forEach((t) => this.term(t)); break;
      case 'and': case 'or': case 'order': case 'sentence': case 'paragraph': case 'near': n.children.forEach((c) => this.walk(c)); break;
      case 'not': case 'zone': this.walk(n.child); break;
      case 'maybe': this.walk(n.left); this.walk(n.right); break;
      case 'empty': break;
    }
  }

  /** The lowest keyword index the token is an occurrence of (among the first MAX_KEYWORDS), or -1. */
  indexOf(tok: Token): number {
    let best = this.byTerm.get(tok.term) ?? -1;
    const e = this.byText.get(tok.text);
    if (e !== undefined && (best < 0 || e < best)) best = e;
    for (const { k, test } of this.tests) {
      if (best >= 0 && k >= best) continue;
      if (test(tok)) best = k;
    }
    return best < MAX_KEYWORDS ? best : -1;
  }
}

/** The query's keywords (normalized once; a page's documents share them). */
export function queryKeywords(root: QueryNode, ctx: KeywordContext): Keywords {
  const kw = new Keywords(ctx);
  kw.walk(root);
  return kw;
}

/** The keyword table of `root` over the document's fields' tokens. */
export function keywordTable(root: QueryNode, fields: Token[][], ctx: KeywordContext): KeywordTable {
  return tokenKeywords(queryKeywords(root, ctx), fields);
}

/** Per token the keyword it is an occurrence of, and the keywords found. */
export function tokenKeywords(kw: Keywords, fields: Token[][]): KeywordTable {
  let foundMask = 0;
  // plain keywords only (the usual case): one dictionary lookup per word, stopwords skipped
  const plain = kw.isPlain();
  const termIndex = fields.map((tokens) => {
    const out = new Int32Array(tokens.length);
    const keyOf = (tok: Token): number => {
      if (!plain) return kw.indexOf(tok);
      const k = tok.term === '' ? -1 : kw.byTerm.get(tok.term) ?? -1;
      return k >= MAX_KEYWORDS ? -1 : k;
    };
    for (let i = 0; i < tokens.length; i++) {
      const tok = tokens[i];
      let k = keyOf(tok);
      if (tok.inner) {
        // a blended token's variants and parts count as found; the token takes the first one's
        // keyword when its own text is none (Manticore's FindWord over the token's word ids)
        for (const x of tok.inner) {
          const kx = keyOf(x);
          if (kx < 0) continue;
          foundMask |= 1 << kx;
          if (k < 0) k = kx;
        }
      }
      out[i] = k;
      if (k >= 0) foundMask |= 1 << k;
    }
    return out;
  });
  return { weights: kw.weights.slice(0, MAX_KEYWORDS), termIndex, foundMask: foundMask >>> 0 };
}

/**
 * Which marks the query itself needs (Manticore's CollectQuerySPZ: the snippet tokenizer emits
 * sentence/paragraph marks for SENTENCE / PARAGRAPH and zone marks for ZONE, whatever the boundary).
 */
export function querySpz(n: QueryNode): { sp: boolean; zones: boolean } {
  const out = { sp: false, zones: false };
  const walk = (q: QueryNode): void => {
    switch (q.kind) {
      case 'sentence': case 'paragraph': out.sp = true; q.children.forEach(walk); break;
      case 'zone': out.zones = true; walk(q.child); break;
      case 'and': case 'or': case 'order': case 'near': q.children.forEach(walk); break;
      case 'not': walk(q.child); break;
      case 'maybe': walk(q.left); walk(q.right); break;
      default: break;
    }
  };
  walk(n);
  return out;
}
