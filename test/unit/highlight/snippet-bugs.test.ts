// Highlighting bugs found in QA: `=word` without index_exact_words, and limit_words with adjacent keywords.
import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../../src/query/parse-query.js';
import { createTextPipeline } from '../../../src/text/text-pipeline.js';
import { markDocument } from '../../../src/highlight/snippet-marks.js';
import { buildSnippets, packSnippets } from '../../../src/highlight/snippet-builder.js';
import { snippetOptions, type RawOption } from '../../../src/highlight/snippet-options.js';

describe('=word marks what search matched', () => {
  const p = createTextPipeline({ morphology: 'stem_en' });
  const doc = 'he runs and running away then ran';
  /** Marked words and keyword-numbered words of `doc` for `query`. */
  const marks = (query: string, exactWords?: boolean) => {
    const tokens = p.tokenize(doc);
    const root = parseQuery(query, { fields: ['body'], notTermsOnlyAllowed: true }).root;
    const m = markDocument(root, [{ name: 'body', tokens }], {
      pipeline: p, ignoreFields: false, expandInfix: false, expandPrefix: false, exactWords,
    });
    return {
      marked: tokens.filter((t) => m.hits.includes(t.pos)).map((t) => t.text),
      keywords: tokens.filter((_, i) => m.termIndex[0][i] >= 0).map((t) => t.text),
    };
  };

  it('without exact words, =running is stemmed as search stems it: every form of run is marked and counted', () => {
    const m = marks('=running', false);
    expect(m.marked).toEqual(['runs', 'running']);
    expect(m.keywords).toEqual(['runs', 'running']);
    // the same as the plain word
    expect(marks('running', false).marked).toEqual(m.marked);
  });

  it('with exact words, =running marks only that form', () => {
    expect(marks('=running', true).marked).toEqual(['running']);
    expect(marks('=running', true).keywords).toEqual(['running']);
    expect(marks('running', true).marked).toEqual(['runs', 'running']);
  });

  it('a document the stemmed word satisfies is marked, as search finds it', () => {
    const tokens = p.tokenize('run away');
    const root = parseQuery('=running away', { fields: ['body'], notTermsOnlyAllowed: true }).root;
    const ctx = { pipeline: p, ignoreFields: false, expandInfix: false, expandPrefix: false };
    expect(markDocument(root, [{ name: 'body', tokens }], { ...ctx, exactWords: false }).hits.length).toBe(2);
    expect(markDocument(root, [{ name: 'body', tokens }], { ...ctx, exactWords: true }).hits).toEqual([]);
  });
});

describe('limit_words with adjacent keywords (Manticore SelectBestPassages)', () => {
  const settings = {};
  const pipeline = createTextPipeline(settings);
  const snip = (text: string, query: string, opts: RawOption[]): string => {
    const o = snippetOptions(opts);
    const root = parseQuery(query, { fields: ['title'], notTermsOnlyAllowed: true }).root;
    return packSnippets(buildSnippets(root, [{ name: '', text }], o, { pipeline, settings }, { ignoreFields: true, textFromIndex: false, packFields: false }), o);
  };
  const words = (n: number): RawOption[] => [{ name: 'limit_words', value: n }];

  it('a passage whose keyword span has more words than limit_words is not picked, and nothing is shown', () => {
    // SelectBestPassages stops before a passage whose words between its first and last keyword
    // exceed limit_words (FixupQueryLimits raises limit_words only with force_all_words); with no
    // passage HighlightPassages emits nothing and PackResult drops the empty field: ''.
    expect(snip('quick quick', 'quick', words(1))).toBe('');
    expect(snip('quick quick brown', 'quick', words(1))).toBe('');
  });

  it('the same keywords within limit_words are shown, trimmed to it', () => {
    expect(snip('quick quick brown', 'quick', words(2))).toBe('<b>quick quick</b>  ... ');
    expect(snip('quick brown', 'quick', words(1))).toBe('<b>quick</b>  ... ');
  });

  it('force_all_words raises limit_words to the keywords found, so the passage is shown', () => {
    expect(snip('quick brown fox', 'quick fox', [...words(1), { name: 'force_all_words', value: 1 }])).toContain('<b>fox</b>');
  });
});
