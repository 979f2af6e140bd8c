// Naive twins of the expression ranker's bm25a and bm25f (Manticore's FinalizeDocFactors and
// Expr_BM25F_T, src/sphinxsearch.cpp) from a row's hits and field lengths, in float32.
import { fieldOf, type Hit } from './hits.js';
import { uniqueHits, type FactorQuery } from './rank-factors.js';

const f = Math.fround;

/** Hits counted per field and canonical query position (a repeat at one hitpos counts once). */
function termFreqs(hits: Hit[], q: FactorQuery): Map<string, number> {
  const uniq = uniqueHits(hits, q);
  const tf = new Map<string, number>();
  hits.forEach((h, i) => {
    if (!uniq[i]) return;
    const key = `${fieldOf(h.pos)}:${q.dupes ? q.atoms[h.qpos] : h.qpos}`;
    tf.set(key, (tf.get(key) ?? 0) + 1);
  });
  return tf;
}

/** Query positions bm25a/bm25f sum over: each keyword's first position. */
function keywordPositions(q: FactorQuery): number[] {
  return [...new Set(q.atoms.slice(1))].sort((a, b) => a - b);
}

/** Σ tf/(tf + k1*(1 - b + b*dl/avgdl))*idf + 0.5, dl the row's token count. */
export function bm25a(hits: Hit[], q: FactorQuery, k1: number, b: number, dl: number, avgdl: number): number {
  const tf = termFreqs(hits, q);
  let s = 0;
  for (const qp of keywordPositions(q)) {
    let n = 0;
    for (const [key, v] of tf) if (Number(key.split(':')[1]) === qp) n += v;
    const norm = f(f(k1) * f(f(1 - f(b)) + f(f(f(b) * f(dl)) / f(avgdl))));
    s = f(s + f(f(n / f(n + norm)) * q.idf[qp]));
  }
  return f(s + 0.5);
}

/**
 * Σ over words and fields with a positive integer average length and hits:
 * w/wmax * idf * tf * (k1+1) / (tf + k1*(1 - b + b*len/avg)), + 0.5.
 */
export function bm25f(hits: Hit[], q: FactorQuery, k1: number, b: number, weights: number[], lens: number[], avgs: number[]): number {
  const tf = termFreqs(hits, q);
  const wmax = Math.max(1, ...weights);
  let s = 0;
  for (const qp of keywordPositions(q)) {
    weights.forEach((w, fl) => {
      const n = tf.get(`${fl}:${qp}`) ?? 0;
      if (avgs[fl] <= 0 || n <= 0) return;
      const top = f(f(f(f(w / wmax) * q.idf[qp]) * n) * f(f(k1) + 1));
      s = f(s + f(top / f(n + f(f(k1) * f(f(1 - f(b)) + f(f(f(b) * lens[fl]) / avgs[fl]))))));
    });
  }
  return f(s + 0.5);
}
