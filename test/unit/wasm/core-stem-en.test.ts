// The core's stem_en of the scanner's token ids (assembly/text/stem-en.ts, FieldScanner.stemEnIds) against
// src/text/stem-en.ts, word for word: Manticore's reference words, every a-z word up to four letters, words
// made of the steps' suffixes, non-ASCII words (left to the host), min_stemming_len; and the text pipeline's
// bulk path (indexScannedInto), which takes its terms from the core, against its field walk.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TableSettings } from '../../../src/schema/types.js';
import { buildCaseFolding } from '../../../src/text/charset-table.js';
import { setFieldScannerFactory, type FieldScanner } from '../../../src/text/field-scanner.js';
import { stemEn } from '../../../src/text/stem-en.js';
import { createTextPipeline } from '../../../src/text/text-pipeline.js';
import { coreFieldScanners, releaseCoreFieldScanners, resetCoreFieldScanners } from '../../../src/wasm/field-scanner.js';
import { plainField } from '../text/plain-field.js';

const VECTORS = new URL('../../../../shared/spec/stem_en-vectors.tsv', import.meta.url);

/** Words ids of one scan can hold (the scanner's cache keeps 2^18). */
const CHUNK = 100_000;

/** The stem the core gives each distinct word (as FieldPacker rebuilds it), or null where it leaves a word to the host. */
function coreStems(scanner: FieldScanner, words: string[], minLen: number): Map<string, string | null> {
  const out = new Map<string, string | null>();
  for (let at = 0; at < words.length; at += CHUNK) {
    resetCoreFieldScanners();
    const scan = scanner.scan(words.slice(at, at + CHUNK).join(' '))!;
    const n = scan.texts.length;
    const core = scanner.stemEnIds!(0, n, scan.generation, minLen)!;
    let tail = 0;
    for (let id = 0; id < n; id++) {
      const token = scan.texts[id];
      const r = core.stems[id];
      if (r < 0) {
        out.set(token, null);
        continue;
      }
      const len = r >> 8;
      const same = r & 0xff;
      out.set(token, token.slice(0, same) + String.fromCharCode(...core.tails.subarray(tail, tail + len - same)));
      tail += len - same;
    }
    expect(tail).toBe(core.tails.length);
  }
  return out;
}

function allWords(letters: string, maxLen: number): string[] {
  let level = [''];
  const out: string[] = [];
  for (let len = 1; len <= maxLen; len++) {
    level = level.flatMap((w) => [...letters].map((ch) => w + ch));
    for (const w of level) out.push(w);
  }
  return out;
}

/** Stems' suffixes and pieces of them, so words reach every step (and its region tests). */
const PIECES = ['a', 'e', 'i', 'o', 'u', 'y', 'b', 'c', 'd', 'g', 'l', 'm', 'n', 'r', 's', 't', 'at', 'bl', 'iz', 'ed', 'ing', 'ly',
  'eed', 'ies', 'ied', 'sses', 'enci', 'anci', 'abli', 'entli', 'aliti', 'ousli', 'iviti', 'biliti', 'fulli', 'lessli', 'ogi', 'al',
  'ational', 'tional', 'alism', 'ization', 'ation', 'izer', 'ator', 'fulness', 'ousness', 'iveness', 'alize', 'icate', 'ative',
  'iciti', 'ical', 'ful', 'ness', 'ance', 'ence', 'able', 'ible', 'ate', 'ive', 'ize', 'iti', 'ism', 'ion', 'er', 'ic', 'ous', 'ement',
  'ment', 'ant', 'ent', 'll', 'gener', 'sky', 'dying', 'skies', 'idly', 'only', 'proceed', 'innings', 'x', 'w', 'ay', 'oy'];

/** Seeded, so a failure repeats. */
function pieceWords(n: number, seed: number): string[] {
  let s = seed;
  const next = () => ((s = (Math.imul(s, 1103515245) + 12345) >>> 0) >>> 8) % PIECES.length;
  const out: string[] = [];
  for (let k = 0; k < n; k++) {
    let w = '';
    for (let p = 1 + (k % 4); p > 0; p--) w += PIECES[next()];
    out.push(w.slice(0, 40));
  }
  return out;
}

describe('core stem_en', () => {
  const scanner = coreFieldScanners(buildCaseFolding('0..9, A..Z->a..z, a..z, U+E0..U+FF'), 1);
  afterEach(() => setFieldScannerFactory(null));

  function expectSameStems(words: string[], minLen = 0): void {
    const got = coreStems(scanner, words, minLen);
    const wrong: string[] = [];
    for (const [word, stem] of got) {
      const want = [...word].length < minLen ? word : stemEn(word);
      if (stem !== null && stem !== want) wrong.push(`${word}: ${stem}, stemEn ${want}`);
    }
    expect(wrong.slice(0, 20)).toEqual([]);
  }

  it("stems Manticore's reference words as stemEn does", () => {
    const words = readFileSync(VECTORS, 'utf8').split('\n').filter(Boolean).map((l) => l.split('\t')[0]);
    expect(words.length).toBeGreaterThan(90_000);
    expectSameStems(words);
  });

  it('stems every a-z word up to four letters as stemEn does', () => {
    expectSameStems(allWords('abcdefghijklmnopqrstuvwxyz', 4));
  });

  it("stems words made of the steps' suffixes as stemEn does", () => {
    expectSameStems(pieceWords(300_000, 7));
  });

  it('leaves words shorter than min_stemming_len unstemmed, and non-ASCII words to the host', () => {
    expectSameStems(['ties', 'cats', 'running', 'runs', 'gently', 'éties', 'cafés'], 5);
    const got = coreStems(scanner, ['cats', 'éties', 'naïveties', 'running'], 0);
    expect([...got]).toEqual([['cats', 'cat'], ['éties', null], ['naïveties', null], ['running', 'run']]);
  });

  it('gives the same ids no stems for another generation', () => {
    const scan = scanner.scan('cats dogs')!;
    expect(scanner.stemEnIds!(0, scan.texts.length, scan.generation + 1, 0)).toBeNull();
    releaseCoreFieldScanners();
  });
});

describe('text pipeline bulk path with the core stems', () => {
  afterEach(() => {
    setFieldScannerFactory(null);
    releaseCoreFieldScanners();
  });

  const stops = join(mkdtempSync(join(tmpdir(), 'quarry-core-stem-')), 'stops.txt');
  writeFileSync(stops, 'the\nrun\ncats\nti\n');
  const settings: Array<Record<string, string>> = [
    { morphology: 'stem_en' },
    { morphology: 'stem_en', min_stemming_len: '5' },
    { morphology: 'stem_en', stopwords: stops },
    { morphology: 'stem_en', stopwords: stops, stopwords_unstemmed: '1' },
    { morphology: 'stem_en', charset_table: 'non_cont' },
  ];
  const text = 'The cats were running; RUNS of generously relational naïveties — ties, skies, dying cats the end';

  for (const s of settings) {
    it(`indexes the terms the field walk gives (${JSON.stringify(s)})`, () => {
      const want = plainField(createTextPipeline(s as TableSettings).indexField(text));
      expect(want.terms.length).toBeGreaterThan(8);
      setFieldScannerFactory(coreFieldScanners);
      const p = createTextPipeline(s as TableSettings);
      const scan = p.fieldsScanner!()!.scanFields!(text, Uint32Array.of(text.length))!;
      const ids: number[] = [];
      const positions: number[] = [];
      const sink = {
        batch: 1, tag: 0, posMask: 0x7fffff, used: 0, counts: null,
        ids: new Uint32Array(64), positions: new Uint32Array(64),
        names: [] as string[],
        reserve() {},
        idOf(numbering: { names: readonly string[] }, num: number) {
          this.names.push(numbering.names[num]);
          return this.names.length - 1;
        },
      };
      const length = p.indexScannedInto!(scan, 0, scan.counts[0], sink as never);
      for (let k = 0; k < sink.used; k++) {
        ids.push(sink.ids[k]);
        positions.push(sink.positions[k]);
      }
      expect({ terms: ids.map((id) => sink.names[id]), positions, length }).toEqual(want);
    });
  }
});
