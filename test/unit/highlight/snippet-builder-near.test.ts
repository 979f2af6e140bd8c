// NEAR and NOTNEAR through the whole builder; which marks a query asks the tokenizer for.
import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../../src/query/parse-query.js';
import { createTextPipeline } from '../../../src/text/text-pipeline.js';
import { querySpz } from '../../../src/highlight/snippet-keywords.js';
import { buildSnippets, packSnippets } from '../../../src/highlight/snippet-builder.js';
import { snippetOptions } from '../../../src/highlight/snippet-options.js';

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
    // a two-operand chain continues from the hit that completed it (FSMmultinear_c keeps the
    // first operand's node): pie..apple is one match, apple..pie after it is not
    expect(snip('apple x x x x x pie then apple y pie', 'apple NEAR/2 pie')).toBe('apple x x x x x <b>pie</b> then <b>apple</b> y pie');
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
