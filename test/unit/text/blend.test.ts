// blend_mode parsing, blended variants in Manticore's order, and blended tokens through the text pipeline.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  Blender, DEFAULT_BLEND_MODE, parseBlendMode, TRIM_ALL, TRIM_BOTH, TRIM_HEAD, TRIM_NONE, TRIM_TAIL,
} from '../../../src/text/blend.js';
import { addFlaggedChars, buildCaseFolding, FLAG_BLEND } from '../../../src/text/charset-table.js';
import { createTextPipeline } from '../../../src/text/text-pipeline.js';
import { SearchError } from '../../../src/util/errors.js';

function blender(chars: string, mode: string): Blender {
  const table = buildCaseFolding('');
  addFlaggedChars(table, 'blend_chars', chars, FLAG_BLEND, 'blend', true);
  return new Blender(table, parseBlendMode(mode));
}

const messageOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(SearchError);
    return (e as Error).message;
  }
  throw new Error('expected an error');
};

describe('parseBlendMode', () => {
  it('defaults to trim_none and reads comma or space separated words', () => {
    expect(parseBlendMode('')).toEqual(DEFAULT_BLEND_MODE);
    expect(parseBlendMode('trim_head, trim_tail skip_pure')).toEqual({ variants: TRIM_HEAD | TRIM_TAIL, skipPure: true });
    expect(parseBlendMode('trim_none,trim_both,trim_all')).toEqual({ variants: TRIM_NONE | TRIM_BOTH | TRIM_ALL, skipPure: false });
  });

  it("rejects unknown words (case-sensitive) and a mode without variants with Manticore's texts", () => {
    expect(messageOf(() => parseBlendMode('trim_none, Trim_All'))).toBe("'blend_mode': unknown blend_mode option near 'Trim_All'");
    expect(messageOf(() => parseBlendMode('skip_pure'))).toBe("'blend_mode': blend_mode must define at least one variant to index");
  });
});

describe('Blender', () => {
  it('tells plain, pure-blend and blended tokens apart', () => {
    const b = blender('&, @', '');
    expect([b.kind('att'), b.kind('&@'), b.kind('at&t')]).toEqual(['plain', 'pure', 'blended']);
  });

  it('gives the variants in the order none, all, both, head, tail', () => {
    const b = blender('@, U+2E', 'trim_tail, trim_head, trim_both, trim_all, trim_none');
    expect(b.variants('@a.b@')).toEqual(['@a.b@', 'ab', 'a.b', 'a.b@', '@a.b']);
  });

  it('turns a head or tail trim with nothing to trim into the whole token', () => {
    const b = blender('@, U+2E', 'trim_head');
    expect(b.variants('a.b')).toEqual(['a.b']);
    expect(blender('@, U+2E', 'trim_tail').variants('@ab')).toEqual(['@ab']);
    expect(blender('@, U+2E', 'trim_head, trim_tail').variants('@ab')).toEqual(['@ab', 'ab']);
  });
});

describe('blended tokens in the pipeline', () => {
  it('indexes variants at the first part position and parts one apart', () => {
    const p = createTextPipeline({ blend_chars: '&', blend_mode: 'trim_none, trim_all' });
    expect(p.indexField('AT&T phones')).toEqual({ terms: ['at&t', 'att', 'at', 't', 'phones'], positions: [1, 1, 1, 2, 3], length: 3 });
  });

  it('works beside multi-word wordforms, and carries a skipped token\'s overshort count on', () => {
    const wf = join(mkdtempSync(join(tmpdir(), 'quarry-blend-')), 'wf.txt');
    writeFileSync(wf, 'core 2 duo > c2d\n');
    const p = createTextPipeline({ blend_chars: '&', wordforms: wf });
    expect(p.indexField('AT&T core 2 duo x')).toEqual({ terms: ['at&t', 'at', 't', 'c2d', 'x'], positions: [1, 1, 2, 3, 4], length: 4 });
    const skip = createTextPipeline({ blend_chars: '&', blend_mode: 'trim_none, skip_pure', min_word_len: '2' });
    expect(skip.indexField('ab c && de').positions).toEqual([1, 3]);
  });

  it('counts overshort parts and skips a pure-blend token with skip_pure', () => {
    const p = createTextPipeline({ blend_chars: '-', min_word_len: '2' });
    expect(p.indexField('x-ray vision')).toEqual({ terms: ['x-ray', 'ray', 'vision'], positions: [1, 2, 3], length: 3 });
    const skip = createTextPipeline({ blend_chars: '&', blend_mode: 'trim_none skip_pure' });
    expect(skip.indexField('a && b').positions).toEqual([1, 2]);
    expect(createTextPipeline({ blend_chars: '&' }).indexField('a && b').terms).toEqual(['a', '&&', 'b']);
  });

  it('a query word is the whole blended token whatever the mode, and takes its parts\' positions', () => {
    const p = createTextPipeline({ blend_chars: '&', blend_mode: 'trim_all, trim_none' });
    expect(p.normalizeWord('AT&T')).toEqual(['at&t']);
    expect(createTextPipeline({ blend_chars: '@, !', blend_mode: 'trim_tail' }).normalizeWord('@simple!')).toEqual(['@simple!']);
    expect(p.extraPositions('AT&T')).toBe(1);
    expect(p.extraPositions('a&b&c')).toBe(2);
    expect(p.extraPositions('plain')).toBe(0);
    expect(createTextPipeline({ blend_chars: '&', blend_mode: 'trim_none skip_pure' }).extraPositions('&&')).toBe(-1);
    expect(createTextPipeline({ blend_chars: '&' }).extraPositions('&&')).toBe(0);
  });

  it('lets a blend character that is an operator stay inside a word', () => {
    const p = createTextPipeline({ blend_chars: '@' });
    expect(p.normalizeWord('user@host')).toEqual(['user@host']);
    expect(p.isBlendChar(0x40)).toBe(true);
    expect(p.isBlendChar(0x41)).toBe(false);
    const parens = createTextPipeline({ blend_chars: 'U+28, U+29' });
    expect(parens.normalizeWord('(exactly)')).toEqual(['(exactly)']);
    expect(parens.extraPositions('(a)(b)')).toBe(1);
    expect(parens.keywords('(exactly)').map((k) => k.normalized)).toEqual(['exactly']);
  });

  it('gives the highlighter one token per blended token, over its whole text', () => {
    const p = createTextPipeline({ blend_chars: '&' });
    expect(p.analyze('call AT&T now').tokens.map((t) => [t.term, t.pos, t.start, t.end])).toEqual([
      ['call', 1, 0, 4], ['at&t', 2, 5, 9], ['now', 4, 10, 13],
    ]);
  });
});
