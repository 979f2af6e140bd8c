import { describe, expect, it } from 'vitest';
import { decodeEntities, XmlTokenizer, type XmlEvent } from '../../../src/indexer/xml-stream.js';

function tokens(text: string, cut: number): XmlEvent[] {
  const t = new XmlTokenizer();
  const out: XmlEvent[] = [];
  for (let i = 0; i < text.length; i += cut) out.push(...t.feed(text.slice(i, i + cut)));
  out.push(...t.feed('', true));
  // adjacent text pieces join: where the input was cut is not part of the document
  return out.reduce<XmlEvent[]>((acc, e) => {
    const last = acc[acc.length - 1];
    if (e.kind === 'text' && last?.kind === 'text') acc[acc.length - 1] = { kind: 'text', text: last.text + e.text };
    else acc.push(e);
    return acc;
  }, []).filter((e) => e.kind !== 'text' || e.text !== '');
}

const DOC = '<?xml version="1.0"?>\n<!-- c -->\n<sphinx:document id="7" x=\'a&amp;b\'>\n<t>fish &amp; chips &#233;&#x41;</t><e/><c><![CDATA[<b>raw</b> & ]]></c>\n</sphinx:document>';

describe('XmlTokenizer', () => {
  it.each([1, 3, 7, DOC.length])('gives the same events whatever the input pieces (%i chars)', (cut) => {
    expect(tokens(DOC, cut)).toEqual([
      { kind: 'text', text: '\n\n' },
      { kind: 'open', name: 'sphinx:document', attrs: { id: '7', x: 'a&b' }, selfClosing: false, line: 3 },
      { kind: 'text', text: '\n' },
      { kind: 'open', name: 't', attrs: {}, selfClosing: false, line: 4 },
      { kind: 'text', text: 'fish & chips éA' },
      { kind: 'close', name: 't', line: 4 },
      { kind: 'open', name: 'e', attrs: {}, selfClosing: true, line: 4 },
      { kind: 'close', name: 'e', line: 4 },
      { kind: 'open', name: 'c', attrs: {}, selfClosing: false, line: 4 },
      { kind: 'text', text: '<b>raw</b> & ' },
      { kind: 'close', name: 'c', line: 4 },
      { kind: 'text', text: '\n' },
      { kind: 'close', name: 'sphinx:document', line: 5 },
    ]);
  });

  it('fails on an unknown entity and on a stream that ends inside a tag', () => {
    expect(() => decodeEntities('a &nbsp; b', 3)).toThrow("line 3: unknown entity '&nbsp;'");
    expect(() => new XmlTokenizer().feed('<a><b', true)).toThrow('unexpected end of the stream inside a tag');
  });
});
