// Property: the highlight fast path scanning long fields only in windows around the places a keyword may
// start (snippet-scan-windows.ts) gives byte for byte the snippets of the whole-field scan, on random long
// documents (rare keywords among filler words, stems, capitals, accents, punctuation), queries of the
// shapes the path takes, every snippet option, SQL / CALL SNIPPETS / JSON flags and several table
// settings; and the windows are taken, and a windowed field without hits is scanned again whole.
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTextPipeline } from '../../../src/text/text-pipeline.js';
import type { BuildFlags } from '../../../src/highlight/snippet-builder.js';
import type { RawOption } from '../../../src/highlight/snippet-options.js';
import * as scanPath from '../../../src/highlight/snippet-scan-path.js';
import { flagSets, snippetsAb } from './snippet-ab.js';
import { joinWindows, keywordPattern, mapPieces, windowsOf } from '../../../src/highlight/snippet-scan-windows.js';
import { CharsetTable } from '../../../src/text/charset-table.js';

/** Keywords (and words sharing their first letters), rare in the texts. */
const KEYS = ['lizard', 'Lizards', 'LIZARD', 'lizz', 'running', 'runs', 'ran', 'happy', 'happiness', 'dying', 'dye', 'ays', 'Über', 'caffè', 'li', 'of'];
const FILLER = ['the', 'a', 'stone', 'horse', 'hat', 'x', 'dog', 'under', 'cafe', 'moon', 'sea'];
/** Filler sharing a keyword's first letters: prefilter places that hold no keyword. */
const NEAR = ['water', 'light', 'limb', 'little', 'lion', 'rust', 'rune', 'über', 'hap', 'dy'];
const GAPS = [' ', ' ', ' ', '  ', ', ', '. ', ' - ', '\n', '!? ', ' (', ') ', ',', '-', '<i>', '</i> ', ' &amp; '];

const dir = mkdtempSync(join(tmpdir(), 'quarry-scan-windows-'));
const stopwords = join(dir, 'stop.txt');
writeFileSync(stopwords, 'the\nof\na\n');
const wordforms = join(dir, 'wf.txt');
writeFileSync(wordforms, 'zebra > lizard\n');

const tables = ([
  { morphology: 'stem_en' },
  {},
  { morphology: 'stem_en', stopwords, min_word_len: '3' },
  { morphology: 'stem_en', html_strip: '1' },
  { morphology: 'stem_en', stopwords, stopword_step: '0', overshort_step: '0', min_word_len: '2' },
  { morphology: 'stem_en', charset_table: 'non_cont' },
  { morphology: 'stem_en', ignore_chars: 'U+2D' },
  { morphology: 'stem_en', wordforms },
  { morphology: 'stem_en', charset_table: '0..9, a..z, A..Z->a..z, U+C0->a, U+E0->a, U+DC->u, U+FC->u, U+E8->e, U+E9->e, U+4C->l' },
] as Record<string, string>[]).map((settings) => ({ settings, pipeline: createTextPipeline(settings) }));

/** A long text: filler with a keyword now and then (rare: the windows leave most of it out). */
const longText = fc.array(
  fc.tuple(fc.oneof(
    { weight: 300, arbitrary: fc.constantFrom(...FILLER) }, { weight: 6, arbitrary: fc.constantFrom(...NEAR) },
    { weight: 1, arbitrary: fc.constantFrom(...KEYS, 'zebra') },
  ), fc.constantFrom(...GAPS)),
  { minLength: 0, maxLength: 1400, size: 'max' },
).map((ps) => ps.map(([w, g]) => w + g).join(''));

const word = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom('lizard', 'running', 'run', 'happy', 'happiness', 'dying', 'dye', 'ays', 'caffè', 'zebra') },
  { weight: 1, arbitrary: fc.constantFrom('über', 'li', 'of', 'water', 'stone') },
);
const leaf: fc.Arbitrary<string> = fc.oneof(
  word,
  fc.array(word, { minLength: 2, maxLength: 3 }).map((ws) => `"${ws.join(' ')}"`),
  fc.tuple(fc.constantFrom('@title', '@body', '@!title'), word).map(([f, w]) => `${f} ${w}`),
);
const query: fc.Arbitrary<string> = fc.oneof(
  // one keyword (the windows are for those) most often
  { weight: 4, arbitrary: fc.oneof(word, word.map((w) => `@body ${w}`), fc.tuple(word, word).map(([a, b]) => `${a} -${b}`)) },
  leaf,
  fc.array(leaf, { minLength: 2, maxLength: 3 }).map((qs) => `(${qs.join(' ')})`),
  fc.array(leaf, { minLength: 2, maxLength: 3 }).map((qs) => `(${qs.join(' | ')})`),
  fc.tuple(leaf, word).map(([a, b]) => `(${a} -${b})`),
);

const options: fc.Arbitrary<RawOption[]> = fc.record({
  limit: fc.constantFrom(0, 10, 30, 100, 256, 256, 256),
  limit_words: fc.constantFrom(0, 0, 3, 8),
  limit_passages: fc.constantFrom(0, 0, 1, 2),
  around: fc.constantFrom(0, 1, 5, 5, 30),
  weight_order: fc.constantFrom(0, 1),
  force_all_words: fc.constantFrom(0, 0, 0, 1),
  use_boundaries: fc.constantFrom(0, 0, 0, 1),
  allow_empty: fc.constantFrom(0, 1),
  html_strip_mode: fc.constantFrom('index', 'none', 'strip'),
  before_match: fc.constantFrom('<b>', '[%PASSAGE_ID%]'),
  limits_per_field: fc.constantFrom(0, 1),
}).map((r) => Object.entries(r).map(([name, value]) => ({ name, value })));

function both(t: number, q: string, texts: string[], opts: RawOption[], flags: BuildFlags): [string, string] {
  return snippetsAb(tables[t], q, texts, opts, flags, scanPath.setScanWindows);
}

describe('snippet scan windows', () => {
  afterEach(() => scanPath.setScanWindows(true));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives the whole scan\'s snippets on random long documents, queries, options and tables', () => {
    const windowed = scanPath.windowedFields;
    const rescans = scanPath.windowRescans;
    fc.assert(fc.property(
      fc.integer({ min: 0, max: tables.length - 1 }), query, fc.tuple(fc.constantFrom('', 'Lizard', 'water stone'), longText), options,
      fc.integer({ min: 0, max: flagSets.length - 1 }),
      (t, q, texts, opts, f) => {
        const [windows, whole] = both(t, q, texts, opts, flagSets[f]);
        expect(windows).toBe(whole);
      },
    ), { numRuns: 3000, seed: 20 });
    expect(scanPath.windowedFields - windowed).toBeGreaterThan(100);
    expect(scanPath.windowRescans - rescans).toBeGreaterThan(10);
  }, 300_000);

  it('finds a keyword\'s capitals, stems and folded letters, and cuts windows between a word and a space', () => {
    const cs = (createTextPipeline({ morphology: 'stem_en' }).streamScanner?.() ?? null)!.charset;
    const re = keywordPattern(new Map([['lizard', 0], ['happi', 1]]), cs)!;
    const text = `${'stone '.repeat(200)}LIZARDS, ${'water '.repeat(200)}happy. ${'light '.repeat(200)}`;
    const w = windowsOf(text, re, 100)!;
    expect(w).toHaveLength(4);
    for (const [k, word] of [[0, 'LIZARDS'], [2, 'happy']] as const) {
      const at = text.indexOf(word);
      expect(w[k]).toBeLessThanOrEqual(at - 100);
      expect(w[k + 1]).toBeGreaterThanOrEqual(at + word.length + 100);
      for (const cut of [w[k], w[k + 1]]) if (cut < text.length) expect(text[cut]).toBe(' ');
    }
    // pieces of the joined windows map back onto the same text
    const joined = joinWindows(text, w);
    const at = joined.indexOf('happy');
    const d = new Int32Array([0, at, at + 5, 0, 0]);
    mapPieces(d, 1, 5, 1, w);
    expect(text.slice(d[1], d[2])).toBe('happy');
  });

  it('takes no prefilter when the charset ignores characters or a keyword starts with no letter a-z', () => {
    const ignoring = createTextPipeline({ ignore_chars: 'U+2D' }).streamScanner?.();
    if (ignoring) expect(keywordPattern(new Map([['lizard', 0]]), ignoring.charset)).toBeNull();
    expect(keywordPattern(new Map([['über', 0]]), CharsetTable.empty())).toBeNull();
  });
});
