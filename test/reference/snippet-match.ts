/**
 * Reference twin of the highlighting marks (src/highlight/snippet-marks.ts, the core's positionsOut):
 * Which tokens of a document satisfy a full-text query, for highlighting: a small evaluator over the
 * query tree and the document's own tokens (phrases only where they occur, ^/$ at field edges, <<
 * in order, proximity within its window, quorum counts, NOT suppresses, nothing unless the whole
 * query matches). Hits are keys `field * FIELD_SHIFT + pos`.
 */
import { wildcardRegExp } from '../../src/index/wildcard.js';
import type { FieldLimit, QueryNode, TermNode } from '../../src/query/ast.js';
import type { SpzMark } from '../../src/text/spz-marks.js';
import type { Token } from '../../src/text/text-pipeline.js';
import { order as refOrder, phrase as refPhrase, proximity as refProximity, sortHits, type Hit } from './hits.js';
import { near, notNear, unitRanges, zoneRanges, type Range } from './snippet-match-spz.js';

/** Positions stay below 2^24 (Manticore's hitpos layout); fields above. */
export const FIELD_SHIFT = 1 << 24;

export interface MatchField {
  /** Field name as in the query's @field operators ('' when fields are ignored). */
  name: string;
  tokens: Token[];
  /** Sentence / paragraph / zone marks from the pipeline's analyze (SENTENCE, PARAGRAPH, ZONE need them). */
  marks?: SpzMark[];
}

export interface MatchContext {
  /** Query word -> dictionary terms with the table's pipeline (stopwords give []). */
  normalize: (word: string) => string[];
  /** CALL SNIPPETS and TO_STRING ignore @field names (the position limit @f[N] still applies). */
  ignoreFields: boolean;
  /** expand_keywords with min_infix_len / min_prefix_len: plain words match inside / at start. */
  expandInfix: boolean;
  expandPrefix: boolean;
}

export interface MatchResult {
  /** Sorted hit keys of the tokens that take part in satisfying the query. */
  hits: number[];
  /** Per field, per token: index of the query keyword the token matches, -1 for none. */
  termIndex: Int32Array[];
  /** Query keyword lengths in codepoints (Manticore's passage term weights). */
  termWeights: number[];
  /** Keywords present anywhere in the document, as a bit mask. */
  foundMask: number;
}

interface Res { ok: boolean; hits: number[] }
/** `inside`: the field spans a hit must lie in (SENTENCE / PARAGRAPH unit, ZONE spans); null = anywhere. */
interface Limit { fields: string[] | null; exclude: boolean; maxPos: number; inside?: Range[] | null }

const NONE: Res = { ok: false, hits: [] };
/** Manticore tracks at most 32 query keywords in a passage mask. */
const MAX_KEYWORDS = 32;

function union(lists: number[][]): number[] {
  const s = new Set<number>();
  for (const l of lists) for (const h of l) s.add(h);
  return [...s].sort((a, b) => a - b);
}

class Matcher {
  readonly words: string[] = [];
  /** Keyword weights: the query word's length in codepoints as typed (Manticore's term weight). */
  readonly weights: number[] = [];
  private readonly tests: ((t: Token) => boolean)[] = [];
  private readonly fieldEnds: number[];

  constructor(private readonly fields: MatchField[], private readonly ctx: MatchContext) {
    // the field's last hit, as the index marks it: a trailing sentence / zone mark's hit counts
    this.fieldEnds = fields.map((f) => {
      let end = 0;
      for (let i = f.tokens.length - 1; i >= 0 && !end; i--) if (f.tokens[i].term !== '') end = f.tokens[i].pos;
      for (const m of f.marks ?? []) end = Math.max(end, m.pos);
      return end;
    });
  }

  /** Registers a keyword (deduplicated by text) and returns its index. */
  private keyword(word: string, test: (t: Token) => boolean, weight: number): number {
    const at = this.words.indexOf(word);
    if (at >= 0) return at;
    this.words.push(word);
    this.weights.push(weight);
    this.tests.push(test);
    return this.words.length - 1;
  }

  private fieldAllowed(fi: number, lim: Limit): boolean {
    if (this.ctx.ignoreFields || !lim.fields || !lim.fields.length) return true;
    const name = this.fields[fi].name.toLowerCase();
    const listed = lim.fields.some((f) => f.toLowerCase() === name);
    return lim.exclude ? !listed : listed;
  }

  /** Hits of one dictionary-level keyword. */
  private scan(ki: number, lim: Limit, t: TermNode): number[] {
    const test = this.tests[ki];
    const out: number[] = [];
    this.fields.forEach((f, fi) => {
      if (!this.fieldAllowed(fi, lim)) return;
      for (const tok of f.tokens) {
        if (lim.maxPos && tok.pos > lim.maxPos) continue;
        if (lim.inside && !lim.inside.some((r) => fi * FIELD_SHIFT + tok.pos > r.lo && fi * FIELD_SHIFT + tok.pos < r.hi)) continue;
        if (t.fieldStart && tok.pos !== 1) continue;
        if (t.fieldEnd && tok.pos !== this.fieldEnds[fi]) continue;
        if (test(tok)) out.push(fi * FIELD_SHIFT + tok.pos);
      }
    });
    return out;
  }

  /** A term: a wildcard pattern, or its dictionary terms (several = an implicit phrase). */
  term(t: TermNode, lim: Limit): Res | null {
    if (t.wildcard) {
      const pat = t.text.toLowerCase();
      const re = wildcardRegExp(pat);
      // stars match the word as written (Manticore's snippet index matches them against the token)
      const ki = this.keyword(pat, (tok) => re.test(tok.text), cpLength(pat));
      const hits = this.scan(ki, lim, t);
      return { ok: hits.length > 0, hits };
    }
    if (t.exact) {
      // `=word`: the form as written, not its stem
      const form = t.text.toLowerCase();
      const ki = this.keyword(`=${form}`, (tok) => tok.text === form, cpLength(form));
      const hits = this.scan(ki, lim, t);
      return { ok: hits.length > 0, hits };
    }
    const terms = this.ctx.normalize(t.text);
    if (!terms.length) return null;
    const lists = terms.map((w) => {
      const folded = t.text.toLowerCase();
      const ki = this.keyword(w, (tok) => tok.term === w
        || (this.ctx.expandInfix && terms.length === 1 && tok.text.includes(folded))
        || (this.ctx.expandPrefix && terms.length === 1 && tok.text.startsWith(folded)), cpLength(terms.length === 1 ? folded : w));
      return this.scan(ki, lim, t);
    });
    if (lists.length === 1) return { ok: lists[0].length > 0, hits: lists[0] };
    return this.phraseOf(lists, lists.map((_, i) => i));
  }

  /**
   * Phrase: Manticore's FSMphrase_c (the ranking reference's twin) over the members' hits, qpos =
   * offset; each match marks its whole span (gap words too; only keywords stay, as SplitSpans).
   */
  phraseOf(lists: number[][], offsets: number[]): Res {
    if (lists.some((l) => !l.length)) return NONE;
    const merged = sortHits(lists.flatMap((l, i) => l.map((pos) => ({ pos, qpos: offsets[i] + 1, span: 1, weight: 1 }))), true);
    return spans(refPhrase(merged, offsets.map((o) => o + 1)));
  }

  eval(n: QueryNode, inherited: Limit): Res | null {
    const lim = 'field' in n && n.field ? limitOf(n.field, inherited) : inherited;
    switch (n.kind) {
      case 'empty': return null;
      case 'term': return this.term(n, lim);
      case 'phrase': {
        const kept = n.terms.map((t, i) => ({ r: this.term(t, limitOrSelf(t, lim)), o: n.offsets[i] })).filter((x) => x.r);
        if (!kept.length) return null;
        return this.phraseOf(kept.map((x) => (x.r as Res).hits), kept.map((x) => x.o));
      }
      case 'proximity': return this.window(n.terms.map((t) => this.term(t, limitOrSelf(t, lim))), n.distance, n.terms.length);
      case 'near': {
        const parts = n.children.map((c) => this.eval(c, lim));
        return n.negate ? notNear(parts, n.distance) : near(parts, n.distance);
      }
      case 'quorum': {
        const rs = n.terms.map((t) => ({ t, r: this.term(t, limitOrSelf(t, lim)) })).filter((x): x is { t: TermNode; r: Res } => x.r !== null);
        const found = rs.filter((x) => x.r.ok);
        if (!found.length) return NONE;
        if (n.threshold >= rs.length) return found.length < rs.length ? NONE : { ok: true, hits: union(found.map((x) => x.r.hits)) };
        // ExtQuorum: a repeated word counts at most as many times as it occurs
        const byWord = new Map<string, { n: number; hits: number }>();
        for (const { t, r } of found) {
          const key = t.wildcard || t.exact ? `${t.exact ? '=' : ''}${t.text.toLowerCase()}` : this.ctx.normalize(t.text).join(' ');
          const e = byWord.get(key) ?? { n: 0, hits: r.hits.length };
          e.n++;
          byWord.set(key, e);
        }
        let have = 0;
        for (const e of byWord.values()) have += Math.min(e.n, e.hits);
        if (have < n.threshold) return NONE;
        return { ok: true, hits: union(found.map((x) => x.r.hits)) };
      }
      case 'and': return this.and(n.children, lim);
      case 'sentence': case 'paragraph': return this.within(unitRanges(this.fields, n.kind), lim, (l) => this.and(n.children, l));
      case 'or': {
        const rs = n.children.map((c) => this.eval(c, lim)).filter((r): r is Res => r !== null);
        if (!rs.length) return null;
        const ok = rs.filter((r) => r.ok);
        return ok.length ? { ok: true, hits: union(ok.map((r) => r.hits)) } : NONE;
      }
      case 'not': {
        const r = this.eval(n.child, lim);
        return r && r.ok ? NONE : { ok: true, hits: [] };
      }
      case 'maybe': {
        const l = this.eval(n.left, lim);
        if (!l || !l.ok) return l;
        const r = this.eval(n.right, lim);
        return r && r.ok ? { ok: true, hits: union([l.hits, r.hits]) } : l;
      }
      case 'order': return this.order(n.children.map((c) => this.eval(c, lim)));
      case 'zone': {
        const spans = zoneRanges(this.fields, n.zones);
        // ZONE: each hit inside some span; ZONESPAN: the whole operand inside one span
        return n.span ? this.within(spans, lim, (l) => this.eval(n.child, l)) : this.eval(n.child, { ...lim, inside: narrow(lim.inside, spans) });
      }
    }
  }

  /** Evaluates `run` once per span (hits confined to it); the query matches where some span does. */
  private within(spans: Range[], lim: Limit, run: (l: Limit) => Res | null): Res | null {
    const ok: Res[] = [];
    let seen = false;
    for (const s of spans) {
      const r = run({ ...lim, inside: narrow(lim.inside, [s]) });
      if (r) seen = true;
      if (r && r.ok) ok.push(r);
    }
    if (!ok.length) return seen || !spans.length ? NONE : null;
    return { ok: true, hits: union(ok.map((r) => r.hits)) };
  }

  private and(children: QueryNode[], lim: Limit): Res | null {
    const rs: Res[] = [];
    for (const c of children) {
      const r = this.eval(c, lim);
      if (r) rs.push(r);
    }
    if (!rs.length) return null;
    if (rs.some((r) => !r.ok)) return NONE;
    return { ok: true, hits: union(rs.map((r) => r.hits)) };
  }

  /** Proximity: Manticore's FSMproximity_c twin; each window marks its whole span (keywords stay). */
  private window(parts: (Res | null)[], distance: number, _count: number): Res {
    const rs = parts.filter((r): r is Res => r !== null);
    if (!rs.length || rs.some((r) => !r.ok)) return NONE;
    if (rs.length === 1) return rs[0];
    const merged = sortHits(rs.flatMap((r, i) => r.hits.map((pos) => ({ pos, qpos: i + 1, span: 1, weight: 1 }))), true);
    return spans(refProximity(merged, rs.map((_, i) => i + 1), distance));
  }

  /** Strict order: Manticore's ExtOrder_c chains (the ranking reference's twin) over the operands' hits. */
  private order(parts: (Res | null)[]): Res {
    const rs = parts.filter((r): r is Res => r !== null);
    if (!rs.length || rs.some((r) => !r.ok)) return NONE;
    const out = refOrder(rs.map((r, i) => r.hits.map((pos) => ({ pos, qpos: i + 1, span: 1, weight: 1 }))));
    const hits = union([out.map((h) => h.pos)]);
    return { ok: hits.length > 0, hits };
  }

  /** Registers the tree's words in query order (pre-order, as eval meets them). */
  registerAll(n: QueryNode): void {
    const any: Limit = { fields: null, exclude: false, maxPos: 0 };
    switch (n.kind) {
      case 'term': this.term(n, any); break;
      case 'phrase': case 'proximity': case 'quorum': n.terms.forEach((t) => this.term(t, any)); break;
      case 'and': case 'or': case 'order': case 'sentence': case 'paragraph': case 'near': n.children.forEach((c) => this.registerAll(c)); break;
      case 'not': case 'zone': this.registerAll(n.child); break;
      case 'maybe': this.registerAll(n.left); this.registerAll(n.right); break;
      case 'empty': break;
    }
  }

  termIndexOf(fi: number): Int32Array {
    const toks = this.fields[fi].tokens;
    const out = new Int32Array(toks.length).fill(-1);
    const n = Math.min(this.tests.length, MAX_KEYWORDS);
    toks.forEach((tok, i) => {
      for (let k = 0; k < n; k++) if (this.tests[k](tok)) { out[i] = k; break; }
    });
    return out;
  }
}

/** Every position the hits cover. */
function spans(hits: Hit[]): Res {
  const out: number[] = [];
  for (const h of hits) for (let p = h.pos; p < h.pos + h.span; p++) out.push(p);
  const u = union([out]);
  return { ok: u.length > 0, hits: u };
}

/** Spans inside both the inherited spans and `spans`. */
function narrow(outer: Range[] | null | undefined, spans: Range[]): Range[] {
  if (!outer) return spans;
  const out: Range[] = [];
  for (const a of outer) {
    for (const b of spans) {
      if (Math.max(a.lo, b.lo) < Math.min(a.hi, b.hi)) out.push({ lo: Math.max(a.lo, b.lo), hi: Math.min(a.hi, b.hi) });
    }
  }
  return out;
}

function limitOf(f: FieldLimit, inherited: Limit): Limit {
  return { fields: f.fields.length ? f.fields : null, exclude: f.exclude, maxPos: f.maxPos ?? inherited.maxPos, inside: inherited.inside };
}

function limitOrSelf(t: TermNode, lim: Limit): Limit {
  return t.field ? limitOf(t.field, lim) : lim;
}

const cpLength = (s: string): number => [...s].length;

/** Evaluates `root` over the document's fields. */
export function matchDocument(root: QueryNode, fields: MatchField[], ctx: MatchContext): MatchResult {
  const m = new Matcher(fields, ctx);
  // every query word is a keyword, evaluated or not (Manticore's snippet index collects them all)
  m.registerAll(root);
  const r = m.eval(root, { fields: null, exclude: false, maxPos: 0 });
  const termIndex = fields.map((_, fi) => m.termIndexOf(fi));
  let foundMask = 0;
  for (const ti of termIndex) for (const k of ti) if (k >= 0) foundMask |= 1 << k;
  // spans (NEAR runs) keep only keyword occurrences, as Manticore's SplitSpans
  const isKeyword = (h: number): boolean => {
    const fi = Math.floor(h / FIELD_SHIFT);
    const i = fi < fields.length ? fields[fi].tokens.findIndex((t) => t.pos === h % FIELD_SHIFT) : -1;
    return i >= 0 && termIndex[fi][i] >= 0;
  };
  return {
    hits: r && r.ok ? r.hits.filter(isKeyword) : [],
    termIndex,
    termWeights: m.weights.slice(0, MAX_KEYWORDS),
    foundMask: foundMask >>> 0,
  };
}
