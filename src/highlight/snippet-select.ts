/**
 * The greedy pick (Manticore's SelectBestPassages): best candidates first, re-weighed after each
 * pick so passages with keywords not shown yet win; then context tokens are trimmed, and whole
 * passages dropped, until the limits hold. Returns the chosen passages in document order.
 */
import { passageLess, type Passage, type PassageLimits } from './snippet-passages.js';

const INT_MAX = 0x7fffffff;

export interface SelectSettings { forceAllWords: boolean; useBoundaries: boolean }

export function selectPassages(
  candidates: Passage[], lim: PassageLimits, set: SelectSettings, termWeights: number[], foundWords: number,
): Passage[] {
  const show: Passage[] = [];
  if (!candidates.length) return show;
  const pass = candidates.map((p) => ({ ...p, before: [...p.before], after: [...p.after] }));
  const maxPassages = lim.limitSnippets ? Math.min(pass.length, lim.limitSnippets) : pass.length;
  const maxWords = lim.limitWords ? lim.limitWords : INT_MAX;
  const maxCp = lim.limit ? lim.limit : INT_MAX;
  let words = 0;
  let codes = 0;
  let nWords = 0;
  let kwCodes = 0;
  let kwWords = 0;
  const weights = pass.map((p) => p.qwordsWeight);
  let all = false;
  while (show.length < maxPassages) {
    let best = -1;
    for (let i = 0; i < pass.length; i++) if (pass[i].codes && (best < 0 || passageLess(pass[best], pass[i]))) best = i;
    if (best < 0) break;
    const b = pass[best];
    if (!set.forceAllWords || show.length) {
      if (kwCodes + b.codesBetween > maxCp || kwWords + b.wordsBetween > maxWords) break;
    }
    const fits = codes + b.codes <= maxCp && nWords + b.words <= maxWords;
    if (words === foundWords && !fits) {
      if (codes + b.codesBetween <= maxCp && nWords + b.wordsBetween <= maxWords) {
        nWords += b.words;
        codes += b.codes;
        show.push({ ...b, before: [...b.before], after: [...b.after] });
      }
      break;
    }
    show.push({ ...b, before: [...b.before], after: [...b.after] });
    words = (words | b.qwords) >>> 0;
    kwWords += b.wordsBetween;
    kwCodes += b.codesBetween;
    nWords += b.words;
    codes += b.codes;
    b.codes = 0;
    if (!all && words === foundWords) {
      all = true;
      pass.forEach((p, i) => { p.qwordsWeight = weights[i]; });
    }
    if (all) continue;
    for (const p of pass) {
      if (!p.codes) continue;
      for (let k = 0, m = b.qwords; m; k++, m >>>= 1) {
        if ((m & 1) && (p.qwords & (1 << k))) { p.qwordsWeight -= termWeights[k] ?? 0; p.qwordCount--; p.uniqQwords--; }
      }
      p.qwords = (p.qwords & ~words) >>> 0;
    }
  }
  if ((codes > maxCp || nWords > maxWords) && !set.useBoundaries) ({ codes, nWords } = trim(show, codes, nWords, maxCp, maxWords));
  while ((codes > maxCp || nWords > maxWords) && !set.forceAllWords && show.length) {
    const last = show.pop() as Passage;
    codes -= last.codes;
    nWords -= last.words;
  }
  return show.sort((x, y) => x.start - y.start);
}

/** Drops one context token per passage per round, least relevant passage first, until it fits. */
function trim(show: Passage[], codes: number, nWords: number, maxCp: number, maxWords: number): { codes: number; nWords: number } {
  let first = true;
  let done = false;
  let prev = codes;
  while (!done) {
    for (let i = show.length; i > 0; i--) {
      const p = show[i - 1];
      const nb = p.before.length;
      const na = p.after.length;
      if (!nb && !na) continue;
      let dropFirst: boolean;
      if (nb > na) dropFirst = true;
      else if (nb < na) dropFirst = false;
      else if (!p.before[nb - 1][1] && p.after[na - 1][1]) dropFirst = true;
      else if (p.before[nb - 1][1] && !p.after[na - 1][1]) dropFirst = false;
      else dropFirst = first;
      const t = (dropFirst ? p.before.pop() : p.after.pop()) as number[];
      if (dropFirst) p.start++;
      p.tokens--;
      p.codes -= t[0];
      codes -= t[0];
      nWords -= t[1];
      if (codes <= maxCp && nWords <= maxWords) { done = true; break; }
    }
    if (codes === prev) break;
    prev = codes;
    first = !first;
  }
  return { codes, nWords };
}
