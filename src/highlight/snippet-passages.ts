/**
 * The passage picker, Manticore's way (src/snippetfunctor.cpp PassageExtractor, src/snippetpassage.cpp
 * SelectBestPassages): slide a window over a field's token stream, weigh candidate passages, then
 * greedily pick the best under limit / limit_words / limit_snippets and trim them to fit.
 * Works on plain typed arrays so the WASM core (assembly/snippet/) can run the same steps.
 */
import type { PickLimits, PickStream } from '../wasm/snippet.js';

/**
 * One field's token stream (words and the gap runs between them) and the limits, in the layout the
 * WASM picker reads: the bridge (src/wasm/snippet.ts) owns these shapes, the TypeScript twin shares them.
 */
export type PassageStream = PickStream;
export type PassageLimits = PickLimits;

export interface PassageSettings {
  around: number;
  forceAllWords: boolean;
  useBoundaries: boolean;
  /** A snippet_boundary is set (passages then keep before/after tokens for trimming). */
  spz: boolean;
}

export interface Passage {
  field: number;
  start: number;
  tokens: number;
  codes: number;
  words: number;
  qwords: number;
  qwordsWeight: number;
  qwordCount: number;
  uniqQwords: number;
  maxLcs: number;
  minGap: number;
  startLimit: number;
  endLimit: number;
  aroundBefore: number;
  aroundAfter: number;
  codesBetween: number;
  wordsBetween: number;
  /** Context tokens that trimming may drop: [lengthCP, wordFlag] pairs, nearest to the keywords last. */
  before: number[][];
  after: number[][];
}

export function emptyPassage(): Passage {
  return {
    field: 0, start: 0, tokens: 0, codes: 0, words: 0, qwords: 0, qwordsWeight: 0, qwordCount: 0,
    uniqQwords: 0, maxLcs: 0, minGap: 0, startLimit: 0, endLimit: 0, aroundBefore: 0, aroundAfter: 0,
    codesBetween: 0, wordsBetween: 0, before: [], after: [],
  };
}

export const passageWeight = (p: Passage): number => p.qwordCount + p.qwordsWeight * p.maxLcs + p.minGap;

/** Manticore's passage order: unique keywords, then weight, then codepoints. */
export function passageLess(a: Passage, b: Passage): boolean {
  if (a.uniqQwords !== b.uniqQwords) return a.uniqQwords < b.uniqQwords;
  const wa = passageWeight(a);
  const wb = passageWeight(b);
  return wa === wb ? a.codes < b.codes : wa < wb;
}

/** Candidates of all fields picked together (limits_per_field=0) share one context. */
export class PassageContext {
  passages: Passage[] = [];
  qwords = 0;
  qwordWeights = new Int32Array(32);
  topWeights: number[] = [];
}

export function log2(v: number): number {
  let n = 0;
  let x = v >>> 0;
  while (x) { n++; x >>>= 1; }
  return n;
}
