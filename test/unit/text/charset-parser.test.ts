import { describe, expect, it } from 'vitest';
import { CharsetSyntaxError, parseCharsetDefinition, type CharRange } from '../../../src/text/charset-parser.js';

const NO_ALIASES = new Map<string, CharRange[]>();
const parse = (spec: string) => parseCharsetDefinition(spec, NO_ALIASES);
const errorOf = (spec: string): string => {
  try {
    parse(spec);
  } catch (e) {
    expect(e).toBeInstanceOf(CharsetSyntaxError);
    return (e as Error).message;
  }
  throw new Error(`no error for ${spec}`);
};

describe('parseCharsetDefinition', () => {
  it('reads characters, codes, ranges and remaps in order', () => {
    expect(parse('0..9, A..Z->a..z, _, a..z, U+2E')).toEqual([
      { start: 0x30, end: 0x39, remapStart: 0x30 },
      { start: 0x41, end: 0x5a, remapStart: 0x61 },
      { start: 0x5f, end: 0x5f, remapStart: 0x5f },
      { start: 0x61, end: 0x7a, remapStart: 0x61 },
      { start: 0x2e, end: 0x2e, remapStart: 0x2e },
    ]);
    expect(parse('U+410..U+42F->U+430..U+44F, U+401->U+451')).toEqual([
      { start: 0x410, end: 0x42f, remapStart: 0x430 },
      { start: 0x401, end: 0x401, remapStart: 0x451 },
    ]);
  });

  it('expands checkerboard ranges into pairs folding onto their second', () => {
    expect(parse('U+14A..U+14D/2')).toEqual([
      { start: 0x14a, end: 0x14a, remapStart: 0x14b },
      { start: 0x14b, end: 0x14b, remapStart: 0x14b },
      { start: 0x14c, end: 0x14c, remapStart: 0x14d },
      { start: 0x14d, end: 0x14d, remapStart: 0x14d },
    ]);
  });

  it('accepts aliases only when followed by a comma or the end', () => {
    const aliases = new Map([['abc', [{ start: 0x61, end: 0x63, remapStart: 0x61 }]]]);
    expect(parseCharsetDefinition('abc, U+2E', aliases)).toHaveLength(2);
    expect(parseCharsetDefinition('abc', aliases)).toHaveLength(1);
    expect(() => parseCharsetDefinition('abc , U+2E', aliases)).toThrow(/syntax error near 'bc , U\+2E'/);
  });

  it("reports Manticore's error texts", () => {
    expect(errorOf(', a')).toBe("stray ',' not allowed, use 'U+002C' instead near ', a'");
    expect(errorOf('a..z, ab')).toBe("syntax error near 'b'");
    expect(errorOf('z..a')).toBe("range end less than range start near 'z..a'");
    expect(errorOf('é')).toBe("non-ASCII characters not allowed, use 'U+00AB' syntax near 'é'");
    expect(errorOf('a..')).toBe("unexpected end of line near ''");
    expect(errorOf('a..c->x..y')).toBe("dest range length must match src range length near 'a..c->x..y'");
    expect(errorOf('a..c->x')).toBe("unexpected end of line near ''");
    expect(errorOf('a..c->x-y')).toBe("expected '..' near '-y'");
    expect(errorOf('a..c x')).toBe("expected end of line, ',' or '-><char>' near 'x'");
    expect(errorOf('U+10')).toBe("dest range (U+10) below U+20, not allowed near ''");
    expect(errorOf('a->bc')).toBe("syntax error near ''");
  });
});
