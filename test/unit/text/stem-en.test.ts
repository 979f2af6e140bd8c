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
