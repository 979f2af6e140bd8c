/**
 * The passage picker, Manticore's way (src/snippetfunctor.cpp PassageExtractor, src/snippetpassage.cpp
 * SelectBestPassages): slide a window over a field's token stream, weigh candidate passages, then
 * greedily pick the best under limit / limit_words / limit_snippets and trim them to fit.
 * Works on plain typed arrays so the WASM core (assembly/snippet/) can run the same steps.
 */

/** One field's token stream: words and the whitespace / punctuation runs between them. */
export interface PassageStream {
  /** Length of each stream token in codepoints. */
  len: Int32Array;
  /** 1 for a word (stopwords included), 0 for a gap run. */
  word: Uint8Array;
  /** Query-keyword bit of a matched word (0 when not matched or not a keyword). */
  mask: Uint32Array;
  /** 1 when the token is a matched word (part of a marked span). */
  hit: Uint8Array;
  /** 1: a sentence / paragraph / zone boundary comes right before the token; 2: the token is a phrase boundary gap piece. */
  brk: Uint8Array;
  /** UTF-8 bytes of the field text (Manticore compares limits with it). */
  docBytes: number;
  /** The same tokens in the core's layout, when the builder made them (copied in one go). */
  packed?: Int32Array;
}

export interface PassageLimits { limit: number; limitWords: number; limitSnippets: number }

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
