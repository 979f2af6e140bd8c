// Naive twins of the expression ranker's lccs, wlccs, atc, max_window_hits and min_gaps over a
// row's hit list (Manticore's RankerState_Expr_fn, src/sphinxsearch.cpp), in float32 like the core.
import { END, fieldOf, posOf, type Hit } from './hits.js';

const f = Math.fround;

/** What the factors need of the query: per query position idf and first position of its keyword. */
export interface FactorQuery {
  idf: number[];
  atoms: number[];
  maxQpos: number;
  dupes: boolean;
  /** n of max_window_hits(n). */
  window: number;
}

export interface RowFactors {
  lccs: Map<number, number>;
  wlccs: Map<number, number>;
  atc: Map<number, number>;
  maxWindowHits: Map<number, number>;
  minGaps: Map<number, number>;
}

/** Distinct keywords' first positions, ascending. */
function keywordPositions(q: FactorQuery): number[] {
  return [...new Set(q.atoms.slice(1))].sort((a, b) => a - b);
}

/** Distinct words min_gaps and atc look for: keyword positions on the duplicate path, else maxQpos. */
export function uniqueWords(q: FactorQuery): number {
  return q.dupes ? keywordPositions(q).length : q.maxQpos;
}

export function lccsFactors(hits: Hit[], q: FactorQuery): { lccs: Map<number, number>; wlccs: Map<number, number> } {
  const kws = keywordPositions(q);
  const next = (qp: number) => (kws.includes(qp) && kws.indexOf(qp) < kws.length - 1 ? kws[kws.indexOf(qp) + 1] : 0xffff);
  const multi = new Set<number>();
  q.atoms.forEach((a, qp) => { if (qp > 0 && a !== qp) { multi.add(a); multi.add(qp); } });
  const lccs = new Map<number, number>();
  const wlccs = new Map<number, number>();
  let expQ = 0;
  let expPos = 0;
  let len = 0;
  let w = 0;
  for (const h of hits) {
    const pos = posOf(h.pos);
    const idf = q.idf[h.qpos] ?? 0;
    let keepUp = false;
    if (expQ === h.qpos && expPos === pos) {
      len = (len + 1) & 255;
      w = f(w + idf);
    } else if (q.dupes && expPos !== 0 && pos <= expPos && multi.has(h.qpos)) keepUp = true;
    else {
      len = 1;
      w = idf;
    }
    if (!keepUp) {
      expQ = next(h.qpos);
      expPos = pos + h.span + expQ - h.qpos - 1;
    }
    const fl = fieldOf(h.pos);
    if ((lccs.get(fl) ?? 0) <= len) {
      lccs.set(fl, len);
      wlccs.set(fl, w);
    }
  }
  return { lccs, wlccs };
}

/** TC of hit i of one field's hits toward one side: nearest hits of other positions, ten at most. */
function sideTC(hits: Hit[], i: number, step: number, q: FactorQuery): number {
  const seen = new Set<number>();
  let tc = 0;
  for (let j = i + step, n = 0; j >= 0 && j < hits.length && Math.abs(j - i) <= 10 && seen.size !== q.maxQpos; j += step, n++) {
    const o = hits[j];
    if (seen.has(o.qpos) || posOf(o.pos) === posOf(hits[i].pos)) continue;
    let t = f((q.idf[o.qpos] ?? 0) / f(Math.pow(Math.abs(posOf(hits[i].pos) - posOf(o.pos)), 1.75)));
    if (o.qpos === hits[i].qpos) t = f(t * 0.25);
    tc = f(tc + t);
    seen.add(o.qpos);
  }
  return tc;
}

/** atc per field: log(1 + Σ_q idf(q)·Σ TC of q's hits), each hit against ten hits either side. */
export function atcFactor(hits: Hit[], q: FactorQuery): Map<number, number> {
  const out = new Map<number, number>();
  if (uniqueWords(q) <= 1) return out;
  const byField = new Map<number, Hit[]>();
  for (const h of hits) byField.set(fieldOf(h.pos), [...(byField.get(fieldOf(h.pos)) ?? []), h]);
  for (const [fl, list] of byField) {
    const terms = new Array<number>(q.maxQpos + 1).fill(0);
    list.forEach((h, i) => {
      if (h.qpos <= q.maxQpos) terms[h.qpos] = f(terms[h.qpos] + f(sideTC(list, i, -1, q) + sideTC(list, i, 1, q)));
    });
    let sum = 0;
    terms.forEach((t, qp) => { sum = f(sum + f(t * (q.idf[qp] ?? 0))); });
    out.set(fl, f(Math.log(f(1 + sum))));
  }
  return out;
}

/** max_window_hits(n): the most hits whose hitpos (field, end flag, position) lie within n of the last. */
export function maxWindowHitsFactor(hits: Hit[], q: FactorQuery): Map<number, number> {
  const out = new Map<number, number>();
  let win: number[] = [];
  for (const h of hits) {
    const fl = fieldOf(h.pos);
    if (q.window <= 1) {
      out.set(fl, 1);
      continue;
    }
    win = win.filter((p) => ((p + q.window) >>> 0) > h.pos);
    win.push(h.pos);
    out.set(fl, Math.max(out.get(fl) ?? 0, win.length));
  }
  return out;
}

interface WinHit { hp: number; q: number }

/**
 * min_gaps: Manticore keeps a candidate window of hits per field; two- and three-word queries take
 * special paths, longer ones a left-minimal window. Only hits whose keyword counted (not a repeat
 * at the same hitpos on the duplicate path) take part; `uniq` marks them.
 */
export function minGapsFactor(hits: Hit[], q: FactorQuery, uniq: boolean[]): Map<number, number> {
  const words = uniqueWords(q);
  const gaps = new Map<number, number>();
  if (words <= 1) return gaps;
  let win: WinHit[] = [];
  let seenWords = 0;
  const counts = new Map<number, number>();
  const gapOf = (fl: number) => gaps.get(fl) ?? 0;
  const update = (fl: number, n: number, gap: number) => {
    if (seenWords < n || (seenWords === n && gapOf(fl) > gap)) {
      gaps.set(fl, gap);
      seenWords = n;
    }
  };
  hits.forEach((h, i) => {
    if (!uniq[i]) return;
    const fl = fieldOf(h.pos);
    const qp = q.dupes ? q.atoms[h.qpos] : h.qpos;
    const at = posOf(h.pos);
    const edge = words === 2 ? win[0] : win[win.length - 1];
    if (edge && fieldOf(edge.hp) !== fl) {
      win = [];
      seenWords = 0;
      counts.clear();
    }
    if (words === 2) {
      if (!win.length) win = [{ hp: h.pos, q: qp }];
      else if (win[0].q === qp) win[0].hp = h.pos;
      else {
        update(fl, 2, at - posOf(win[0].hp) - 1);
        win = [{ hp: h.pos, q: qp }];
      }
    } else if (words === 3) {
      if (!win.length) win = [{ hp: h.pos, q: qp }];
      else if (win.length === 1) {
        if (win[0].q === qp) win = [{ hp: h.pos, q: h.qpos }];
        else {
          update(fl, 2, at - posOf(win[0].hp) - 1);
          win.push({ hp: h.pos, q: qp });
        }
      } else if (win[0].q === qp) {
        update(fl, 2, at - posOf(win[1].hp) - 1);
        win = [win[1], { hp: h.pos, q: qp }];
      } else if (win[1].q === qp) win[1] = { hp: h.pos, q: qp };
      else {
        update(fl, 3, at - posOf(win[0].hp) - 2);
        win = [win[1], { hp: h.pos, q: qp }];
      }
    } else {
      if (win.length && win[win.length - 1].q === qp) {
        win[win.length - 1].hp = h.pos;
        return;
      }
      win.push({ hp: h.pos, q: qp });
      counts.set(qp, (counts.get(qp) ?? 0) + 1);
      if (counts.get(qp) === 1) {
        gaps.set(fl, at - posOf(win[0].hp) - seenWords);
        seenWords++;
        return;
      }
      if (qp !== win[0].q) return;
      while (counts.get(win[0].q) !== 1) {
        counts.set(win[0].q, counts.get(win[0].q)! - 1);
        win.shift();
      }
      gaps.set(fl, Math.min(gapOf(fl), at - posOf(win[0].hp) - seenWords + 1));
    }
  });
  return gaps;
}

/** Manticore's bUniq per hit: on the duplicate path a keyword counts once per hitpos. */
export function uniqueHits(hits: Hit[], q: FactorQuery): boolean[] {
  if (!q.dupes) return hits.map(() => true);
  const last = new Map<number, number>();
  return hits.map((h) => {
    const kw = q.atoms[h.qpos];
    const seen = last.get(kw) === h.pos || last.get(0) === h.pos;
    last.set(kw, h.pos);
    last.set(0, h.pos);
    return !seen;
  });
}

export function rowFactors(hits: Hit[], q: FactorQuery): RowFactors {
  return {
    ...lccsFactors(hits, q),
    atc: atcFactor(hits, q),
    maxWindowHits: maxWindowHitsFactor(hits, q),
    minGaps: minGapsFactor(hits, q, uniqueHits(hits, q)),
  };
}

export { END };
