import { describe, expect, it } from 'vitest';
import { HtmlStripper } from '../../../src/text/html-strip.js';
import { lookupEntity } from '../../../src/text/html-entities.js';
import { SearchError } from '../../../src/util/errors.js';

const strip = (html: string, opts = {}) => new HtmlStripper(opts).strip(html).text;

describe('HtmlStripper', () => {
  it('turns block tags into spaces and drops inline tags', () => {
    expect(strip('<p>one</p><p>two</p>')).toBe(' one two ');
    expect(strip('wo<b>r</b>d <SPAN class="x">x</SPAN>y')).toBe('word xy');
    expect(strip('a<br/>b')).toBe('a b');
  });

  it('decodes named and numeric entities', () => {
    expect(strip('caf&eacute; &amp; &lt;tag&gt; &#65;&#x42;&#X43;')).toBe('café & <tag> ABC');
    expect(strip('a&nbsp;b')).toBe('a b');
    expect(strip('&unknown; &amp &Amp;')).toBe('&unknown; &amp &Amp;');
    expect(strip('x&#65y')).toBe('xy');
    expect(strip('&#128512;')).toBe('😀');
    // a code below U+20 is dropped with its digits, leaving the ';' (as Manticore)
    expect(strip('&#10;z')).toBe(';z');
  });

  it('keeps entities as written when decoding is off', () => {
    expect(strip('a &lt; b', { decodeEntities: false })).toBe('a &lt; b');
  });

  it('drops comments, doctype and processing instructions', () => {
    expect(strip('<!DOCTYPE html><?xml version="1.0"?>a<!-- b -->c')).toBe('ac');
    expect(strip('a<!-- never closed')).toBe('a');
  });

  it('leaves malformed markup as text', () => {
    expect(strip('a < b and c<3 and 1<>2')).toBe('a < b and c<3 and 1<>2');
    expect(strip('x </ y')).toBe('x </ y');
  });

  it('keeps script and style contents unless listed in html_remove_elements', () => {
    expect(strip('a<script>var x</script>b')).toBe('a var x b');
    expect(strip('a<SCRIPT type="t">var x</script>b<style>p{}</style>c', { removeElements: 'script, style' })).toBe('a b c');
    // the closing tag ends at its name: a space before '>' leaves the '>' as text (as Manticore)
    expect(strip('a<script>x</script >b', { removeElements: 'script' })).toBe('a >b');
    // a self-closed removed element leaves nothing, not even a space (as Manticore)
    expect(strip('a<script/>b', { removeElements: 'script' })).toBe('ab');
  });

  it('indexes listed attribute values', () => {
    const opts = { indexAttrs: 'img=alt,title; a=title;' };
    expect(strip('<img src="x.png" alt="A cat" TITLE=pet>', opts)).toBe('A cat pet ');
    expect(strip('<a title="t" href="u">link</a>', opts)).toBe('t link');
  });

  it('does not end a tag at a > inside a quoted value', () => {
    expect(strip('<a title="x > y">z</a>')).toBe('z');
  });

  it('turns control characters into spaces and collapses whitespace', () => {
    expect(strip('a\t\n\r  b\u0001c')).toBe('a b c');
  });

  it('maps every output unit to its source span', () => {
    const src = '<i>x</i>&amp;y';
    const out = new HtmlStripper().strip(src);
    expect(out.text).toBe('x&y');
    expect([...out.starts!]).toEqual([3, 8, 13]);
    expect([...out.ends!]).toEqual([4, 13, 14]);
  });

  it('returns plain text untouched', () => {
    const out = new HtmlStripper().strip('just words');
    expect(out).toEqual({ text: 'just words', starts: null, ends: null });
  });

  it('rejects a bad html_index_attrs value', () => {
    expect(() => new HtmlStripper({ indexAttrs: 'img alt' })).toThrow(SearchError);
    expect(() => new HtmlStripper({ indexAttrs: 'img alt' })).toThrow("SetIndexedAttrs(): '=' expected near 'alt'");
  });
});

describe('lookupEntity', () => {
  it('knows the HTML 4 set, case-sensitively', () => {
    expect(lookupEntity('eacute')).toBe(0xe9);
    expect(lookupEntity('Eacute')).toBe(0xc9);
    expect(lookupEntity('euro')).toBe(0x20ac);
    expect(lookupEntity('apos')).toBe(39);
    expect(lookupEntity('nbsp')).toBe(32);
    expect(lookupEntity('AMP')).toBe(0);
  });
});

describe('zones over tags that already have a rule', () => {
  it('an inline tag listed in index_zones opens and closes a zone', () => {
    const out = new HtmlStripper({ zones: 'b' }).strip('one <b>two</b> three').text;
    expect(out).not.toBe(new HtmlStripper({}).strip('one <b>two</b> three').text);
    expect(out).toContain('b');
    expect(out).toContain('/b');
  });

  it('a paragraph tag listed in index_zones becomes a zone', () => {
    const plain = new HtmlStripper({ paragraphs: true }).strip('<h1>title</h1> body').text;
    const zoned = new HtmlStripper({ paragraphs: true, zones: 'h1' }).strip('<h1>title</h1> body').text;
    expect(zoned).not.toBe(plain);
    expect(zoned).toContain('h1');
  });
});
