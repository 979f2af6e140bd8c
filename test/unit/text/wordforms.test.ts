// Wordforms: file parsing, loading rules and their place in the pipeline (after folding, before morphology).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createTextPipeline } from '../../../src/text/text-pipeline.js';
import { parseWordformLine, Wordforms } from '../../../src/text/wordforms.js';
import { SearchError } from '../../../src/util/errors.js';

const dir = mkdtempSync(join(tmpdir(), 'quarry-wf-'));
function file(name: string, body: string): string {
  const path = join(dir, name);
  writeFileSync(path, body);
  return path;
}
const words = (s: string): string[] => s.toLowerCase().split(/\s+/).filter(Boolean);

describe('parseWordformLine', () => {
  it('splits on > and =>, drops comments and lines without a separator', () => {
    expect(parseWordformLine('walks > walk')).toEqual({ src: 'walks ', dst: ' walk', afterMorphology: false });
    expect(parseWordformLine('a=>b')).toEqual({ src: 'a', dst: 'b', afterMorphology: false });
    expect(parseWordformLine(' ~run > walk # note')).toEqual({ src: 'run ', dst: ' walk ', afterMorphology: true });
    expect(parseWordformLine('# x > y')).toBeNull();
    expect(parseWordformLine('a\\> > abc')).toEqual({ src: 'a> ', dst: ' abc', afterMorphology: false });
    expect(parseWordformLine('c\\=\\> => cde')).toEqual({ src: 'c=> ', dst: ' cde', afterMorphology: false });
    expect(parseWordformLine('\\~g > bar')).toEqual({ src: '~g ', dst: ' bar', afterMorphology: false });
    expect(parseWordformLine('x > y\\#z # note')).toEqual({ src: 'x ', dst: ' y#z ', afterMorphology: false });
    expect(parseWordformLine('no separator')).toBeNull();
    expect(parseWordformLine('')).toBeNull();
  });
});

describe('Wordforms.fromSetting', () => {
  it('loads several files, folds both sides, later lines override', () => {
    const a = file('a.txt', 'Walks > Walk\nmice => mouse\n# comment\n\n');
    const b = file('b.txt', 'walks > stroll\r\n');
    const wf = Wordforms.fromSetting(`${a} ${b}`, words);
    expect(wf.get('walks')).toBe('stroll');
    expect(wf.get('mice')).toBe('mouse');
    expect(wf.get('walk')).toBeUndefined();
    expect(wf.size).toBe(2);
  });
  it('keeps multi-word sources apart and skips multi-word destinations', () => {
    const wf = Wordforms.fromSetting(file('m.txt', 'a b > c\nd > e f\ng > h\na b c > x\n'), words);
    expect(wf.size).toBe(2);
    expect(wf.get('g')).toBe('h');
    expect(wf.get('d')).toBeUndefined();
    const toks = words('a b c d').map((text) => ({ text, special: false }));
    expect(wf.matchMulti(toks, 0)).toEqual({ words: ['a', 'b', 'c'], dst: 'x' });
    expect(wf.matchMulti(toks.slice(0, 2), 0)).toEqual({ words: ['a', 'b'], dst: 'c' });
    expect(wf.matchMulti(toks, 1)).toBeNull();
  });
  it('relative paths and wildcards fail as Manticore\'s CREATE TABLE checks do', () => {
    const rel = 'quarry-relative-wordforms.txt';
    writeFileSync(rel, 'a > b\n');
    try {
      expect(() => Wordforms.fromSetting(rel, words)).toThrow(`paths to external files should be absolute: '${rel}'`);
    } finally {
      rmSync(rel);
    }
    file('dict1.txt', 'x > y\n');
    expect(() => Wordforms.fromSetting(join(dir, 'dict*.txt'), words)).toThrow(`file not found: '${join(dir, 'dict*.txt')}'`);
    expect(() => Wordforms.fromSetting(join(dir, 'nomatch*.txt'), words)).toThrow(`fileы not found: '${join(dir, 'nomatch*.txt')}'`);
  });
  it('an empty setting is no wordforms; a missing file is an error', () => {
    expect(Wordforms.fromSetting('', words).size).toBe(0);
    const missing = join(dir, 'nope.txt');
    expect(() => Wordforms.fromSetting(missing, words)).toThrow(SearchError);
    expect(() => Wordforms.fromSetting(missing, words)).toThrow(`file not found: '${missing}'`);
  });
});

describe('wordforms in the pipeline', () => {
  const wf = file('p.txt', 'Walks > Walk\nmice > mouse\nrunning > sprinting\nthe > thee\n');
  it('maps indexed tokens and leaves their result unstemmed', () => {
    const p = createTextPipeline({ wordforms: wf, morphology: 'stem_en' });
    expect(p.indexField('WALKS mice running jumping').terms).toEqual(['walk', 'mouse', 'sprinting', 'jump']);
  });
  it('applies to query words and CALL KEYWORDS', () => {
    const p = createTextPipeline({ wordforms: wf, morphology: 'stem_en' });
    expect(p.normalizeWord('Mice')).toEqual(['mouse']);
    expect(p.keywords('running dogs')).toEqual([
      { qpos: 1, tokenized: 'running', normalized: 'sprinting' },
      { qpos: 2, tokenized: 'dogs', normalized: 'dog' },
    ]);
  });
  it('stopwords are checked on the wordform result, or on the raw token when unstemmed', () => {
    const stops = file('s.txt', 'the\nmouse\n');
    const p = createTextPipeline({ wordforms: wf, stopwords: stops });
    expect(p.indexField('the mice cat').terms).toEqual(['thee', 'cat']);
    const raw = createTextPipeline({ wordforms: wf, stopwords: stops, stopwords_unstemmed: '1' });
    expect(raw.indexField('the mice cat').terms).toEqual(['mouse', 'cat']);
  });
  it('~ forms apply after morphology to every word that stems to their source', () => {
    const p = createTextPipeline({ wordforms: file('t.txt', '~run > walk\nRunning > sprint\n'), morphology: 'stem_en' });
    expect(p.indexField('run runs running ran').terms).toEqual(['walk', 'walk', 'sprint', 'ran']);
    expect(p.normalizeWord('runs')).toEqual(['walk']);
    expect(createTextPipeline({ wordforms: file('u.txt', '~run > walk\n') }).indexField('run runs').terms)
      .toEqual(['walk', 'runs']);
  });
  it('multi-word sources become one token at the first word\'s place, also in queries', () => {
    const p = createTextPipeline({ wordforms: file('mw.txt', 'Core 2 Duo > c2d\ncore 2duo => c2d\n'), morphology: 'stem_en' });
    const toks = p.tokenize('my CORE 2 duo runs; core 2');
    expect(toks.map((t) => [t.text, t.term, t.pos, t.start, t.end])).toEqual([
      ['my', 'my', 1, 0, 2], ['c2d', 'c2d', 2, 3, 13], ['runs', 'run', 3, 14, 18],
      ['core', 'core', 4, 20, 24], ['2', '2', 5, 25, 26],
    ]);
    expect(p.indexField('core 2duo').terms).toEqual(['c2d']);
    expect(p.keywords('new core 2 duo')).toEqual([
      { qpos: 1, tokenized: 'new', normalized: 'new' },
      { qpos: 2, tokenized: 'c2d', normalized: 'c2d' },
    ]);
  });
  it('a missing file fails the table', () => {
    expect(() => createTextPipeline({ wordforms: join(dir, 'gone.txt') })).toThrow(SearchError);
  });
});
