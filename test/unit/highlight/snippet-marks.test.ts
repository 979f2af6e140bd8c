// Highlighting marks: the core's plan evaluator (markDocument) and the reference twin mark the same words.
import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../../src/query/parse-query.js';
import { createTextPipeline, type TextPipeline, type Token } from '../../../src/text/text-pipeline.js';
import type { SpzMark } from '../../../src/text/spz-marks.js';
import type { QueryNode } from '../../../src/query/ast.js';
import { FIELD_SHIFT } from '../../../src/highlight/snippet-doc-index.js';
import { markDocument } from '../../../src/highlight/snippet-marks.js';
import { matchDocument } from '../../reference/snippet-match.js';

interface F { name: string; tokens: Token[]; marks?: SpzMark[] }
type Marker = (root: QueryNode, fields: F[], p: TextPipeline, ignoreFields: boolean) => number[];

const IMPLS: [string, Marker][] = [
  ['core', (root, fields, p, ignoreFields) => markDocument(root, fields, { pipeline: p, ignoreFields, expandInfix: false, expandPrefix: false }).hits],
  ['reference', (root, fields, p, ignoreFields) => matchDocument(root, fields, { normalize: (w) => p.normalizeWord(w), ignoreFields, expandInfix: false, expandPrefix: false }).hits],
];

/** The marked words of each field. */
function words(mark: Marker, p: TextPipeline, query: string, fields: F[], ignoreFields: boolean): string[][] {
  const root = parseQuery(query, { fields: fields.map((f) => f.name), notTermsOnlyAllowed: true }).root;
  const hits = mark(root, fields, p, ignoreFields);
  return fields.map((f, fi) => f.tokens.filter((t) => hits.includes(fi * FIELD_SHIFT + t.pos)).map((t) => t.text));
}

describe.each(IMPLS)('highlight marks (%s)', (_name, mark) => {
  const p = createTextPipeline({});
  const marked = (query: string, fields: Record<string, string>, ignoreFields = false): string[][] =>
    words(mark, p, query, Object.entries(fields).map(([name, text]) => ({ name, tokens: p.tokenize(text) })), ignoreFields);
  /** Marked words per field, with the sentence / paragraph / zone marks the pipeline's analyze gives. */
  const markedSpz = (settings: Record<string, string>, query: string, ...texts: string[]): string[][] => {
    const sp = createTextPipeline(settings);
    return words(mark, sp, query, texts.map((t, i) => ({ name: `f${i}`, ...sp.analyze(t) })), true);
  };
  const text = { body: 'sphinx clusters scale to billions of documents and billions of queries per month' };

  describe('operators', () => {
    it('marks phrases only where they occur', () => {
      expect(marked('"billions of queries"', text)).toEqual([['billions', 'of', 'queries']]);
      expect(marked('"billions queries"', text)).toEqual([[]]);
    });

    it('marks ^ and $ only at field edges', () => {
      expect(marked('^sphinx month$', text)).toEqual([['sphinx', 'month']]);
      expect(marked('^clusters month$', text)).toEqual([[]]);
    });

    it('marks << only in order and proximity only within its window', () => {
      expect(marked('documents << queries', text)).toEqual([['documents', 'queries']]);
      expect(marked('queries << documents', text)).toEqual([[]]);
      expect(marked('"sphinx scale"~3', text)).toEqual([['sphinx', 'scale']]);
      expect(marked('"sphinx billions"~3', text)).toEqual([[]]);
    });

    it('counts quorum words and lets NOT suppress the whole document', () => {
      expect(marked('"silly documents month"/2', text)).toEqual([['documents', 'month']]);
      expect(marked('"silly documents month"/3', text)).toEqual([[]]);
      expect(marked('documents -queries', text)).toEqual([[]]);
      expect(marked('documents -silly', text)).toEqual([['documents']]);
    });

    it('honours field operators per field unless told to ignore them; @f[N] always', () => {
      const two = { title: 'sphinx search', body: 'sphinx body text' };
      expect(marked('@title sphinx', two)).toEqual([['sphinx'], []]);
      expect(marked('@title sphinx', two, true)).toEqual([['sphinx'], ['sphinx']]);
      expect(marked('@body[2] text', two)).toEqual([[], []]);
      expect(marked('@body[3] text', two)).toEqual([[], ['text']]);
    });

    it('matches wildcards against the folded words', () => {
      expect(marked('*illion*', text)).toEqual([['billions', 'billions']]);
      expect(marked('SPH*', text)).toEqual([['sphinx']]);
    });
  });

  describe('exact forms', () => {
    it('=word marks only that form, a plain word every form with its stem', () => {
      const sp = createTextPipeline({ morphology: 'stem_en' });
      const doc = [{ name: 'body', tokens: sp.tokenize('running runs ran running') }];
      const w = (q: string) => words(mark, sp, q, doc, false)[0];
      expect(w('=running')).toEqual(['running', 'running']);
      expect(w('running')).toEqual(['running', 'runs', 'running']);
    });
  });
  describe('SENTENCE and PARAGRAPH', () => {
    const sp = { index_sp: '1', html_strip: '1' };

    it('SENTENCE marks operands sharing a sentence, not those across a sentence end', () => {
      expect(markedSpz(sp, 'cat SENTENCE dog', 'A cat sat. The dog ran with a cat.')).toEqual([['dog', 'cat']]);
      expect(markedSpz(sp, 'cat SENTENCE dog', 'A cat sat. The dog ran.')).toEqual([[]]);
    });

    it('a paragraph ends a sentence; PARAGRAPH spans sentences but not paragraphs', () => {
      expect(markedSpz(sp, 'cat SENTENCE dog', '<p>a cat</p><p>a dog</p>')).toEqual([[]]);
      expect(markedSpz(sp, 'cat PARAGRAPH dog', '<p>A cat sat. A dog ran.</p><p>Another dog.</p>')).toEqual([['cat', 'dog']]);
      expect(markedSpz(sp, 'cat PARAGRAPH dog', '<p>a cat</p><p>a dog</p>')).toEqual([[]]);
    });

    it('only a mark separates: operands in different fields share a sentence unless a mark lies between (ExtUnit compares hitpos with field)', () => {
      expect(markedSpz(sp, 'cat SENTENCE dog', 'a cat', 'a dog')).toEqual([['cat'], ['dog']]);
      expect(markedSpz(sp, 'cat SENTENCE dog', 'a cat. The end', 'a dog')).toEqual([[], []]);
    });
  });

  describe('ZONE and ZONESPAN', () => {
    const z = { index_zones: 'h1,h2', html_strip: '1' };

    it('ZONE marks only occurrences inside the zone', () => {
      expect(markedSpz(z, 'ZONE:(h1) cat', 'cat <h1>a cat</h1> cat')).toEqual([['cat']]);
      expect(markedSpz(z, 'ZONE:(h1) cat', 'cat <h2>cat</h2>')).toEqual([[]]);
      expect(markedSpz(z, 'ZONE:(h1,h2) cat', 'cat <h2>cat</h2>')).toEqual([['cat']]);
    });

    it('ZONE lets operands sit in different spans, ZONESPAN wants them in one', () => {
      const text = '<h1>cat</h1> x <h1>dog</h1> <h1>cat and dog</h1>';
      expect(markedSpz(z, 'ZONE:(h1) cat dog', text)).toEqual([['cat', 'dog', 'cat', 'dog']]);
      expect(markedSpz(z, 'ZONESPAN:(h1) cat dog', text)).toEqual([['cat', 'dog']]);
      expect(markedSpz(z, 'ZONESPAN:(h1) cat dog', '<h1>cat</h1> <h1>dog</h1>')).toEqual([[]]);
    });
  });
});
