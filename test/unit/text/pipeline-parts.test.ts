// The highlight scan leaves unnamed the tokens whose first letter starts no keyword (snippet-scan-path.ts
// skipLetters): sound only while every stemmer keeps a word's first letter, which this checks for the
// stemmers stemsKeepFirstLetter accepts, on every a-z word up to four letters and on suffix-heavy ones.
import { describe, expect, it } from 'vitest';
import { stemsKeepFirstLetter } from '../../../src/text/pipeline-parts.js';
import { parseTextSettings } from '../../../src/text/text-settings.js';
import { stemEn } from '../../../src/text/stem-en.js';
import { stemRu } from '../../../src/text/stem-ru.js';

const LETTERS = 'abcdefghijklmnopqrstuvwxyz';
const SUFFIXES = ['ies', 'ied', 'ing', 'ed', 's', 'ss', 'sses', 'y', 'yes', 'ying', 'eed', 'ly', 'ement', 'ational', 'fulness', 'ization'];

function* words(): Generator<string> {
  const grow = function* (prefix: string, left: number): Generator<string> {
    if (prefix) yield prefix;
    if (left > 0) for (const c of LETTERS) yield* grow(prefix + c, left - 1);
  };
  yield* grow('', 4);
  for (const c of LETTERS) for (const s of SUFFIXES) yield* [c + s, `${c}y${s}`, `y${c}${s}`, `${c}${c}${s}`];
}

describe('stemsKeepFirstLetter', () => {
  it('accepts no morphology, stem_en and stem_ru', () => {
    for (const morphology of ['', 'stem_en', 'stem_ru', 'stem_en, stem_ru']) {
      expect(stemsKeepFirstLetter(parseTextSettings({ morphology }))).toBe(true);
    }
  });

  it('holds: stem_en and stem_ru never change the first letter of a word starting a-z, nor empty it', () => {
    let bad = 0;
    let n = 0;
    for (const w of words()) {
      n++;
      for (const stem of [stemEn, stemRu]) {
        const s = stem(w);
        if (s === '' || s[0] !== w[0]) bad++;
      }
    }
    expect(n).toBeGreaterThan(475000);
    expect(bad).toBe(0);
  });
});
