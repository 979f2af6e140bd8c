// searchd's lenient JSON attribute input (src/sphinxjson.l, sphinxjson.y) read into strict JSON, and
// what it still refuses; through compactJson, the INSERT path's reader.
import { describe, expect, it } from 'vitest';
import { lenientToStrict } from '../../../../src/engine/json/lenient-json.js';
import { compactJson } from '../../../../src/engine/values/coerce.js';

describe('lenient JSON attribute input', () => {
  it('reads single quotes, bare keys, keyword case, lenient numbers and comments', () => {
    expect(compactJson("{k:1, _x2 : ['a', \"b\"]}")).toBe('{"k":1,"_x2":["a","b"]}');
    expect(compactJson("{'s':'it\\'s \"q\"'}")).toBe('{"s":"it\'s \\"q\\""}');
    expect(compactJson('{"t":TRUE,"f":False,"n":NULL}')).toBe('{"t":true,"f":false,"n":null}');
    expect(compactJson('{"a":.5,"b":+3,"c":5.,"d":007,"e":-.5e2}')).toBe('{"a":0.5,"b":3,"c":5.0,"d":7,"e":-0.5e2}');
    expect(compactJson('# head\n{"a":1} // tail')).toBe('{"a":1}');
    // the lexer skips blanks and comments between a bare key and its ':', however long
    expect(compactJson(`{k // why\n :1, m${' '.repeat(80)}:2}`)).toBe('{"k":1,"m":2}');
    // unknown escapes are the character itself, as JsonUnescape; \\u stays a code unit
    expect(compactJson('{"a":"q\\qz\\u0041"}')).toBe('{"a":"qqzA"}');
    // an int64 past 2^53 stays exact through the rewrite
    expect(compactJson("{'big':+9007199254740993}")).toBe('{"big":9007199254740993}');
  });

  it('refuses what searchd\'s grammar refuses', () => {
    expect(() => compactJson('{"a":1,}')).toThrow('JSON error: {"a":1,}');
    expect(() => compactJson('{"a":abc}')).toThrow('JSON error');
    expect(() => compactJson('{true:1}')).toThrow('JSON error');
    expect(() => compactJson('{k # no colon\n 1}')).toThrow('JSON error');
    expect(lenientToStrict('{"a":[k')).toBeUndefined(); // a bare word at the end is no key
    expect(() => compactJson("{'a':'open}")).toThrow('JSON error');
    expect(lenientToStrict("'x'")).toBeUndefined(); // the root is an object or an array
    expect(lenientToStrict('{"a":1;}')).toBeUndefined();
  });

  it('leaves strict JSON to the strict reader (the rewrite only runs after it fails)', () => {
    expect(compactJson('{"a": [1, 2.5, "x"]}')).toBe('{"a":[1,2.5,"x"]}');
  });
});
