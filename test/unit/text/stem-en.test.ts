import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { stemEn } from '../../../src/text/stem-en.js';

const VECTORS = new URL('../../../../shared/spec/stem_en-vectors.tsv', import.meta.url);

describe('stemEn', () => {
  it('agrees with Manticore on the 92,212 reference pairs (>= 99.9%)', () => {
    const lines = readFileSync(VECTORS, 'utf8').split('\n').filter(Boolean);
    expect(lines.length).toBeGreaterThan(90_000);
    const misses: string[] = [];
    for (const line of lines) {
      const [word, stem] = line.split('\t');
      const got = stemEn(word);
      if (got !== stem) misses.push(`${word}: expected ${stem}, got ${got}`);
    }
    expect(misses.length / lines.length).toBeLessThan(0.001);
    expect(misses.slice(0, 20)).toEqual([]);
  });

  it('returns words of an ending no step takes as they are, as Manticore does, and still stems their neighbours', () => {
    // the endings stemEn answers before running the steps: Manticore's own stems of such words are the words
    const untouched = /(?:[abfhjkopquvwxz0-9]|[^n]t|[^i]c|[^s]m|[^o]n|[^eo]r)$/;
    const lines = readFileSync(VECTORS, 'utf8').split('\n').filter(Boolean).map((line) => line.split('\t'));
    const words = lines.filter(([word]) => /^[a-z0-9]{2,}$/.test(word) && untouched.test(word));
    expect(words.length).toBeGreaterThan(20_000);
    expect(words.filter(([word, stem]) => stem !== word || stemEn(word) !== word)).toEqual([]);
    // one letter before the same last letter, and the step's suffix applies
    expect(stemEn('payment')).toBe('payment');
    expect(stemEn('adjustment')).toBe('adjust');
    expect(stemEn('electric')).toBe('electr');
    expect(stemEn('communism')).toBe('commun');
    expect(stemEn('formalism')).toBe('formal');
    expect(stemEn('connection')).toBe('connect');
    expect(stemEn('relation')).toBe('relat');
    expect(stemEn('generator')).toBe('generat');
    expect(stemEn('hopper')).toBe('hopper');
    expect(stemEn('dependencier')).toBe('dependenci');
    // a capital Y anywhere still takes the full run (its marking pass lowercases it)
    expect(stemEn('sayYa')).toBe('sayya');
  });

  it('keeps the Sphinx quirks of the pre-2011 algorithm', () => {
    expect(stemEn('was')).toBe('wa');
    expect(stemEn('his')).toBe('hi');
    expect(stemEn('the')).toBe('the');
    expect(stemEn('sky')).toBe('sky');
    expect(stemEn('gas')).toBe('ga');
    expect(stemEn('this')).toBe('thi');
    expect(stemEn('ties')).toBe('tie');
    expect(stemEn('tied')).toBe('tie');
    expect(stemEn('cries')).toBe('cri');
    expect(stemEn('caresses')).toBe('caress');
    expect(stemEn('dying')).toBe('die');
    expect(stemEn('skies')).toBe('sky');
    expect(stemEn('innings')).toBe('inning');
    expect(stemEn('early')).toBe('earli');
    expect(stemEn('gently')).toBe('gentl');
  });

  it('applies the regular Porter2 steps', () => {
    expect(stemEn('running')).toBe('run');
    expect(stemEn('walked')).toBe('walk');
    expect(stemEn('hopping')).toBe('hop');
    expect(stemEn('generously')).toBe('generous');
    expect(stemEn('relational')).toBe('relat');
    expect(stemEn('happy')).toBe('happi');
    expect(stemEn('yelling')).toBe('yell');
  });

  it('leaves short words and non-letters alone', () => {
    expect(stemEn('a')).toBe('a');
    expect(stemEn('is')).toBe('is');
    expect(stemEn('x86')).toBe('x86');
    expect(stemEn('')).toBe('');
  });

  it('works on the UTF-8 bytes of non-ASCII words, changing only ASCII endings', () => {
    expect(stemEn('шины')).toBe('шины');
    expect(stemEn('приветs')).toBe('привет');
    expect(stemEn('cafés')).toBe('café');
  });
});
