/** Token -> dictionary term: morphology (stemmers) and stopwords, in Manticore's GetWordID order. */
import { Stopwords } from './stopwords.js';
import { Wordforms } from './wordforms.js';
import { fnvString as hashString, fnvUnits as hashUnits } from '../util/fnv.js';
import { stemEn } from './stem-en.js';

/** A stemmer: returns the word itself when it does not apply. */
export type StemFn = (word: string) => string;

/** Distinct tokens remembered before the cache starts over; text is Zipfian, so hits dominate. */
export const TERM_CACHE_SIZE = 65536;
/** Open-addressing slots of the cache: a power of two, at most half full. */
const CACHE_SLOTS = TERM_CACHE_SIZE * 2;

/** A word as the tokenizer holds it: UTF-16 units in `buf[0, textLen)`, `text` made on demand. */
export interface BufferedWord {
  readonly buf: Uint16Array;
  readonly textLen: number;
  readonly text: string;
}

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

/**
 * The token -> term cache, keyed by UTF-16 units: the index path looks words up straight from the
 * tokenizer's buffer, so a hit allocates no string (a Map keyed by fresh token strings spent most
 * of its time hashing and comparing them, and made garbage of every token).
 */
class TermCache {
  private slots = new Int32Array(CACHE_SLOTS); // entry index + 1; 0 = empty
  private hashes = new Int32Array(TERM_CACHE_SIZE);
  private keys: string[] = [];
  private values: string[] = [];

  /** The slot holding `key`'s units (hash `h`), or the empty slot where it would go, as -1 - slot. */
  findUnits(h: number, buf: Uint16Array, len: number): number {
    let slot = h & (CACHE_SLOTS - 1);
    for (;;) {
      const e = this.slots[slot];
      if (e === 0) return -1 - slot;
      if (this.hashes[e - 1] === h) {
        const key = this.keys[e - 1];
        if (key.length === len) {
          let i = 0;
          while (i < len && key.charCodeAt(i) === buf[i]) i++;
          if (i === len) return slot;
        }
      }
      slot = (slot + 1) & (CACHE_SLOTS - 1);
    }
  }

  findString(h: number, key: string): number {
    let slot = h & (CACHE_SLOTS - 1);
    for (;;) {
      const e = this.slots[slot];
      if (e === 0) return -1 - slot;
      if (this.hashes[e - 1] === h && this.keys[e - 1] === key) return slot;
      slot = (slot + 1) & (CACHE_SLOTS - 1);
    }
  }

  valueAt(slot: number): string { return this.values[this.slots[slot] - 1]; }

  keyAt(slot: number): string { return this.keys[this.slots[slot] - 1]; }

  /** Stores at the empty slot a find returned; false (nothing stored) when the cache is full. */
  add(freeSlot: number, h: number, key: string, value: string): boolean {
    const n = this.keys.length;
    if (n >= TERM_CACHE_SIZE) return false;
    this.hashes[n] = h;
    this.keys.push(key);
    this.values.push(value);
    this.slots[freeSlot] = n + 1;
    return true;
  }

  clear(): void {
    this.slots.fill(0);
    this.keys = [];
    this.values = [];
  }
}

export class TermDictionary {
  private readonly cache = new TermCache();
  /** Nothing to do: terms are the tokens themselves. */
  readonly identity: boolean;

  constructor(
    private readonly stemmers: readonly StemFn[],
    private readonly stopwords: Stopwords,
    private readonly opts: TermDictionaryOptions,
    private readonly wordforms: Wordforms = Wordforms.NONE,
  ) {
    this.identity = stemmers.length === 0 && stopwords.size === 0 && wordforms.size === 0;
    this.stemEnAlone = stemmers.length === 1 && stemmers[0] === stemEn && wordforms.size === 0;
  }

  /**
   * The morphology is stem_en alone and there are no wordforms: a token's term is termOfStem() of its
   * stem_en stem (made elsewhere: the field scanner's core stems its ids), words shorter than
   * minStemmingLen code points unstemmed.
   */
  readonly stemEnAlone: boolean;

  get minStemmingLen(): number {
    return this.opts.minStemmingLen;
  }

  /** termUncached() of `token` where `stemmed` is its stem (only when stemEnAlone): the stopwords asked as compute() asks them. */
  termOfStem(token: string, stemmed: string): string {
    if (this.stopwords.size === 0) return stemmed;
    if (this.opts.stopwordsUnstemmed) return this.stopwords.has(token) ? '' : stemmed;
    return this.stopwords.has(stemmed) ? '' : stemmed;
  }

  /**
   * When every term starts with its token's first letter a-z (no wordforms; `stemsKeepFirst`: the
   * stemmers change only a word's tail), the letters (bit i: a + i) whose tokens may be stopwords;
   * else null. A highlight then needs the term of a token only when it starts with one of these or
   * with a keyword's letter.
   */
  namedLetters(stemsKeepFirst: boolean): number | null {
    return stemsKeepFirst && this.wordforms.size === 0 ? this.stopwords.firstLetters() : null;
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
    const h = hashString(token);
    const slot = this.cache.findString(h, token);
    if (slot >= 0) return this.cache.valueAt(slot);
    return this.remember(h, token, -1 - slot);
  }

  /**
   * term() for a caller that keeps the result itself (the scanner path, once per distinct token): no
   * cache look-up, which would always miss there, and no cache entry, which would only push others out.
   */
  termUncached(token: string): string {
    return this.identity ? token : this.compute(token);
  }

  /** term() of the tokenizer's current word, without making its string when the cache has it. */
  termOf(word: BufferedWord): string {
    if (this.identity) return (this.lastToken = word.text);
    const h = hashUnits(word.buf, word.textLen);
    const slot = this.cache.findUnits(h, word.buf, word.textLen);
    if (slot >= 0) {
      this.lastToken = this.cache.keyAt(slot);
      return this.cache.valueAt(slot);
    }
    const token = word.text;
    this.lastToken = token;
    return this.remember(h, token, -1 - slot);
  }

  /**
   * The folded token string of the last termOf() call: on a cache hit the cached key, so a caller
   * that needs the token's text (highlighting) takes it without building the same string again.
   */
  lastToken = '';

  /** The term of a wordform's destination: not stemmed, '' when it is a stopword. */
  formTerm(dst: string): string {
    return this.stopwords.has(dst) ? '' : dst;
  }

  private remember(h: number, token: string, freeSlot: number): string {
    const term = this.compute(token);
    if (!this.cache.add(freeSlot, h, token, term)) {
      this.cache.clear();
      this.cache.add(-1 - this.cache.findString(h, token), h, token, term);
    }
    return term;
  }

  private compute(token: string): string {
    // the lists are asked only when they hold something: a look-up of a fresh string in a Map or Set
    // hashes the string first, even in an empty one (three per distinct token of a bulk load's build,
    // whose tables mostly have no stopwords nor wordforms)
    const stops = this.stopwords.size > 0;
    if (stops && this.opts.stopwordsUnstemmed && this.stopwords.has(token)) return '';
    // a wordform replaces morphology (its result is not stemmed) but is still a stopword candidate;
    // `~` forms apply to what the stemmers made
    const forms = this.wordforms;
    const stemmed = forms.size === 0 ? this.stem(token) : forms.get(token) ?? forms.afterMorphology(this.stem(token));
    if (stemmed === '') return '';
    if (stops && !this.opts.stopwordsUnstemmed && this.stopwords.has(stemmed)) return '';
    return stemmed;
  }
}
