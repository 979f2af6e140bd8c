// The whole evaluator, naively: every document on its own, positions from its token lists, no
// postings, no blocks, no cursors. Matches and weights must equal the WASM core's.
import type { DocInput, IndexSchema, Ranker } from '../../src/index/types.js';
import type { QueryNode, TermNode } from '../../src/query/ast.js';
import { END, fieldOf, lcs, near, order, phrase, posOf, proximity, sortHits, withField, type Hit } from './hits.js';

const f = Math.fround;
const K1 = f(1.2);

type RNode =
  | { kind: 'term'; word: string; qpos: number; mask: number; maxPos: number; start: boolean; end: boolean; weighted: boolean; count: number }
  | { kind: 'and' | 'or' | 'phrase' | 'proximity' | 'quorum' | 'order' | 'near' | 'notnear' | 'andnot' | 'all'; children: RNode[]; arg: number; repeats?: boolean };

interface Eval { match: boolean; hits: Hit[]; tfidf: number; fields: number; cost: number }

/** Query analysis, written again: qpos in text order, `~N` and `/N` numbers take a position. */
function analyze(root: QueryNode, fields: string[]) {
  const words: string[] = [];
  let dupes = false;
  let qpos = 1;
  let maxQpos = 0;
  const mask = (names: string[] | undefined, exclude = false): number => {
    if (!names || !names.length) return 0xffffffff;
    let m = 0;
    for (const n of names) m |= 1 << fields.indexOf(n);
    return (exclude ? ~m : m) >>> 0;
  };
  const term = (t: TermNode, q: number, inherit: { mask: number; maxPos: number }): RNode => {
    const weighted = !words.includes(t.text);
    if (weighted) words.push(t.text); else dupes = true;
    maxQpos = Math.max(maxQpos, q);
    const lim = t.field ? { mask: mask(t.field.fields, t.field.exclude), maxPos: t.field.maxPos ?? 0 } : inherit;
    return { kind: 'term', word: t.text, qpos: q, mask: lim.mask, maxPos: lim.maxPos, start: !!t.fieldStart, end: !!t.fieldEnd, weighted, count: 1 };
  };
  const walk = (n: QueryNode, lim: { mask: number; maxPos: number }): RNode => {
    const own = 'field' in n && n.field && n.kind !== 'term' ? { mask: mask(n.field.fields, n.field.exclude), maxPos: n.field.maxPos ?? 0 } : lim;
    switch (n.kind) {
      case 'term': return term(n, qpos++, lim);
      case 'phrase': {
        const base = qpos;
        const kids = n.terms.map((t, i) => term(t, base + n.offsets[i], own));
        qpos = base + Math.max(...n.offsets) + 1;
        return kids.length === 1 ? kids[0] : { kind: 'phrase', children: kids, arg: 0 };
      }
      case 'proximity': {
        const kids = n.terms.map((t) => term(t, qpos++, own));
        qpos++;
        return kids.length === 1 ? kids[0] : { kind: 'proximity', children: kids, arg: n.distance };
      }
      case 'quorum': {
        const kids = n.terms.map((t) => term(t, qpos++, own));
        qpos++;
        if (n.threshold >= kids.length) return kids.length === 1 ? kids[0] : { kind: 'and', children: kids, arg: 0 };
        const unique: RNode[] = [];
        for (const k of kids) {
          const first = unique.find((u) => u.kind === 'term' && k.kind === 'term' && u.word === k.word);
          if (first && first.kind === 'term') first.count++;
          else unique.push(k);
        }
        return { kind: 'quorum', children: unique, arg: n.threshold, repeats: unique.some((u) => u.kind === 'term' && u.count > 1) };
      }
      case 'and': {
        const pos: RNode[] = [];
        const neg: RNode[] = [];
        for (const c of n.children) {
          if (c.kind === 'not') neg.push(walk(c.child, lim));
          else pos.push(walk(c, lim));
        }
        const left: RNode = pos.length === 0 ? { kind: 'all', children: [], arg: 0 } : pos.length === 1 ? pos[0] : { kind: 'and', children: pos, arg: 0 };
        if (!neg.length) return left;
        return { kind: 'andnot', children: [left, neg.length === 1 ? neg[0] : { kind: 'or', children: neg, arg: 0 }], arg: 0 };
      }
      case 'or': return { kind: 'or', children: n.children.map((c) => walk(c, lim)), arg: 0 };
      case 'order': return { kind: 'order', children: n.children.map((c) => walk(c, lim)), arg: 0 };
      case 'near': {
        const children = n.children.map((c, i) => { if (i > 0) qpos++; return walk(c, lim); });
        if (!n.negate) return { kind: 'near', children, arg: n.distance };
        return children.slice(1).reduce<RNode>((l, r) => ({ kind: 'notnear', children: [l, r], arg: n.distance }), children[0]);
      }
      case 'not': return { kind: 'andnot', children: [{ kind: 'all', children: [], arg: 0 }, walk(n.child, lim)], arg: 0 };
      default: throw new Error(`reference evaluator: ${n.kind} not modelled`);
    }
  };
  const tree = walk(root, { mask: 0xffffffff, maxPos: 0 });
  return { tree, words, dupes, maxQpos, single: tree.kind === 'term' };
}

/** Manticore's normalized idf in float32. */
export function idf(total: number, docs: number, words: number): number {
  let v = 0;
  if (docs > 0) {
    const n = Math.max(total, docs);
    v = f(f(Math.log(f(f(n - docs + 1) / f(docs)))) / f(2 * f(Math.log(f(1 + n)))));
  }
  return f(v / words);
}

export interface RefDoc { docId: bigint; hits: Map<string, number[]> }

/** Hitpos lists per term, as the segment builder lays them out. */
export function refDoc(doc: DocInput): RefDoc {
  const hits = new Map<string, number[]>();
  doc.fields.forEach((ft, fi) => {
    const last = Math.max(0, ...ft.positions);
    ft.terms.forEach((t, i) => {
      const p = ft.positions[i];
      const list = hits.get(t) ?? [];
      list.push(((fi << 24) | (p === last ? END : 0) | p) >>> 0);
      hits.set(t, list);
    });
  });
  for (const l of hits.values()) l.sort((a, b) => a - b);
  return { docId: doc.docId, hits };
}

/** Rows in the evaluated table (the cost of "every row"). */
let docCount = 0;

function evalNode(n: RNode, d: RefDoc, idfs: Map<string, number>, df: (w: string) => number): Eval {
  if (n.kind === 'term') {
    const all = d.hits.get(n.word) ?? [];
    const ok = all.filter((p) => (fieldOf(p) < 32 ? ((n.mask >>> fieldOf(p)) & 1) === 1 : n.mask === 0xffffffff)
      && (!n.maxPos || posOf(p) <= n.maxPos) && (!n.start || posOf(p) === 1) && (!n.end || (p & END) !== 0));
    const tf = all.length;
    const w = n.weighted ? idfs.get(n.word)! : 0;
    let fields = 0;
    for (const p of all) if (fieldOf(p) < 32) fields |= 1 << fieldOf(p);
    return {
      match: ok.length > 0, hits: ok.map((p) => ({ pos: p, qpos: n.qpos, span: 1, weight: 1 })),
      tfidf: f(f(tf / f(tf + K1)) * w), fields: (fields & n.mask) >>> 0, cost: df(n.word),
    };
  }
  const kids = n.children.map((c) => evalNode(c, d, idfs, df));
  const on = kids.filter((k) => k.match);
  const sum = (list: Eval[]) => list.reduce((s, k) => f(s + k.tfidf), 0);
  const union = (list: Eval[]) => list.reduce((m, k) => (m | k.fields) >>> 0, 0);
  const merged = (desc: boolean) => sortHits(on.flatMap((k) => k.hits), desc);
  const minCost = Math.min(...kids.map((k) => k.cost));
  const total = kids.reduce((s, k) => s + k.cost, 0);
  switch (n.kind) {
    case 'all': return { match: true, hits: [], tfidf: 0, fields: 0, cost: docCount };
    case 'andnot': return { ...kids[0], match: kids[0].match && !kids[1].match };
    case 'or': return { match: on.length > 0, hits: merged(false), tfidf: sum(on), fields: union(on), cost: total };
    case 'and': {
      const byCost = [...kids].map((k, i) => ({ k, i })).sort((a, b) => a.k.cost - b.k.cost || a.i - b.i).map((x) => x.k);
      return { match: on.length === kids.length, hits: merged(false), tfidf: sum(byCost), fields: union(kids), cost: minCost };
    }
    case 'quorum': {
      const counts = n.children.map((c) => (c.kind === 'term' ? c.count : 1));
      const have = kids.reduce((s, k, i) => s + (k.match ? counts[i] : 0), 0);
      let got = 0;
      kids.forEach((k, i) => { if (k.match && got < n.arg) got += Math.min(k.hits.length, counts[i]); });
      const match = have >= n.arg && (!n.repeats || got >= n.arg);
      return { match, hits: merged(false), tfidf: sum(on), fields: union(on), cost: total };
    }
    case 'phrase': case 'proximity': {
      if (on.length !== kids.length) return { match: false, hits: [], tfidf: 0, fields: 0, cost: minCost };
      const atoms = n.children.map((c) => (c as { qpos: number }).qpos);
      const out = n.kind === 'phrase' ? phrase(merged(true), atoms) : proximity(merged(true), atoms, n.arg);
      return { match: out.length > 0, hits: out, tfidf: sum(kids), fields: out.length ? (1 << fieldOf(out[0].pos)) >>> 0 : 0, cost: minCost };
    }
    case 'near': {
      if (on.length !== kids.length) return { match: false, hits: [], tfidf: 0, fields: 0, cost: minCost };
      const out = near(kids.map((k) => k.hits), n.arg);
      return { match: out.length > 0, hits: out, tfidf: sum(kids), fields: out.length ? (1 << fieldOf(out[0].pos)) >>> 0 : 0, cost: minCost };
    }
    case 'notnear': {
      const [l, r] = kids;
      if (!l.match) return { match: false, hits: [], tfidf: 0, fields: 0, cost: l.cost };
      // a left hit survives unless some right hit of its field overlaps it widened by N words
      const keep = !r.match ? l.hits : l.hits.filter((m) => !r.hits.some((h) => fieldOf(h.pos) === fieldOf(m.pos)
        && withField(h.pos) + h.span - 1 + n.arg >= withField(m.pos) && withField(h.pos) <= withField(m.pos) + m.span - 1 + n.arg));
      return { match: keep.length > 0, hits: keep, tfidf: l.tfidf, fields: l.fields, cost: l.cost };
    }
    case 'order': {
      if (on.length !== kids.length) return { match: false, hits: [], tfidf: 0, fields: 0, cost: total };
      const out = order(kids.map((k) => k.hits));
      return { match: out.length > 0, hits: out, tfidf: kids[0].tfidf, fields: kids[0].fields, cost: total };
    }
  }
}

function rank(ranker: Ranker, e: Eval, weights: number[], dupes: boolean, single: boolean): number {
  const bm25 = Math.trunc(f(f(e.tfidf + 0.5) * 1000));
  const wsum = () => {
    if (!e.fields) return 1;
    let s = 0;
    for (let i = 0; i < Math.min(32, weights.length); i++) if ((e.fields >>> i) & 1) s += weights[i];
    return s;
  };
  const lcsSum = () => {
    let s = 0;
    for (const [field, v] of lcs(e.hits, dupes)) s += v * (weights[field] ?? 1);
    return s;
  };
  switch (ranker) {
    case 'none': return 1;
    case 'bm25': return bm25 + wsum() * 1000;
    case 'proximity': return single ? wsum() : lcsSum();
    case 'wordcount': return e.hits.reduce((s, h) => s + (weights[fieldOf(h.pos)] ?? 1), 0);
    case 'proximity_bm25': return single ? bm25 + wsum() * 1000 : bm25 + lcsSum() * 1000;
    default: throw new Error(`reference evaluator: ranker ${ranker} not modelled`);
  }
}

/** Matching documents with their weights, in document order. */
export function evaluate(schema: IndexSchema, docs: DocInput[], q: QueryNode, ranker: Ranker, weights: number[] = []): { docId: bigint; weight: number }[] {
  return evaluateRefs(schema, docs.map(refDoc), q, ranker, weights);
}

/** evaluate() over documents already turned into hit lists (benches reuse them across queries). */
export function evaluateRefs(schema: IndexSchema, refs: RefDoc[], q: QueryNode, ranker: Ranker, weights: number[] = []): { docId: bigint; weight: number }[] {
  const a = analyze(q, schema.fields);
  docCount = refs.length;
  const dfCache = new Map<string, number>();
  const df = (w: string) => {
    let n = dfCache.get(w);
    if (n === undefined) dfCache.set(w, (n = refs.filter((r) => r.hits.has(w)).length));
    return n;
  };
  const idfs = new Map(a.words.map((w) => [w, idf(refs.length, df(w), a.words.length)]));
  const fw = schema.fields.map((_, i) => weights[i] ?? 1);
  const out: { docId: bigint; weight: number }[] = [];
  for (const r of refs) {
    const e = evalNode(a.tree, r, idfs, df);
    if (e.match) out.push({ docId: r.docId, weight: rank(ranker, e, fw, a.dupes, a.single) });
  }
  return out;
}

export { withField };
