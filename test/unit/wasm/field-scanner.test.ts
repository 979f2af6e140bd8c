// The core's whole-field scanner against the TS tokenizer (test/reference/field-tokens.ts), alone and
// inside the text pipeline (indexField, analyze), on random Unicode text and random text settings.
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { gcideAvailable, loadGcide } from '../../../bench/lib/corpus.js';
import type { TableSettings } from '../../../src/schema/types.js';
import { addFlaggedChars, buildCaseFolding, FLAG_BOUNDARY, FLAG_IGNORE } from '../../../src/text/charset-table.js';
import { SCAN_RECORD_WORDS, setFieldScannerFactory } from '../../../src/text/field-scanner.js';
import { createTextPipeline } from '../../../src/text/text-pipeline.js';
import { coreFieldScanners, releaseCoreFieldScanners, resetCoreFieldScanners } from '../../../src/wasm/field-scanner.js';
import { referenceFieldTokens, type FieldToken } from '../../reference/field-tokens.js';
import { plainField } from '../text/plain-field.js';

/** Characters that exercise folding, separators, flagged characters, scripts and surrogates. */
const PIECES = [
  'a', 'B', 'z', 'Q', '0', '7', '_', ' ', ' ', ' ', '\t', '\n', ',', '.', ';', '-', "'", '?', '!', '"',
  'é', 'É', 'ａ', 'ß', 'Ж', 'ж', 'ё', 'Ω', '中', '文', 'ا', 'ي', '\u00ad', '\u0301', '\u200b', '\u3000',
  '😀', '𝐀', '\ufeff', '\ud800', '\udc00', 'the', 'running', 'Houses', 'caresses', 'generously',
  'x'.repeat(45), 'é'.repeat(70), 'ab-cd', 'U.S.A.',
];
const textArb = fc.array(fc.constantFrom(...PIECES), { maxLength: 60 }).map((a) => a.join(''));
/** Text the scanner takes (no surrogates), so most cases compare the core path. */
const bmpTextArb = fc.array(fc.constantFrom(...PIECES.filter((p) => !/[\ud800-\udfff]/.test(p))), { maxLength: 60 }).map((a) => a.join(''));

function scanned(records: Int32Array, count: number, texts: readonly string[]): FieldToken[] {
  const out: FieldToken[] = [];
  for (let k = 0; k < count * SCAN_RECORD_WORDS; k += SCAN_RECORD_WORDS) {
    out.push({
      text: texts[records[k + 2]], start: records[k], end: records[k + 1],
      overshort: records[k + 3] >> 1, boundary: (records[k + 3] & 1) !== 0,
    });
  }
  return out;
}

describe('core field scanner', () => {
  const table = buildCaseFolding('non_cont, U+2E, U+41->U+1F600, U+FF41->a');
  addFlaggedChars(table, 'phrase_boundary', 'U+2C, U+3B', FLAG_BOUNDARY, 'phrase boundary', false);
  addFlaggedChars(table, 'ignore_chars', 'U+AD, U+27', FLAG_IGNORE, 'ignored', false);

  it('gives the TS tokenizer tokens on random text and min_word_len', () => {
    fc.assert(fc.property(textArb, fc.integer({ min: 1, max: 4 }), (text, minWordLen) => {
      const scan = coreFieldScanners(table, minWordLen).scan(text);
      if (scan === null) {
        expect(/[\ud800-\udfff]/.test(text)).toBe(true); // only surrogates send a plain table to TS
        return;
      }
      const got = scanned(scan.records, scan.count, scan.texts);
      expect(got).toEqual(referenceFieldTokens(table, text, minWordLen));
    }), { numRuns: 500 });
  });

  it('gives the TS tokenizer tokens on long ASCII text (the SIMD run: words under and over 16 units, flagged and ignored characters after a run)', () => {
    const ascii = PIECES.filter((p) => /^[\x00-\x7f]+$/.test(p)).concat(['abcdefghijklmno', 'abcdefghijklmnop', 'Abc', 'ab\'cd', 'a,b']);
    const longAscii = fc.array(fc.constantFrom(...ascii), { minLength: 20, maxLength: 120 }).map((a) => a.join(''));
    fc.assert(fc.property(longAscii, fc.integer({ min: 1, max: 4 }), (text, minWordLen) => {
      const scan = coreFieldScanners(table, minWordLen).scan(text)!;
      expect(scanned(scan.records, scan.count, scan.texts)).toEqual(referenceFieldTokens(table, text, minWordLen));
    }), { numRuns: 500 });
  });

  // the SIMD run folds by compares when the table's ASCII part is the usual one (with or without `_`), else by the table
  for (const spec of ['0..9, A..Z->a..z, a..z', '0..9, A..Z->a..z, _, a..z', 'non_cont', '0..9, a..z', '0..9, A..Z->a..z, a..z, U+2D']) {
    it(`gives the TS tokenizer tokens on long ASCII text with charset_table '${spec}'`, () => {
      const t = buildCaseFolding(spec);
      const ascii = PIECES.filter((p) => /^[\x00-\x7f]+$/.test(p)).concat(['abcdefghijklmno', 'ABCDEFGHIJKLMNOP', 'Abc_1', '@[`{', 'a-b', '9Z_z', 'z{', 'Z[a', 'a/0:9']);
      const longAscii = fc.array(fc.constantFrom(...ascii), { minLength: 20, maxLength: 120 }).map((a) => a.join(''));
      fc.assert(fc.property(longAscii, fc.integer({ min: 1, max: 3 }), (text, minWordLen) => {
        const scan = coreFieldScanners(t, minWordLen).scan(text)!;
        expect(scanned(scan.records, scan.count, scan.texts)).toEqual(referenceFieldTokens(t, text, minWordLen));
      }), { numRuns: 200 });
    });
  }

  it('scans fields together as each alone: the same tokens, none for a field it does not take', () => {
    // more tokens than one look-up batch (32) across fields, and fields with surrogates among them
    fc.assert(fc.property(fc.array(textArb, { maxLength: 40 }), fc.integer({ min: 1, max: 3 }), (texts, minWordLen) => {
      const sc = coreFieldScanners(table, minWordLen);
      const many = sc.scanFields!(texts.join(''), Uint32Array.from(texts.map((t) => t.length)))!;
      const got = texts.map(() => [] as FieldToken[] | null);
      let from = 0;
      for (let f = 0; f < texts.length; f++) {
        const n = many.counts[f];
        got[f] = n < 0 ? null : scanned(many.records.subarray(from * SCAN_RECORD_WORDS), n, many.texts);
        if (n > 0) from += n;
      }
      expect(from * SCAN_RECORD_WORDS).toBe(many.records.length);
      texts.forEach((text, f) => {
        const alone = sc.scan(text);
        expect(got[f]).toEqual(alone && scanned(alone.records, alone.count, alone.texts));
      });
    }), { numRuns: 300 });
  });

  it("streams a field with its UTF-8 length, and none when it holds the stripper's marks", () => {
    const req = { term: (w: string) => w, dictKey: {}, keywords: new Map([['the', 0]]), overshortStep: 1, stopwordStep: 1, boundaryStep: 0, slot: 0 };
    fc.assert(fc.property(bmpTextArb, fc.constantFrom('', '\u0003', 'a\u0004z\u0004'), (text, mark) => {
      const s = coreFieldScanners(table, 1).stream(text + mark, req);
      if (mark) expect(s).toBeNull();
      else expect(s?.docBytes).toBe(Buffer.byteLength(text, 'utf8'));
    }), { numRuns: 300 });
  });

  it('names each distinct token by one id, across fields', () => {
    const sc = coreFieldScanners(table, 1);
    const text = Array.from({ length: 3000 }, (_, i) => `w${i.toString(36)}`).join(' ');
    const a = sc.scan(text)!;
    const ids = new Set<number>();
    for (let k = 0; k < a.count; k++) ids.add(a.records[k * SCAN_RECORD_WORDS + 2]);
    expect(ids.size).toBe(3000);
    const b = sc.scan('w0 w0 w1')!;
    expect(b.records[2]).toBe(b.records[SCAN_RECORD_WORDS + 2]);
    expect(b.texts[b.records[2]]).toBe('w0');
  });

  it('names short tokens through its front cache as the table does: many more than its slots, prefixes, padding', () => {
    const sc = coreFieldScanners(table, 1);
    // 20,000 distinct short words (more than the front cache's 4096 slots), seen twice in other orders
    const words = Array.from({ length: 20000 }, (_, i) => `q${(i * 7919).toString(36)}`);
    const tricky = ['abcdefgh', 'abcdefghi', 'abcdefg', 'ab', 'abc', 'abcdefgh', 'ab', 'x'.repeat(30), 'x', 'xx'];
    for (const text of [words.join(' '), [...words].reverse().join(' '), tricky.join(' '), tricky.join(','), words.slice(0, 500).join(' ')]) {
      const s = sc.scan(text)!;
      expect(scanned(s.records, s.count, s.texts).map((t) => t.text)).toEqual(referenceFieldTokens(table, text, 1).map((t) => t.text));
    }
  });

  // dictionary text: a vocabulary of tens of thousands of ids (the table grows, its hash decides every slot)
  it.skipIf(!gcideAvailable())('gives the TS tokenizer tokens on 20,000 gcide documents', () => {
    const plain = buildCaseFolding('non_cont');
    const sc = coreFieldScanners(plain, 1);
    let bad = 0;
    for (const d of loadGcide(20000)) {
      for (const text of [d.title, d.body]) {
        const s = sc.scan(text);
        const want = referenceFieldTokens(plain, text, 1);
        if (s === null) { expect(/[\ud800-\udfff]/.test(text)).toBe(true); continue; }
        const got = scanned(s.records, s.count, s.texts);
        if (JSON.stringify(got) !== JSON.stringify(want)) bad++;
      }
    }
    expect(bad).toBe(0);
  }, 120_000);

  it('renumbers after a reset, and a pipeline keyed by the old ids starts over', () => {
    setFieldScannerFactory(coreFieldScanners);
    const p = createTextPipeline({ morphology: 'stem_en' });
    const before = p.indexField('running dogs ran');
    const gen = coreFieldScanners(table, 1).scan('x')!.generation;
    resetCoreFieldScanners();
    const sc = coreFieldScanners(table, 1);
    const after = sc.scan('dogs running')!;
    expect(after.generation).toBe(gen + 1);
    expect(after.records[2]).toBe(0);
    expect(plainField(p.indexField('dogs running ran'))).toEqual({ terms: ['dog', 'run', 'ran'], positions: [1, 2, 3], length: 3 });
    expect(before.terms).toEqual(['run', 'dog', 'ran']);
  });

  it('starts a fresh instance after a release, in a new id generation, for scanners made before it too', () => {
    setFieldScannerFactory(coreFieldScanners);
    const p = createTextPipeline({ morphology: 'stem_en' });
    expect(plainField(p.indexField('running dogs ran')).terms).toEqual(['run', 'dog', 'ran']);
    const sc = coreFieldScanners(table, 1);
    const gen = sc.scan('x y z')!.generation;
    releaseCoreFieldScanners();
    const after = sc.scan('dogs running')!;
    expect(after.generation).toBe(gen + 1);
    expect(after.records[2]).toBe(0);
    expect(after.texts.slice(0, 2)).toEqual(['dogs', 'running']);
    expect(plainField(p.indexField('dogs running ran'))).toEqual({ terms: ['dog', 'run', 'ran'], positions: [1, 2, 3], length: 3 });
  });
});

const settingsArb: fc.Arbitrary<TableSettings> = fc.record({
  charset_table: fc.constantFrom('non_cont', '0..9, a..z, A..Z->a..z, _', 'english, russian', 'non_cont, U+2E, U+41->U+1F600', '',
    'non_cont, U+FEFF, U+42->U+FEFF'),
  ignore_chars: fc.constantFrom('', 'U+AD', 'U+AD, U+27'),
  phrase_boundary: fc.constantFrom('', 'U+2C, U+3B', '?'),
  phrase_boundary_step: fc.constantFrom('0', '1', '3'),
  min_word_len: fc.constantFrom('1', '2', '3'),
  overshort_step: fc.constantFrom('0', '1'),
  stopword_step: fc.constantFrom('0', '1'),
  morphology: fc.constantFrom('none', 'stem_en', 'stem_en, stem_ru'),
  min_stemming_len: fc.constantFrom('1', '4'),
  html_strip: fc.constantFrom('0', '1'),
}, { requiredKeys: [] }) as fc.Arbitrary<TableSettings>;

describe('text pipeline with the core scanner', () => {
  afterEach(() => setFieldScannerFactory(coreFieldScanners));

  const both = (settings: TableSettings) => {
    setFieldScannerFactory(coreFieldScanners);
    const core = createTextPipeline(settings);
    setFieldScannerFactory(null);
    const ts = createTextPipeline(settings);
    setFieldScannerFactory(coreFieldScanners);
    return { core, ts };
  };

  it('indexes and analyzes fields exactly as the TS tokenizer does', () => {
    fc.assert(fc.property(settingsArb, fc.oneof(bmpTextArb, bmpTextArb, textArb), (settings, text) => {
      const { core, ts } = both(settings);
      expect(plainField(core.indexField(text))).toEqual(ts.indexField(text));
      expect(core.analyze(text)).toEqual(ts.analyze(text));
    }), { numRuns: 400 });
  });

  it('takes the TS path where the scanner does not apply (index_sp, blend_chars)', () => {
    for (const settings of [{ index_sp: '1' }, { blend_chars: '-, U+2E' }, { index_zones: 'h*', html_strip: '1' }] as TableSettings[]) {
      const { core, ts } = both(settings);
      const text = 'One. Two-three <h1>four</h1> U.S.A. end!';
      expect(plainField(core.indexField(text))).toEqual(ts.indexField(text));
      expect(core.analyze(text)).toEqual(ts.analyze(text));
    }
  });
});
