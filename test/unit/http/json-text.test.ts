import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JsonFields, RawJson } from '../../../src/engine/values/cell-format.js';
import { jsonString, toJsonText } from '../../../src/http/json-text.js';

// Code units where escaping decisions change: controls, quote, backslash, DEL, Latin-1, line
// separators, both surrogate halves (paired and lone), the last BMP unit.
const UNITS = [0, 8, 9, 10, 12, 13, 0x1f, 0x20, 0x22, 0x24, 0x26, 0x2f, 0x5c, 0x7f, 0xe9, 0x2028, 0x2029, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xfffd, 0xffff];
const unit = fc.oneof(fc.constantFrom(...UNITS), fc.integer({ min: 0, max: 0xffff }), fc.integer({ min: 0x61, max: 0x7a }));
const anyString = fc.array(unit, { maxLength: 40 }).map((us) => String.fromCharCode(...us));

describe('jsonString', () => {
  it('is JSON.stringify for any string of UTF-16 code units, lone surrogates included', () => {
    fc.assert(fc.property(anyString, (s) => { expect(jsonString(s)).toBe(JSON.stringify(s)); }), { numRuns: 5000 });
    fc.assert(fc.property(fc.string({ unit: 'binary' }), (s) => { expect(jsonString(s)).toBe(JSON.stringify(s)); }));
  });

  it('escapes as Manticore writes JSON strings', () => {
    expect(jsonString('say "hi"\\\n\t\u0001é😀\ud800')).toBe('"say \\"hi\\"\\\\\\n\\t\\u0001é😀\\ud800"');
    expect(jsonString('plain text')).toBe('"plain text"');
    expect(jsonString('a\\"b"\\\\')).toBe('"a\\\\\\"b\\"\\\\\\\\"');
    expect(jsonString('$& $1 $$')).toBe('"$& $1 $$"');
  });
});

describe('toJsonText', () => {
  it('writes keys and values escaped, RawJson verbatim, bigints exact, entries in order', () => {
    const v = new JsonFields([['2', 1], ['1', 'a"b'], ['k\n', [18446744073709551615n, new RawJson('1.500000'), null, true]]]);
    expect(toJsonText(v)).toBe('{"2":1,"1":"a\\"b","k\\n":[18446744073709551615,1.500000,null,true]}');
  });
});
