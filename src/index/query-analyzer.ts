/**
 * First planning step, independent of segments: the query tree with field masks resolved, query
 * positions (qpos) assigned in text order, keywords listed once each (Manticore's qword hash).
 */
import type { FieldLimit, QueryNode, TermNode } from '../query/ast.js';
import { SearchError } from '../util/errors.js';
import { TF_FIELD_END, TF_FIELD_START, type InnerOp } from '../wasm/plan-format.js';
import { isWildcard } from './wildcard.js';

export interface QTerm {
  kind: 'term';
  /** Index into Analyzed.keywords. */
  kw: number;
  /** The first occurrence of its keyword carries the idf; repeats weigh 0 (as Manticore). */
  weighted: boolean;
  qpos: number;
  fieldMask: number;
  maxPos: number;
  flags: number;
  boost: number;
  /** Quorum: occurrences merged into this term. */
  count?: number;
  /** ZONE:(z) / ZONESPAN:(z): hits count only inside these zones (tag names, lowercase). */
  zones?: string[];
  zoneSpan?: boolean;
}
export interface QInner {
  kind: InnerOp; children: QNode[]; arg0?: number; arg1?: number;
  /** An AND under ZONESPAN:(z): one span of these zones must hold all its operands. */
  zones?: string[];
}
export type QNode = QTerm | QInner;

export interface Keyword { text: string; wildcard: boolean }

export interface Analyzed {
  root: QNode;
  keywords: Keyword[];
  /** A keyword occurs more than once. */
  dupes: boolean;
  /** The whole query is one keyword. */
  singleWord: boolean;
  maxQpos: number;
}

const ALL_FIELDS = 0xffffffff;

class Analyzer {
  keywords: Keyword[] = [];
  #kwIndex = new Map<string, number>();
  dupes = false;
  qpos = 1;
  maxTermQpos = 0;
  /** The innermost enclosing ZONE / ZONESPAN operator's zones while its subtree is analyzed. */
  zones: { names: string[]; span: boolean } | null = null;
  constructor(private readonly fields: string[]) {}

  fieldMask(limit: FieldLimit | undefined, inherited: number): { mask: number; maxPos: number } {
    if (!limit) return { mask: inherited, maxPos: 0 };
    let mask = 0;
    if (limit.fields.length === 0) mask = ALL_FIELDS;
    for (const name of limit.fields) {
      const i = this.fields.findIndex((f) => f.toLowerCase() === name.toLowerCase());
      if (i < 0) throw new SearchError('QUERY_ERROR', `no field '${name}' found in schema`);
      if (i < 32) mask |= 1 << i;
    }
    if (limit.exclude) mask = ~mask;
    return { mask: mask >>> 0, maxPos: limit.maxPos ?? 0 };
  }

  term(t: TermNode, qpos: number, inherited: { mask: number; maxPos: number }): QTerm {
    const own = t.field ? this.fieldMask(t.field, inherited.mask) : inherited;
    const wildcard = !!t.wildcard || isWildcard(t.text);
    const text = t.exact ? `=${t.text}` : t.text;
    let kw = this.#kwIndex.get(text);
    let weighted = true;
    if (kw === undefined) {
      kw = this.keywords.length;
      this.keywords.push({ text, wildcard });
      this.#kwIndex.set(text, kw);
    } else {
      this.dupes = true;
      weighted = false;
    }
    if (qpos > this.maxTermQpos) this.maxTermQpos = qpos;
    const flags = (t.fieldStart ? TF_FIELD_START : 0) | (t.fieldEnd ? TF_FIELD_END : 0);
    const out: QTerm = { kind: 'term', kw, weighted, qpos, fieldMask: own.mask, maxPos: own.maxPos, flags, boost: t.boost ?? 1 };
    if (this.zones) {
      out.zones = this.zones.names;
      out.zoneSpan = this.zones.span;
    }
    return out;
  }

  /**
   * Query positions of a word list: the parser's `pos` (Manticore's atom positions) when set, else
   * consecutive ones; a phrase keeps its offsets from its first word (normalization may split words).
   */
  terms(list: TermNode[], offsets: number[] | null, limit: { mask: number; maxPos: number }): QTerm[] {
    const base = list[0]?.pos ?? this.qpos;
    const out = list.map((t, i) => this.term(t, offsets ? base + offsets[i] : (t.pos ?? base + i), limit));
    this.qpos = Math.max(this.qpos, ...out.map((t) => t.qpos + 1));
    return out;
  }

  node(n: QueryNode, limit: { mask: number; maxPos: number }): QNode {
    switch (n.kind) {
      case 'term': {
        const q = n.pos ?? this.qpos;
        this.qpos = Math.max(this.qpos, q + 1);
        return this.term(n, q, limit);
      }
      case 'phrase': {
        const l = this.fieldMask(n.field, limit.mask);
        const kids = this.terms(n.terms, n.offsets, n.field ? l : limit);
        return kids.length === 1 ? kids[0] : { kind: 'phrase', children: kids };
      }
      case 'proximity': {
        const kids = this.terms(n.terms, null, n.field ? this.fieldMask(n.field, limit.mask) : limit);
        this.qpos++; // the `~N` number takes a query position, as in Manticore's lexer (the parser's
        // `pos`, when present, already counts it)
        return kids.length === 1 ? kids[0] : { kind: 'proximity', children: kids, arg0: n.distance };
      }
      case 'quorum': {
        const q = this.quorum(n.terms, n.threshold, n.field ? this.fieldMask(n.field, limit.mask) : limit);
        this.qpos++; // so does the `/N` number
        return q;
      }
      case 'and': {
        const a = this.and(n.children, limit);
        if (this.zones?.span && a.kind === 'and') (a as QInner).zones = this.zones.names;
        return a;
      }
      case 'or': return { kind: 'or', children: n.children.map((c) => this.node(c, limit)) };
      case 'not': return { kind: 'andnot', children: [{ kind: 'all', children: [] }, this.node(n.child, limit)] };
      case 'order': return { kind: 'order', children: n.children.map((c) => this.node(c, limit)) };
      case 'near': {
        // each `NEAR/N` number between operands takes a query position too
        const children = n.children.map((c, i) => { if (i > 0) this.qpos++; return this.node(c, limit); });
        if (!n.negate) return { kind: 'near', children, arg0: n.distance };
        // NOTNEAR is binary, left-associative: `a NOTNEAR/N b NOTNEAR/N c` = ((a, b), c)
        return children.slice(1).reduce<QNode>((l, r) => ({ kind: 'notnear', children: [l, r], arg0: n.distance }), children[0]);
      }
      case 'maybe': return { kind: 'maybe', children: [this.node(n.left, limit), this.node(n.right, limit)] };
      case 'sentence': case 'paragraph': return { kind: n.kind, children: n.children.map((c) => this.node(c, limit)) };
      case 'zone': {
        const outer = this.zones;
        this.zones = { names: n.zones.map((z) => z.toLowerCase()), span: n.span };
        try {
          return this.node(n.child, limit);
        } finally {
          this.zones = outer;
        }
      }
      case 'empty': return { kind: 'all', children: [] };
    }
  }

  /**
   * Quorum, as ExtQuorum_c: repeated keywords merge into their first occurrence with a count;
   * a threshold of at least the word count is an AND (the parser warns).
   */
  quorum(list: TermNode[], threshold: number, limit: { mask: number; maxPos: number }): QNode {
    const kids = this.terms(list, null, limit);
    if (threshold >= kids.length) return kids.length === 1 ? kids[0] : { kind: 'and', children: kids };
    const byWord = new Map<number, QTerm>();
    const unique: QTerm[] = [];
    for (const k of kids) {
      const first = byWord.get(k.kw);
      if (first) first.count = (first.count ?? 1) + 1;
      else { byWord.set(k.kw, k); unique.push(k); }
    }
    const repeats = unique.some((k) => (k.count ?? 1) > 1);
    return { kind: 'quorum', children: unique, arg0: Math.max(1, threshold), arg1: repeats ? 1 : 0 };
  }

  /** AND: positive children must match, NOT children must not (Manticore's AND-NOT). */
  and(children: QueryNode[], limit: { mask: number; maxPos: number }): QNode {
    const pos: QNode[] = [];
    const neg: QNode[] = [];
    for (const c of children) {
      if (c.kind === 'not') neg.push(this.node(c.child, limit));
      else pos.push(this.node(c, limit));
    }
    const left: QNode = pos.length === 0 ? { kind: 'all', children: [] } : pos.length === 1 ? pos[0] : { kind: 'and', children: pos };
    if (!neg.length) return left;
    const right: QNode = neg.length === 1 ? neg[0] : { kind: 'or', children: neg };
    return { kind: 'andnot', children: [left, right] };
  }
}

export function analyzeQuery(root: QueryNode, fields: string[]): Analyzed {
  const a = new Analyzer(fields);
  const tree = a.node(root, { mask: ALL_FIELDS, maxPos: 0 });
  return {
    root: tree,
    keywords: a.keywords,
    dupes: a.dupes,
    singleWord: tree.kind === 'term',
    maxQpos: a.maxTermQpos,
  };
}
