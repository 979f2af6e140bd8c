// NEAR, NOTNEAR, SENTENCE, PARAGRAPH, ZONE and ZONESPAN mark only the occurrences that satisfy the operator.
import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../../src/query/parse-query.js';
import { createTextPipeline } from '../../../src/text/text-pipeline.js';
import { FIELD_SHIFT, matchDocument } from '../../../src/engine/snippet-match.js';
import { querySpz } from '../../../src/engine/snippet-match-spz.js';
import { buildSnippets, packSnippets } from '../../../src/engine/snippet-builder.js';
import { snippetOptions } from '../../../src/engine/snippet-options.js';

/** Marked words per field, with the sentence / paragraph / zone marks the pipeline's analyze gives. */
function marked(settings: Record<string, string>, query: string, ...texts: string[]): string[][] {
  const p = createTextPipeline(settings);
  const fields = texts.map((t, i) => ({ name: `f${i}`, ...p.analyze(t) }));
  const root = parseQuery(query, { fields: fields.map((f) => f.name), notTermsOnlyAllowed: true }).root;
  const r = matchDocument(root, fields, { normalize: (w) => p.normalizeWord(w), ignoreFields: true, expandInfix: false, expandPrefix: false });
  return fields.map((f, fi) => f.tokens.filter((t) => r.hits.includes(fi * FIELD_SHIFT + t.pos)).map((t) => t.text));
}

/** The builder's whole-text rendering (the CALL SNIPPETS path) for NEAR / NOTNEAR, which need no marks. */
function snip(text: string, query: string): string {
  const pipeline = createTextPipeline({});
  const o = snippetOptions([]);
  const root = parseQuery(query, { fields: [], notTermsOnlyAllowed: true }).root;
  const flags = { ignoreFields: true, textFromIndex: false, packFields: false };
  return packSnippets(buildSnippets(root, [{ name: '', text }], o, { pipeline, settings: {} }, flags), o);
}

describe('NEAR and NOTNEAR', () => {
  it('NEAR/N marks only occurrences within N words of the other operand', () => {
    expect(snip('apple x x x x x pie then apple y pie', 'apple NEAR/2 pie')).toBe('apple x x x x x <b>pie</b> then <b>apple</b> y <b>pie</b>');
    expect(snip('apple x x x pie', 'apple NEAR/2 pie')).toBe('apple x x x pie');
    expect(snip('apple x x pie', 'apple NEAR/3 pie')).toBe('<b>apple</b> x x <b>pie</b>');
  });

  it('NEAR chains hit to hit: three operands may span more than N words, each step at most N', () => {
    expect(snip('red x green x blue', 'red NEAR/2 green NEAR/2 blue')).toBe('<b>red</b> x <b>green</b> x <b>blue</b>');
    expect(snip('red x green x x blue', 'red NEAR/2 green NEAR/2 blue')).toBe('red x green x x blue');
  });

  it('NEAR marks from the last occurrence of the first operand, not an earlier one', () => {
    expect(snip('apple apple pie', 'apple NEAR/2 pie')).toBe('apple <b>apple pie</b>');
  });

  it('NOTNEAR/N marks left occurrences with no right one within N words, never the right', () => {
    expect(snip('apple pie and x x apple x x x tart pie', 'apple NOTNEAR/2 pie')).toBe('apple pie and x x <b>apple</b> x x x tart pie');
    expect(snip('apple pie and apple x x x tart pie', 'apple NOTNEAR/2 pie')).toBe('apple pie and apple x x x tart pie');
    expect(snip('apple pie', 'apple NOTNEAR/2 pie')).toBe('apple pie');
    expect(snip('apple only', 'apple NOTNEAR/2 pie')).toBe('<b>apple</b> only');
  });
});

describe('SENTENCE and PARAGRAPH', () => {
  const sp = { index_sp: '1', html_strip: '1' };

  it('SENTENCE marks operands sharing a sentence, not those across a sentence end', () => {
    expect(marked(sp, 'cat SENTENCE dog', 'A cat sat. The dog ran with a cat.')).toEqual([['dog', 'cat']]);
    expect(marked(sp, 'cat SENTENCE dog', 'A cat sat. The dog ran.')).toEqual([[]]);
  });

  it('a paragraph ends a sentence; PARAGRAPH spans sentences but not paragraphs', () => {
    expect(marked(sp, 'cat SENTENCE dog', '<p>a cat</p><p>a dog</p>')).toEqual([[]]);
    expect(marked(sp, 'cat PARAGRAPH dog', '<p>A cat sat. A dog ran.</p><p>Another dog.</p>')).toEqual([['cat', 'dog']]);
    expect(marked(sp, 'cat PARAGRAPH dog', '<p>a cat</p><p>a dog</p>')).toEqual([[]]);
  });

  it('operands in different fields share no sentence', () => {
    expect(marked(sp, 'cat SENTENCE dog', 'a cat', 'a dog')).toEqual([[], []]);
  });
});

describe('ZONE and ZONESPAN', () => {
  const z = { index_zones: 'h1,h2', html_strip: '1' };

  it('ZONE marks only occurrences inside the zone', () => {
    expect(marked(z, 'ZONE:(h1) cat', 'cat <h1>a cat</h1> cat')).toEqual([['cat']]);
    expect(marked(z, 'ZONE:(h1) cat', 'cat <h2>cat</h2>')).toEqual([[]]);
    expect(marked(z, 'ZONE:(h1,h2) cat', 'cat <h2>cat</h2>')).toEqual([['cat']]);
  });

  it('ZONE lets operands sit in different spans, ZONESPAN wants them in one', () => {
    const text = '<h1>cat</h1> x <h1>dog</h1> <h1>cat and dog</h1>';
    expect(marked(z, 'ZONE:(h1) cat dog', text)).toEqual([['cat', 'dog', 'cat', 'dog']]);
    expect(marked(z, 'ZONESPAN:(h1) cat dog', text)).toEqual([['cat', 'dog']]);
    expect(marked(z, 'ZONESPAN:(h1) cat dog', '<h1>cat</h1> <h1>dog</h1>')).toEqual([[]]);
  });
});

describe('querySpz', () => {
  const spz = (q: string) => querySpz(parseQuery(q, { fields: [], notTermsOnlyAllowed: true }).root);

  it('asks for sentence marks under SENTENCE / PARAGRAPH and zone marks under ZONE, nested too', () => {
    expect(spz('a b')).toEqual({ sp: false, zones: false });
    expect(spz('x | (a SENTENCE b)')).toEqual({ sp: true, zones: false });
    expect(spz('x -(a PARAGRAPH b)')).toEqual({ sp: true, zones: false });
    expect(spz('x MAYBE (ZONE:(h1) a)')).toEqual({ sp: false, zones: true });
    expect(spz('ZONESPAN:(h1) (a SENTENCE b)')).toEqual({ sp: true, zones: true });
  });
});
