// Property: the core-streamed front (snippet-scan-path.ts) gives the same snippets as the general
// path (analyze -> markDocument -> buildStream) on random documents, queries of the shapes it takes
// (and of shapes it hands over), and every snippet option; and it is taken for those shapes.
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
import { skipLetters } from '../../../src/highlight/snippet-scan-plan.js';
import * as builder from '../../../src/highlight/snippet-builder.js';

const WORDS = ['apple', 'apples', 'pie', 'tart', 'red', 'blue', 'running', 'runs', 'of', 'x', 'Über', 'caffè', 'the', 'a'];
const GAPS = [' ', '  ', ', ', '. ', ' - ', '\n', '!? ', ' (', ') ', '<i>', '</i> ', ' &amp; ', ' € ', ' \u0003 '];

const dir = mkdtempSync(join(tmpdir(), 'quarry-scan-path-'));
const stopwords = join(dir, 'stop.txt');
writeFileSync(stopwords, 'the\nof\na\n');

const tables = ([
  { settings: {} },
  { settings: { morphology: 'stem_en' } },
  { settings: { morphology: 'stem_en', min_word_len: '3', html_strip: '1' } },
  { settings: { morphology: 'stem_en', stopwords } },
  { settings: { stopwords, stopword_step: '0', min_word_len: '2', overshort_step: '0' } },
] as { settings: Record<string, string> }[]).map(({ settings }) => ({ settings, pipeline: createTextPipeline(settings) }));

const text = fc.array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...GAPS)), { minLength: 0, maxLength: 40 })
  .map((ps) => ps.map(([w, g]) => w + g).join(''));

const word = fc.constantFrom(...WORDS.filter((w) => w !== 'x').map((w) => w.toLowerCase()));
const leaf: fc.Arbitrary<string> = fc.oneof(
  word,
  fc.array(word, { minLength: 2, maxLength: 3 }).map((ws) => `"${ws.join(' ')}"`),
  fc.tuple(fc.constantFrom('@title', '@body', '@!title', '@(title,body)'), word).map(([f, w]) => `${f} ${w}`),
  word.map((w) => `@body[4] ${w}`),
  // shapes the general path keeps
  word.map((w) => `${w.slice(0, 2)}*`),
  fc.array(word, { minLength: 2, maxLength: 2 }).map((ws) => `"${ws.join(' ')}"~2`),
);
const query: fc.Arbitrary<string> = fc.letrec<{ q: string }>((tie) => ({
  q: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    leaf,
    fc.array(tie('q'), { minLength: 2, maxLength: 3 }).map((qs) => `(${qs.join(' ')})`),
    fc.array(tie('q'), { minLength: 2, maxLength: 3 }).map((qs) => `(${qs.join(' | ')})`),
    fc.tuple(tie('q'), leaf).map(([a, b]) => `(${a} -${b})`),
  ),
})).q;

const options: fc.Arbitrary<RawOption[]> = fc.record({
  limit: fc.constantFrom(0, 10, 30, 256),
  limit_words: fc.constantFrom(0, 3, 8),
  limit_passages: fc.constantFrom(0, 1, 2),
  around: fc.constantFrom(0, 1, 5),
  weight_order: fc.constantFrom(0, 1),
  force_all_words: fc.constantFrom(0, 1),
  allow_empty: fc.constantFrom(0, 1),
  html_strip_mode: fc.constantFrom('index', 'none', 'strip'),
  before_match: fc.constantFrom('<b>', '[%PASSAGE_ID%]'),
  start_passage_id: fc.constantFrom(1, 7),
  limits_per_field: fc.constantFrom(0, 1),
}).map((r) => Object.entries(r).map(([name, value]) => ({ name, value })));

function both(t: number, q: string, texts: string[], opts: RawOption[], flags: BuildFlags): [string, string] {
  return snippetsAb(tables[t], q, texts, opts, flags, scanPath.setScanPath);
}

describe('snippet scan path', () => {
  afterEach(() => scanPath.setScanPath(true));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('gives the general path\'s snippets on random documents, queries and options', () => {
    const before = scanPath.scanPathDocs;
    fc.assert(fc.property(
      fc.integer({ min: 0, max: tables.length - 1 }), query, fc.array(text, { minLength: 1, maxLength: 2 }), options,
      fc.integer({ min: 0, max: flagSets.length - 1 }),
      (t, q, texts, opts, f) => {
        const [fast, general] = both(t, q, texts, opts, flagSets[f]);
        expect(fast).toBe(general);
      },
    ), { numRuns: 1200, seed: 42 });
    // a good share of the runs take the path (the rest hand over: wildcards, proximity, text it does not take)
    expect(scanPath.scanPathDocs - before).toBeGreaterThan(200);
  }, 120_000);

  /** Two fields without stripper marks (they send a field to the general path) under field-limited queries, `flags`' path against the general one. */
  function limitedFields(flags: BuildFlags, texts: { minLength: number; maxLength: number }, limits: string[], withNot: boolean, seed: number): void {
    const plainText = fc.array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(...GAPS.filter((g) => !g.includes('\u0003')))), texts)
      .map((ps) => ps.map(([w, g]) => w + g).join(''));
    const limited = fc.tuple(fc.constantFrom(...limits), fc.array(word, { minLength: 1, maxLength: 3 }), fc.constantFrom(' ', ' | '))
      .map(([f, ws, op]) => `${f} (${ws.join(op)})`);
    const queries = withNot ? fc.oneof(limited, fc.tuple(limited, word).map(([a, b]) => `${a} -${b}`)) : limited;
    fc.assert(fc.property(
      fc.integer({ min: 0, max: tables.length - 1 }), queries, fc.tuple(plainText, plainText), options,
      (t, q, texts, opts) => {
        const [fast, general] = both(t, q, texts, opts, flags);
        expect(fast).toBe(general);
      },
    ), { numRuns: 800, seed });
  }

  it('gives the same snippets when fields no leaf can match in are left unscanned (SQL HIGHLIGHT())', () => {
    const before = scanPath.skippedFields;
    limitedFields(flagSets[1], { minLength: 0, maxLength: 30 }, ['@title', '@body', '@!title', '@!body', '@body[4]'], true, 7);
    expect(scanPath.skippedFields - before).toBeGreaterThan(20);
  }, 120_000);

  it('counts the bytes of a field left unscanned only when its length leaves the limits open', () => {
    // `@title` leaves the body unscanned; whether the fields show whole (or go to the passage pick)
    // depends on title + body bytes against the limit. 'Über ' is 5 UTF-16 units and 6 UTF-8 bytes: 40
    // of them are 200 units and 240 bytes, so a limit of 300 is ruled out by the bytes only (the body
    // is counted), 150 by the length already (it is not), 400 admits both; the general path counts all.
    const title = 'red apple pie with a long title of many words, more words and more words';
    const cases: [string, number][] = [['Über '.repeat(40), 300], ['Über '.repeat(40), 150], ['Über '.repeat(40), 400], ['blue '.repeat(40), 0]];
    const outs = cases.map(([body, limit]) => {
      const [fast, general] = both(0, '@title apple', [title, body], [{ name: 'limit', value: limit }, { name: 'around', value: 1 }], flagSets[1]);
      expect(fast).toBe(general);
      return JSON.parse(fast)[0] as string;
    });
    // the title fits every limit: whole, whether by renderWhole or as the one passage extracted
    for (const out of outs) expect(out).toBe(title.replace('apple', '<b>apple</b>'));
  });

  it('gives the same snippets when JSON scans only the head of fields no leaf can match in', () => {
    // long texts, so the head scan's cut falls inside them
    const before = scanPath.headScans;
    limitedFields(flagSets[2], { minLength: 40, maxLength: 160 }, ['@title', '@body', '@!title', '@!body'], false, 11);
    expect(scanPath.headScans - before).toBeGreaterThan(20);
  }, 120_000);

  it('gives the same snippets when JSON takes the start of a field from an earlier document (snippet-heads.ts)', () => {
    // a few texts, short and long, met again and again: their starts are kept after the first time
    const pool = fc.sample(fc.array(fc.tuple(fc.constantFrom(...WORDS), fc.constantFrom(' ', ', ', '. ', ' - ', '\n', ' € ')), { minLength: 3, maxLength: 160 })
      .map((ps) => ps.map(([w, g]) => w + g).join('')), { numRuns: 6, seed: 5 });
    const limited = fc.tuple(fc.constantFrom('@title', '@body'), fc.array(word, { minLength: 1, maxLength: 3 }), fc.constantFrom(' ', ' | '))
      .map(([f, ws, op]) => `${f} (${ws.join(op)})`);
    const before = scanPath.keptHeads;
    const startsBefore = builder.keptStarts;
    fc.assert(fc.property(
      fc.integer({ min: 0, max: tables.length - 1 }), limited, fc.tuple(fc.constantFrom(...pool), fc.constantFrom(...pool)), options,
      (t, q, texts, opts) => {
        const [fast, general] = both(t, q, texts, opts, flagSets[2]);
        expect(fast).toBe(general);
      },
    ), { numRuns: 1500, seed: 13 });
    expect(scanPath.keptHeads - before).toBeGreaterThan(50);
    // and a start rendered before for the same limit and separator is served as it was (limits and separators vary)
    expect(builder.keptStarts - startsBefore).toBeGreaterThan(5);
  }, 120_000);

  it('is taken for words, AND, OR, NOT, phrases and field limits, not for wildcards', () => {
    const served = (q: string): boolean => {
      const before = scanPath.scanPathDocs;
      both(1, q, ['red apples and a blue tart', 'apple pie'], [], flagSets[1]);
      return scanPath.scanPathDocs > before;
    };
    expect(served('apple')).toBe(true);
    expect(served('red (apple | tart) -pie')).toBe(true);
    expect(served('"blue tart" @title red')).toBe(true);
    expect(served('ap*')).toBe(false);
    expect(served('"red apple"~3')).toBe(false);
  });

  it('leaves unnamed only tokens of letters no keyword starts, and the stopwords\' letters only when they take no position', () => {
    const bit = (ch: string) => 1 << (ch.charCodeAt(0) - 0x61);
    const all = (1 << 26) - 1;
    // keywords "apple", "pie"; stopwords starting t and o
    const kw = bit('a') | bit('p');
    const stop = bit('t') | bit('o');
    expect(skipLetters(stop, kw, 1)).toBe(all & ~kw);
    expect(skipLetters(stop, kw, 0)).toBe(all & ~kw & ~stop);
    // a dictionary that may change a token's first letter (wordforms): every token is named
    expect(skipLetters(null, kw, 1)).toBe(0);
  });
});
