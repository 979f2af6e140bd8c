// index_sp / index_zones: sentence, paragraph and zone marks, and the positions they take.
import { describe, expect, it } from 'vitest';
import { HtmlStripper } from '../../../src/text/html-strip.js';
import { createTextPipeline } from '../../../src/text/text-pipeline.js';
import { SearchError } from '../../../src/util/errors.js';

describe('sentences (index_sp=1)', () => {
  const p = createTextPipeline({ index_sp: '1' });
  const sentenceEnds = (text: string) => p.analyze(text).marks.map((m) => text.slice(0, m.end));

  it('ends sentences at ?, ! and a final dot', () => {
    expect(sentenceEnds('Is it? Yes! Done.')).toEqual(['Is it?', 'Is it? Yes!', 'Is it? Yes! Done.']);
  });

  it('does not end a sentence inside a word, before a lowercase word, or after initials and titles', () => {
    expect(p.analyze('The U.K is 3.5 big, a.,b').marks).toEqual([]);
    expect(p.analyze('Acme Inc. and others').marks).toEqual([]);
    expect(p.analyze('J. Tolkien met Mr. Smith, MR. X, Dr. Y and Mrs. Z').marks).toEqual([]);
    expect(sentenceEnds('It is it. Is')).toEqual(['It is it.']);
  });

  it('gives each mark a position of its own', () => {
    const field = p.indexField('One two. Three? four');
    expect(field.positions).toEqual([1, 2, 4, 6]);
    expect(field.marks?.map((m) => [m.kind, m.pos])).toEqual([['sentence', 3], ['sentence', 5]]);
    expect(createTextPipeline({}).indexField('One two. Three').positions).toEqual([1, 2, 3]);
    // a trailing mark is the field's last hit
    expect(p.indexField('One two.').length).toBe(3);
  });

  it('keeps a dot in the charset as a word character where it ends no sentence', () => {
    const dotted = createTextPipeline({ index_sp: '1', charset_table: 'non_cont, U+2E' });
    const field = dotted.indexField('see U.K. now. Next');
    expect(field.terms).toEqual(['see', 'u.k.', 'now', 'next']);
    expect(field.marks?.map((m) => m.pos)).toEqual([4]);
  });
});

describe('paragraphs and zones (html_strip=1)', () => {
  it('marks block elements as paragraphs, once per run', () => {
    const p = createTextPipeline({ html_strip: '1', index_sp: '1' });
    const { tokens, marks } = p.analyze('<div><p>one</p></div><p>two</p>');
    expect(tokens.map((t) => [t.text, t.pos])).toEqual([['one', 2], ['two', 4]]);
    expect(marks.map((m) => [m.kind, m.pos])).toEqual([['paragraph', 1], ['paragraph', 3], ['paragraph', 5]]);
  });

  it('marks zones with their names, closing ones with a slash', () => {
    const p = createTextPipeline({ html_strip: '1', index_zones: 'zone_*, h1' });
    const text = '<zone_a>x</zone_a> <H1 class="t">Title</H1> <h2>y</h2>';
    const { tokens, marks } = p.analyze(text);
    expect(marks.map((m) => [m.zone, m.pos, text.slice(m.start, m.end)])).toEqual([
      ['zone_a', 1, '<zone_a>'], ['/zone_a', 3, '</zone_a>'], ['h1', 4, '<H1 class="t">'], ['/h1', 6, '</H1>'],
    ]);
    expect(tokens.map((t) => [t.text, t.pos])).toEqual([['x', 2], ['title', 5], ['y', 7]]);
  });

  it('lets a zone mark replace a paragraph mark right before it', () => {
    const out = new HtmlStripper({ paragraphs: true, zones: 'zone_x' }).strip('<p><zone_x>T</zone_x>');
    expect(out.text).toBe('\x04zone_x\x04T\x04/zone_x\x04');
  });

  it('rejects a malformed index_zones', () => {
    expect(() => createTextPipeline({ html_strip: '1', index_zones: 'h1 h2' })).toThrow(SearchError);
    expect(() => createTextPipeline({ html_strip: '1', index_zones: '1h' })).toThrow("unexpected char near '1h' in index_zones");
  });
});
