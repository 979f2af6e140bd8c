// Highlighting bugs found in QA: `=word` without index_exact_words, and limit_words with adjacent keywords.
import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../../src/query/parse-query.js';
import { createTextPipeline } from '../../../src/text/text-pipeline.js';
import { markDocument } from '../../../src/engine/snippet-marks.js';

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
