import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createTextPipeline } from '../../../src/text/text-pipeline.js';
import { SearchError } from '../../../src/util/errors.js';
import { plainField } from './plain-field.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-text-'));
function stopFile(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, body);
  return path;
}

describe('indexField', () => {
  it('gives 1-based positions', () => {
    expect(plainField(createTextPipeline({}).indexField('The quick, brown fox'))).toEqual({
      terms: ['the', 'quick', 'brown', 'fox'], positions: [1, 2, 3, 4], length: 4,
    });
  });

  it('keeps positions of overshort tokens (min_word_len)', () => {
    const p = createTextPipeline({ min_word_len: '3' });
    expect(plainField(p.indexField('a big cat in a hat'))).toEqual({ terms: ['big', 'cat', 'hat'], positions: [2, 3, 6], length: 6 });
  });

  it('keeps positions of stopwords, matched after stemming', () => {
    const path = stopFile('en.txt', 'the\nA an\r\nrunning\n');
    const p = createTextPipeline({ stopwords: path, morphology: 'stem_en' });
    // "runs" stems to "run" like the stopword "running": dropped with stopwords_unstemmed=0
    expect(plainField(p.indexField('The dog runs to a cat'))).toEqual({
      terms: ['dog', 'to', 'cat'], positions: [2, 4, 6], length: 6,
    });
    const unstemmed = createTextPipeline({ stopwords: path, morphology: 'stem_en', stopwords_unstemmed: '1' });
    expect(unstemmed.indexField('The dog runs running').terms).toEqual(['dog', 'run']);
  });

  it('lets stopword_step=0 and overshort_step=0 take no position', () => {
    const path = stopFile('the.txt', 'the');
    const p = createTextPipeline({ stopwords: path, stopword_step: '0', min_word_len: '2', overshort_step: '0' });
    expect(p.indexField('the cat x sat').positions).toEqual([1, 2]);
  });

  it('adds phrase_boundary_step after a boundary', () => {
    const p = createTextPipeline({ phrase_boundary: 'U+2C', phrase_boundary_step: '100' });
    expect(p.indexField('one two, three').positions).toEqual([1, 2, 103]);
    expect(createTextPipeline({ phrase_boundary: 'U+2C' }).indexField('one two, three').positions).toEqual([1, 2, 3]);
  });

  it('reports the last indexed position as the length', () => {
    const path = stopFile('stop2.txt', 'end');
    expect(createTextPipeline({ stopwords: path }).indexField('a b end').length).toBe(2);
    expect(createTextPipeline({}).indexField('').length).toBe(0);
  });

  it('strips HTML when html_strip=1', () => {
    const p = createTextPipeline({ html_strip: '1' });
    expect(p.indexField('<p>Hello <b>wor</b>ld &amp; caf&eacute;</p><!-- hidden -->').terms)
      .toEqual(['hello', 'world', 'cafe']);
    expect(createTextPipeline({}).indexField('<b>x</b>').terms).toEqual(['b', 'x', 'b']);
  });
});

describe('tokenize', () => {
  it('reports stopwords with an empty term and offsets into the original text', () => {
    const path = stopFile('stop3.txt', 'is');
    const p = createTextPipeline({ stopwords: path, morphology: 'stem_en' });
    const text = 'This is Running';
    expect(p.tokenize(text)).toEqual([
      { text: 'this', term: 'thi', pos: 1, start: 0, end: 4 },
      { text: 'is', term: '', pos: 2, start: 5, end: 7 },
      { text: 'running', term: 'run', pos: 3, start: 8, end: 15 },
    ]);
  });

  it('maps offsets through HTML stripping', () => {
    const p = createTextPipeline({ html_strip: '1' });
    const text = '<div class="x">Caf&eacute; <i>au</i> lait</div>';
    const toks = p.tokenize(text);
    expect(toks.map((t) => [t.text, text.slice(t.start, t.end)])).toEqual([
      ['cafe', 'Caf&eacute;'], ['au', 'au'], ['lait', 'lait'],
    ]);
  });
});

describe('normalizeWord', () => {
  it('turns a query word into dictionary terms', () => {
    const p = createTextPipeline({ morphology: 'stem_en' });
    expect(p.normalizeWord('Walked')).toEqual(['walk']);
    expect(p.normalizeWord('foo_bar')).toEqual(['foo', 'bar']);
    expect(p.normalizeWord('well-known')).toEqual(['well', 'known']);
    expect(p.normalizeWord('...')).toEqual([]);
  });

  it('leaves stopwords and overshort words out', () => {
    const path = stopFile('stop4.txt', 'the');
    const p = createTextPipeline({ stopwords: path, min_word_len: '2' });
    expect(p.normalizeWord('the')).toEqual([]);
    expect(p.normalizeWord('a')).toEqual([]);
  });
});

describe('keywords', () => {
  it('numbers query positions, skipping operators but not stopwords', () => {
    const path = stopFile('stop5.txt', 'the');
    const p = createTextPipeline({ stopwords: path });
    expect(p.keywords('the cat -dog')).toEqual([
      { qpos: 2, tokenized: 'cat', normalized: 'cat' },
      { qpos: 3, tokenized: 'dog', normalized: 'dog' },
    ]);
  });
});

describe('settings errors', () => {
  it('rejects unknown morphology and bad charsets with Manticore texts', () => {
    expect(() => createTextPipeline({ morphology: 'stem_xx' })).toThrow('unknown stemmer stem_xx');
    expect(() => createTextPipeline({ morphology: 'lemmatize_ru' })).toThrow(SearchError);
    expect(() => createTextPipeline({ charset_table: 'a..z,, b' })).toThrow(/^'charset_table': stray ','/);
    expect(() => createTextPipeline({ ignore_chars: 'a' })).toThrow(/'ignore_chars': ignored characters must not be referenced/);
    expect(() => createTextPipeline({ stopwords: join(dir, 'missing.txt') })).toThrow(`'stopwords' file missed ${join(dir, 'missing.txt')}`);
  });

  it('accepts none and mixed-case morphology lists', () => {
    expect(createTextPipeline({ morphology: 'none' }).normalizeWord('walked')).toEqual(['walked']);
    expect(createTextPipeline({ morphology: 'STEM_EN' }).normalizeWord('walked')).toEqual(['walk']);
  });
});

describe('properties', () => {
  const p = createTextPipeline({ morphology: 'stem_en' });
  const html = createTextPipeline({ html_strip: '1' });
  const spz = createTextPipeline({ html_strip: '1', index_sp: '1', index_zones: 'h*, zone_*', min_word_len: '2' });
  const texts = fc.oneof(fc.string({ unit: 'grapheme-composite', maxLength: 80 }), fc.string({ unit: 'binary', maxLength: 80 }),
    fc.array(fc.constantFrom('<b>', '</p>', '&amp;', '&#x41;', '<!--', '-->', 'Word', ' ', 'é', '😀', '_', '\u00ad', '. ', '?', 'Mr.', '<h1>', '</zone_a>', '\x04'), { maxLength: 30 }).map((a) => a.join('')));

  it('never throws and gives strictly increasing positions', () => {
    fc.assert(fc.property(texts, (text) => {
      for (const pipe of [p, html, spz]) {
        const toks = pipe.tokenize(text);
        for (let k = 1; k < toks.length; k++) expect(toks[k].pos).toBeGreaterThan(toks[k - 1].pos);
        const field = pipe.indexField(text);
        const indexed = toks.filter((t) => t.term !== '');
        expect(field.terms).toEqual(indexed.map((t) => t.term));
        expect(field.positions).toEqual(indexed.map((t) => t.pos));
      }
    }), { numRuns: 500 });
  });

  it('maps each token back to source text that folds to it', () => {
    fc.assert(fc.property(texts, (text) => {
      for (const tok of p.tokenize(text)) {
        const again = p.tokenize(text.slice(tok.start, tok.end));
        expect(again.map((t) => t.text)).toEqual([tok.text]);
      }
    }), { numRuns: 500 });
  });
});
