/** Token -> dictionary term: morphology (stemmers) and stopwords, in Manticore's GetWordID order. */
import { Stopwords } from './stopwords.js';

/** A stemmer: returns the word itself when it does not apply. */
export type StemFn = (word: string) => string;

/** Distinct tokens remembered before the cache starts over; text is Zipfian, so hits dominate. */
export const TERM_CACHE_SIZE = 65536;

export interface TermDictionaryOptions {
  /** Stem only tokens of at least this many codepoints (min_stemming_len). */
  minStemmingLen: number;
  /** stopwords_unstemmed=1: match stopwords before stemming, against the unstemmed list. */
  stopwordsUnstemmed: boolean;
}

function codepointLength(s: string): number {
  let n = s.length;
  for (let k = 0; k < s.length; k++) {
    const c = s.charCodeAt(k);
    if (c >= 0xd800 && c <= 0xdbff) n--;
  }
  return n;
}

export class TermDictionary {
  private readonly cache = new Map<string, string>();
  /** Nothing to do: terms are the tokens themselves. */
  readonly identity: boolean;

  constructor(
    private readonly stemmers: readonly StemFn[],
    private readonly stopwords: Stopwords,
    private readonly opts: TermDictionaryOptions,
  ) {
    this.identity = stemmers.length === 0 && stopwords.size === 0;
  }

  /** The morphology alone: the first stemmer that changes the word wins (Manticore's ApplyStemmers). */
  stem(token: string): string {
    if (this.stemmers.length === 0) return token;
    if (this.opts.minStemmingLen > 1 && codepointLength(token) < this.opts.minStemmingLen) return token;
    for (const stem of this.stemmers) {
      const out = stem(token);
      if (out !== token) return out;
    }
    return token;
  }

  /** The dictionary term of a folded token; '' when it is a stopword. */
  term(token: string): string {
    if (this.identity) return token;
    const hit = this.cache.get(token);
    if (hit !== undefined) return hit;
    const term = this.compute(token);
    if (this.cache.size >= TERM_CACHE_SIZE) this.cache.clear();
    this.cache.set(token, term);
    return term;
  }

  private compute(token: string): string {
    if (this.opts.stopwordsUnstemmed && this.stopwords.has(token)) return '';
    const stemmed = this.stem(token);
    if (stemmed === '') return '';
    if (!this.opts.stopwordsUnstemmed && this.stopwords.has(stemmed)) return '';
    return stemmed;
  }
}
