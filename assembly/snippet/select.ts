// The greedy pick (Manticore's SelectBestPassages): best candidates first, re-weighed after each
// pick so passages with keywords not shown yet win; then context tokens are trimmed, and whole
// passages dropped, until the limits hold. The TypeScript twin is src/highlight/snippet-select.ts.

import * as F from "./format";
import { Context, weightOf } from "./context";
import { IntList, Pool, Recs } from "./store";

/** Manticore's passage order: unique keywords, then weight, then codepoints. */
function less(r: Recs, a: u32, b: u32): bool {
  const ua = r.get(a, F.P_UNIQ);
  const ub = r.get(b, F.P_UNIQ);
  if (ua != ub) return ua < ub;
  const wa = weightOf(r, a);
  const wb = weightOf(r, b);
  return wa == wb ? r.get(a, F.P_CODES) < r.get(b, F.P_CODES) : wa < wb;
}

const savedWeights = new IntList();

/**
 * Picks from `ctx.passages` into `show` (appended; records keep their pool ranges in ctx.pool).
 * Returns the index in `show` of the first passage added.
 */
export function selectPassages(
  ctx: Context, show: Recs, limit: i32, limitWords: i32, limitSnippets: i32,
  forceAll: bool, useBoundaries: bool, foundWords: u32, weights: usize, nTerms: u32,
): void {
  const ps = ctx.passages;
  const n = ps.n;
  if (!n) return;
  const first = show.n;
  const maxPassages = limitSnippets ? min(<i32>n, limitSnippets) : <i32>n;
  const maxWords = limitWords ? limitWords : F.INT_MAX;
  const maxCp = limit ? limit : F.INT_MAX;
  let words: u32 = 0;
  let codes = 0;
  let nWords = 0;
  let kwCodes = 0;
  let kwWords = 0;
  savedWeights.clear();
  for (let i: u32 = 0; i < n; i++) savedWeights.push(ps.get(i, F.P_QWEIGHT));
  let all = false;
  while (<i32>(show.n - first) < maxPassages) {
    let best: i32 = -1;
    for (let i: u32 = 0; i < n; i++) if (ps.get(i, F.P_CODES) && (best < 0 || less(ps, <u32>best, i))) best = <i32>i;
    if (best < 0) break;
    const b = <u32>best;
    if (!forceAll || show.n > first) {
      if (kwCodes + ps.get(b, F.P_CBETWEEN) > maxCp || kwWords + ps.get(b, F.P_WBETWEEN) > maxWords) break;
    }
    const fits = codes + ps.get(b, F.P_CODES) <= maxCp && nWords + ps.get(b, F.P_WORDS) <= maxWords;
    if (words == foundWords && !fits) {
      if (codes + ps.get(b, F.P_CBETWEEN) <= maxCp && nWords + ps.get(b, F.P_WBETWEEN) <= maxWords) {
        nWords += ps.get(b, F.P_WORDS);
        codes += ps.get(b, F.P_CODES);
        show.copyFrom(show.add(), ps, b);
      }
      break;
    }
    show.copyFrom(show.add(), ps, b);
    const bq = <u32>ps.get(b, F.P_QWORDS);
    words |= bq;
    kwWords += ps.get(b, F.P_WBETWEEN);
    kwCodes += ps.get(b, F.P_CBETWEEN);
    nWords += ps.get(b, F.P_WORDS);
    codes += ps.get(b, F.P_CODES);
    ps.set(b, F.P_CODES, 0);
    if (!all && words == foundWords) {
      all = true;
      for (let i: u32 = 0; i < n; i++) ps.set(i, F.P_QWEIGHT, savedWeights.get(i));
    }
    if (all) continue;
    for (let i: u32 = 0; i < n; i++) {
      if (!ps.get(i, F.P_CODES)) continue;
      let k: u32 = 0;
      for (let m = bq; m; k++, m >>= 1) {
        if ((m & 1) && (<u32>ps.get(i, F.P_QWORDS) & (<u32>1 << k))) {
          ps.bump(i, F.P_QWEIGHT, -(k < nTerms ? load<i32>(weights + (<usize>k << 2)) : 0));
          ps.bump(i, F.P_QCOUNT, -1);
          ps.bump(i, F.P_UNIQ, -1);
        }
      }
      ps.set(i, F.P_QWORDS, <i32>(<u32>ps.get(i, F.P_QWORDS) & ~words));
    }
  }
  if ((codes > maxCp || nWords > maxWords) && !useBoundaries) {
    codes = trim(show, first, ctx.pool, codes, nWords, maxCp, maxWords);
    nWords = trimmedWords;
  }
  while ((codes > maxCp || nWords > maxWords) && !forceAll && show.n > first) {
    const last = show.n - 1;
    codes -= show.get(last, F.P_CODES);
    nWords -= show.get(last, F.P_WORDS);
    show.n--;
    show.v.len -= F.PASSAGE_WORDS;
  }
  sortByStart(show, first);
}

let trimmedWords = 0;

/** Drops one context token per passage per round, least relevant passage first, until it fits. */
function trim(show: Recs, first: u32, pool: Pool, codes: i32, nWords: i32, maxCp: i32, maxWords: i32): i32 {
  let dropFirstTurn = true;
  let done = false;
  let prev = codes;
  while (!done) {
    for (let i = show.n; i > first; i--) {
      const p = i - 1;
      const nb = show.get(p, F.P_BLEN);
      const na = show.get(p, F.P_ALEN);
      if (!nb && !na) continue;
      const bl = <u32>(show.get(p, F.P_BOFF) + nb - 1);
      const al = <u32>(show.get(p, F.P_AOFF) + na - 1);
      let dropFirst: bool;
      if (nb > na) dropFirst = true;
      else if (nb < na) dropFirst = false;
      else if (!pool.word(bl) && pool.word(al)) dropFirst = true;
      else if (pool.word(bl) && !pool.word(al)) dropFirst = false;
      else dropFirst = dropFirstTurn;
      const t = dropFirst ? bl : al;
      if (dropFirst) { show.set(p, F.P_BLEN, nb - 1); show.bump(p, F.P_START, 1); } else show.set(p, F.P_ALEN, na - 1);
      show.bump(p, F.P_TOKENS, -1);
      show.bump(p, F.P_CODES, -pool.len(t));
      codes -= pool.len(t);
      nWords -= pool.word(t);
      if (codes <= maxCp && nWords <= maxWords) { done = true; break; }
    }
    if (codes == prev) break;
    prev = codes;
    dropFirstTurn = !dropFirstTurn;
  }
  trimmedWords = nWords;
  return codes;
}

/** Insertion sort of show[first..] by start token (stable, as few passages are shown). */
function sortByStart(show: Recs, first: u32): void {
  const tmp = show.add();
  for (let i = first + 1; i < tmp; i++) {
    show.copyFrom(tmp, show, i);
    const key = show.get(tmp, F.P_START);
    let j = i;
    while (j > first && show.get(j - 1, F.P_START) > key) {
      show.copyFrom(j, show, j - 1);
      j--;
    }
    show.copyFrom(j, show, tmp);
  }
  show.n--;
  show.v.len -= F.PASSAGE_WORDS;
}
