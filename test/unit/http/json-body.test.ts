import fc from 'fast-check';
import { isLosslessNumber } from 'lossless-json';
import { describe, expect, it } from 'vitest';
import { BodyParseError, isNdjsonType, parseJsonText, parseNdjson } from '../../../src/http/json-body.js';

describe('JSON request bodies', () => {
  it('keeps 64-bit integers exact', () => {
    const v = parseJsonText('{"id": 1513686608316989453}') as { id: unknown };
    expect(isLosslessNumber(v.id) && (v.id as { value: string }).value).toBe('1513686608316989453');
  });

  it('reports the text from where parsing failed, as Manticore does', () => {
    const line = '{ "insert" : { "table" : "t", "id" : 45s, "doc": {} } }';
    expect(() => parseJsonText(line)).toThrow(BodyParseError);
    expect(() => parseJsonText(line)).toThrow('unable to parse: s, "doc": {} } }');
  });

  it('points where cJSON does at the end of the text, in an open string, and past its nesting limit', () => {
    const msg = (text: string) => { try { parseJsonText(text); return 'parsed'; } catch (e) { return (e as Error).message; } };
    expect(msg('{"table":"t","limit":1')).toBe('unable to parse: 1');
    // an unterminated string: from just after its quote (parse_string's pointer), not the whole body
    expect(msg(`{"table":"t","query":{"match":{"title":"${'w'.repeat(50)}`)).toBe(`unable to parse: ${'w'.repeat(50)}`);
    // too deep for the parser's stack: from the bracket past CJSON_NESTING_LIMIT (1000), not the whole body
    const deep = `{"a":${'['.repeat(20000)}${']'.repeat(20000)}}`;
    const m = msg(deep);
    expect(m.startsWith('unable to parse: [')).toBe(true);
    expect(m.length).toBe('unable to parse: '.length + deep.length - (5 + 999));
  });
});

describe('NDJSON', () => {
  it('splits lines, blank lines are empty, a final newline adds none', () => {
    const lines = parseNdjson('{"a":1}\n   \n{"b":2}\n');
    expect(lines.map((l) => l.kind)).toEqual(['json', 'empty', 'json']);
  });

  it('drops leading whitespace and one final carriage return of a line, nothing else', () => {
    const lines = parseNdjson(' \t{"a":1}\r\n\r\n\u00a0{"b":2} \r\n{"c":3}\r\r');
    expect(lines.map((l) => l.kind)).toEqual(['json', 'empty', 'json', 'json']);
    expect(parseNdjson('{"a":1}\r\r\n{"b"\r')).toEqual([
      { kind: 'json', value: { a: expect.anything() } },
      { kind: 'bad', error: 'unable to parse: "' }, // cJSON: stopped at the end, its pointer on the last character
    ]);
  });

  it('a bad line becomes a bad entry and the others still parse', () => {
    const lines = parseNdjson('{"a":1}\n{"a":}\r\n{"c":3}');
    expect(lines.map((l) => l.kind)).toEqual(['json', 'bad', 'json']);
    expect(lines[1]).toEqual({ kind: 'bad', error: 'unable to parse: }' });
  });

  it('reads a body as its newline-split pieces, the blank piece after a final newline dropped', () => {
    // the reading by split that the one-pass reading replaced
    const bySplit = (text: string) => {
      const pieces = text.split('\n');
      if (pieces.length > 1 && pieces[pieces.length - 1]!.trim() === '') pieces.pop();
      return pieces.map((p) => parseNdjson(p.replace(/^\s+/, '').replace(/\r$/, '') || ' ')[0]);
    };
    const piece = fc.constantFrom('{"a":1}', '{"b":[1,2]}', '', ' ', '\t', '\r', ' \r', '{"a":}', 'x', '\u00a0{"c":"d"}', '{"e":2}\r\r');
    fc.assert(fc.property(fc.array(piece, { maxLength: 8 }), fc.constantFrom('\n', '\n\r', '\r\n'), (pieces, nl) => {
      const text = pieces.join(nl);
      expect(parseNdjson(text)).toEqual(bySplit(text));
    }), { numRuns: 500 });
  });

  it('Content-Type must be application/x-ndjson, parameters allowed', () => {
    expect(isNdjsonType('application/x-ndjson')).toBe(true);
    expect(isNdjsonType('Application/X-NDJSON; charset=utf-8')).toBe(true);
    expect(isNdjsonType('application/x-ndjson charset=utf-8')).toBe(false);
    expect(isNdjsonType('application/x-ndjsonn')).toBe(false);
    expect(isNdjsonType(undefined)).toBe(false);
  });
});
