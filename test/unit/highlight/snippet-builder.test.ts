import { describe, expect, it } from 'vitest';
import { parseQuery } from '../../../src/query/parse-query.js';
import { createTextPipeline } from '../../../src/text/text-pipeline.js';
import { buildSnippets, packSnippets } from '../../../src/highlight/snippet-builder.js';
import { snippetOptions, type RawOption } from '../../../src/highlight/snippet-options.js';

const settings = {};
const pipeline = createTextPipeline(settings);
const env = { pipeline, settings };
const flags = { ignoreFields: true, textFromIndex: false, packFields: false };

function snip(text: string, query: string, opts: RawOption[] = []): string {
  const o = snippetOptions(opts);
  const root = parseQuery(query, { fields: ['title', 'body'], notTermsOnlyAllowed: true }).root;
  return packSnippets(buildSnippets(root, [{ name: '', text }], o, env, flags), o);
}

describe('snippet builder', () => {
  it('marks every satisfying occurrence in whole-text mode, adjacent ones under one pair', () => {
    expect(snip('door opened last time', '"door opened"')).toBe('<b>door opened</b> last time');
    expect(snip('this is my text', 'is text')).toBe('this <b>is</b> my <b>text</b>');
  });

  it('marks nothing when the whole query is not satisfied', () => {
    expect(snip('only test here', 'test text')).toBe('only test here');
    expect(snip('a test text', 'test -text')).toBe('a test text');
  });

  it('cuts a text without a match to whole words within the limit, with a separator', () => {
    expect(snip('тест на подсветку', 'din', [{ name: 'limit', value: 7 }])).toBe('тест на ... ');
    expect(snip('тест на подсветку', 'din', [{ name: 'limit', value: 7 }, { name: 'allow_empty', value: 1 }])).toBe('');
  });

  it('picks passages around keywords under the limit, separators at cut ends', () => {
    const text = 'one two three four five six seven eight nine ten alpha eleven twelve thirteen fourteen fifteen sixteen';
    const out = snip(text, 'alpha', [{ name: 'limit', value: 30 }, { name: 'around', value: 2 }]);
    expect(out).toBe(' ...  nine ten <b>alpha</b> eleven twelve ... ');
  });

  it('keeps a keyword whole even when the limit is shorter than it', () => {
    expect(snip('one two three four five', 'three', [{ name: 'limit', value: 3 }])).toBe(' ... <b>three</b> ... ');
  });

  it('numbers %SNIPPET_ID% from start_snippet_id, one per marker pair', () => {
    const out = snip('x y x', 'x', [{ name: 'before_match', value: '[%SNIPPET_ID%]' }, { name: 'after_match', value: '[/%PASSAGE_ID%]' },
      { name: 'start_snippet_id', value: 7 }]);
    expect(out).toBe('[7]x[/7] y [8]x[/8]');
  });

  it('respects limit_snippets: the passage with more keywords wins (the passage keeps its leading space)', () => {
    const text = 'alpha one two three four five six seven eight nine ten eleven beta gamma twelve thirteen fourteen fifteen sixteen';
    const one = snip(text, 'alpha | beta | gamma', [{ name: 'limit', value: 40 }, { name: 'around', value: 1 }, { name: 'limit_snippets', value: 1 }]);
    expect(one).toBe(' ...  eleven <b>beta gamma</b> twelve ... ');
  });

  it('rejects unknown options and wrong types with searchd texts', () => {
    expect(() => snippetOptions([{ name: 'nope', value: 1 }])).toThrow('unknown option nope');
    expect(() => snippetOptions([{ name: 'around', value: '5' }])).toThrow('unexpected option around type');
    expect(() => snippetOptions([{ name: 'html_strip_mode', value: 'retain' }])).toThrow('html_strip_mode=retain requires that all limits are zero');
  });

  it('retain mode never highlights inside tags and closes markers before a tag', () => {
    const out = snip('<a href="x">x.<i>x</i></a>', 'x', [{ name: 'limit', value: 0 }, { name: 'html_strip_mode', value: 'retain' }]);
    expect(out).toBe('<a href="x"><b>x</b>.<i><b>x</b></i></a>');
  });
});

describe('snippet boundaries', () => {
  const sp = createTextPipeline({ index_sp: '1' });
  const spEnv = { pipeline: sp, settings: { index_sp: '1' } };
  it('splits passages at sentence ends, the terminator staying with its sentence', () => {
    const o = snippetOptions([{ name: 'snippet_boundary', value: 'sentence' }, { name: 'limit', value: 0 }, { name: 'snippet_separator', value: '|' }]);
    const root = parseQuery('it', {}).root;
    const out = packSnippets(buildSnippets(root, [{ name: '', text: 'Take it. Leave this. Have it now.' }], o, spEnv, flags), o);
    expect(out).toBe('Take <b>it</b>.| Have <b>it</b> now.');
  });
});

describe('option combinations', () => {
  it('rejects what Manticore rejects with its texts', () => {
    expect(() => snippetOptions([{ name: 'snippet_boundary', value: 'sentence' }, { name: 'around', value: 0 }]))
      .toThrow('invalid combination of snippet_boundary=sentence and around=0');
    expect(() => snippetOptions([{ name: 'snippet_boundary', value: 'zone' }, { name: 'use_boundaries', value: 1 }]))
      .toThrow('invalid combination of snippet_boundary=zone and use_boundaries');
    expect(() => snippetOptions([{ name: 'emit_zones', value: 1 }])).toThrow('invalid combination of snippet_boundary= and emit_zones');
    expect(() => snippetOptions([{ name: 'snippet_boundary', value: 'zone' }, { name: 'emit_zones', value: 1 }, { name: 'html_strip_mode', value: 'none' }]))
      .toThrow('invalid combination of strip=none and emit_zones');
    expect(() => snippetOptions([{ name: 'snippet_boundary', value: 'line' }])).toThrow('unknown passage_boundary=line');
  });
});

describe('phrase boundaries', () => {
  const settings = { phrase_boundary: 'U+002C', phrase_boundary_step: '100' };
  const pb = { pipeline: createTextPipeline(settings), settings };
  it('passages do not cross a phrase_boundary character', () => {
    const o = snippetOptions([{ name: 'limit', value: 40 }, { name: 'around', value: 3 }, { name: 'snippet_separator', value: '|' }]);
    const root = parseQuery('alpha', {}).root;
    const text = 'one two three four five alpha, six seven eight nine ten eleven twelve';
    const out = packSnippets(buildSnippets(root, [{ name: '', text }], o, pb, flags), o);
    expect(out).toBe('| three four five <b>alpha</b>,|');
  });
});

describe('limits per field or per document, weight order', () => {
  const root = parseQuery('red', {}).root;
  const fields = [{ name: 'a', text: 'one two three red four five six seven eight nine ten' }, { name: 'b', text: 'alpha beta gamma red delta epsilon zeta eta theta iota' }];
  const fromIndex = { ignoreFields: false, textFromIndex: true, packFields: false };
  it('limits_per_field=0 applies the limit to the whole document, so a field may get nothing', () => {
    const per = snippetOptions([{ name: 'limit', value: 20 }, { name: 'around', value: 2 }]);
    const doc = snippetOptions([{ name: 'limit', value: 20 }, { name: 'around', value: 2 }, { name: 'limits_per_field', value: 0 }]);
    const perOut = buildSnippets(root, fields, per, env, fromIndex);
    const docOut = buildSnippets(root, fields, doc, env, fromIndex);
    expect(perOut.map((f) => f.length)).toEqual([1, 1]);
    expect(docOut.flat()).toHaveLength(1);
    expect(packSnippets(docOut, doc)).toBe(' ... beta gamma <b>red</b> delta ... ');
  });

  it('weight_order emits the best passage first', () => {
    const text = 'a red one and more words here then some more words and a big cat sat there';
    const q = parseQuery('red | "big cat"', {}).root;
    const pos = snippetOptions([{ name: 'limit', value: 60 }, { name: 'around', value: 1 }]);
    const best = snippetOptions([{ name: 'limit', value: 60 }, { name: 'around', value: 1 }, { name: 'weight_order', value: 1 }]);
    expect(packSnippets(buildSnippets(q, [{ name: '', text }], pos, env, flags), pos)).toBe('a <b>red</b> one  ...  a <b>big cat</b> sat ... ');
    expect(packSnippets(buildSnippets(q, [{ name: '', text }], best, env, flags), best)).toBe(' ...  a <b>big cat</b> sat ... a <b>red</b> one  ... ');
  });
});

describe('snippet builder: table settings read once per settings object', () => {
  // ALTER replaces a table's settings object: a builder over the new one reads the new values, even
  // with the same pipeline (the builder memoizes what it reads per settings object and pipeline)
  it('follows expand_keywords from one settings object to another over the same pipeline', () => {
    const shared = createTextPipeline({ min_prefix_len: '2' });
    const off = { pipeline: shared, settings: { min_prefix_len: '2' } };
    const on = { pipeline: shared, settings: { min_prefix_len: '2', expand_keywords: '1' } };
    const o = snippetOptions([]);
    const root = parseQuery('hel', { notTermsOnlyAllowed: true }).root;
    const run = (e: typeof off): string => packSnippets(buildSnippets(root, [{ name: '', text: 'hello world' }], o, e, flags), o);
    expect(run(off)).toBe('hello world');
    expect(run(on)).toBe('<b>hello</b> world');
    expect(run(off)).toBe('hello world');
  });
});
