import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { TERM_CACHE_SIZE, TermDictionary, type BufferedWord } from '../../../src/text/term-dictionary.js';
import { Stopwords } from '../../../src/text/stopwords.js';
import { stemEn } from '../../../src/text/stem-en.js';
import { Wordforms } from '../../../src/text/wordforms.js';

const opts = { minStemmingLen: 1, stopwordsUnstemmed: false };

/** A word as the tokenizer hands it over: units in a buffer with stale units after them. */
function buffered(word: string): BufferedWord {
  const buf = new Uint16Array(word.length + 4).fill(0x78);
  for (let i = 0; i < word.length; i++) buf[i] = word.charCodeAt(i);
  return { buf, textLen: word.length, text: word };
}

describe('TermDictionary cache', () => {
  it('termOf (by buffer) and term (by string) agree with an uncached lookup, in any order', () => {
    const word = fc.stringMatching(/^[a-zé]{1,12}$/);
    fc.assert(fc.property(fc.array(fc.tuple(word, fc.boolean()), { maxLength: 80 }), (words) => {
      const dict = new TermDictionary([stemEn], Stopwords.of(['the', 'run']), opts);
      for (const [w, byBuffer] of words) {
        const fresh = new TermDictionary([stemEn], Stopwords.of(['the', 'run']), opts).term(w);
        expect(byBuffer ? dict.termOf(buffered(w)) : dict.term(w)).toBe(fresh);
      }
    }));
  });

  it('stays right past its capacity (the cache starts over)', () => {
    const dict = new TermDictionary([(w) => `${w}!`], Stopwords.NONE, opts);
    const n = TERM_CACHE_SIZE + 1000;
    for (let i = 0; i < n; i++) expect(dict.termOf(buffered(`w${i}`))).toBe(`w${i}!`);
    for (let i = 0; i < n; i += 997) expect(dict.term(`w${i}`)).toBe(`w${i}!`);
  });

  it('an identity dictionary returns the word itself', () => {
    const dict = new TermDictionary([], Stopwords.NONE, opts);
    expect(dict.termOf(buffered('Same'))).toBe('Same');
  });
});

describe('TermDictionary namedLetters', () => {
  it("is the stopwords' first letters a-z when terms keep their token's first letter, null with wordforms or other stemmers", () => {
    const stop = Stopwords.of(['the', 'of', 'zed', 'é', '1st']);
    const bit = (ch: string) => 1 << (ch.charCodeAt(0) - 0x61);
    expect(new TermDictionary([stemEn], stop, opts).namedLetters(true)).toBe(bit('t') | bit('o') | bit('z'));
    expect(new TermDictionary([stemEn], Stopwords.NONE, opts).namedLetters(true)).toBe(0);
    expect(new TermDictionary([stemEn], stop, opts).namedLetters(false)).toBeNull();
    expect(new TermDictionary([], stop, opts, Wordforms.of([['walks', 'run']])).namedLetters(true)).toBeNull();
  });
});
