// The query lexer with a table's exceptions and multi-word wordforms (QueryTextHooks), here a small fake table.
import { describe, expect, it } from 'vitest';
import type { QueryTextHooks } from '../../../src/query/text-hooks.js';
import { parseQuery } from '../../../src/query/parse-query.js';
import { and, not, or, phrase, t, tree } from './helpers.js';

/** Exceptions matched literally (backslashes skipped) before a non-letter; multi-word forms over lowercased words. */
function fakeHooks(exceptions: string[], multi: string[][]): QueryTextHooks {
  return {
    exceptionAt(text, pos) {
      for (const e of exceptions) {
        let p = pos;
        let k = 0;
        while (k < e.length && p < text.length) {
          if (text[p] === '\\') p++;
          if (text[p] !== e[k]) break;
          p++;
          k++;
        }
        if (k === e.length && !/[a-z0-9]/i.test(text[p] ?? '')) return p;
      }
      return -1;
    },
    multiWordSpan(words) {
      const lower = words.map((w) => w.toLowerCase());
      const m = multi.find((m) => m.every((w, i) => lower[i] === w));
      return m ? m.length : 0;
    },
    maxMultiWords: Math.max(0, ...multi.map((m) => m.length)),
  };
}

const hooks = fakeHooks(['AT&T', 'C++', 'MS Windows'], [['core', '2', 'duo'], ['new', 'york']]);
const q = (text: string) => tree(text, { textHooks: hooks });

describe('exceptions typed in a query', () => {
  it('keeps an exception whole, as typed, where the charset would split it', () => {
    expect(q('AT&T phones')).toEqual(and(t('AT&T'), t('phones')));
    expect(q('C++ | java')).toEqual(or(t('C++'), t('java')));
    expect(tree('AT&T phones')).toEqual(and(t('AT'), t('T'), t('phones')));
  });

  it('resolves backslash escapes inside an exception', () => {
    expect(q('C\\+\\+ code')).toEqual(and(t('C++'), t('code')));
  });

  it('needs a separator after the exception, and matches inside phrases and after operators', () => {
    expect(q('AT&Tx')).toEqual(and(t('AT'), t('Tx')));
    expect(q('"C++ code"')).toEqual(phrase(['C++', 'code']));
    expect(q('java -C++')).toEqual(and(t('java'), not(t('C++'))));
    expect(q('MS Windows 95')).toEqual(and(t('MS Windows'), t('95')));
  });
});

describe('multi-word wordforms typed in a query', () => {
  it('joins the words of a source into one keyword with its raw text', () => {
    expect(q('Core 2 Duo laptop')).toEqual(and(t('Core 2 Duo'), t('laptop')));
    expect(q('"core 2 duo laptop"')).toEqual(phrase(['core 2 duo', 'laptop']));
  });

  it('does not join across operators, nor a partial source', () => {
    expect(q('core 2 | duo')).toEqual(and(t('core'), or(t('2'), t('duo'))));
    expect(q('core 2')).toEqual(and(t('core'), t('2')));
    expect(q('new york core')).toEqual(and(t('new york'), t('core')));
  });

  it('gives the joined words one query position', () => {
    const root = parseQuery('core 2 duo laptop', { textHooks: hooks }).root;
    expect(root).toEqual(and(t('core 2 duo', { pos: 1 }), t('laptop', { pos: 2 })));
  });
});

describe('blended words typed in a query', () => {
  const blendHooks: QueryTextHooks = {
    exceptionAt: () => -1,
    multiWordSpan: () => 0,
    maxMultiWords: 0,
    extraPositions: (word) => Math.max(word.split(/[&@]/).filter(Boolean).length - 1, 0),
    isBlendChar: (cp) => cp === 0x40 || cp === 0x26,
  };
  const isWordChar = (cp: number) => /[a-z0-9&@]/i.test(String.fromCodePoint(cp));

  it('moves the next word past a blended word\'s parts', () => {
    const root = parseQuery('"at&t phones"', { textHooks: blendHooks, isWordChar }).root;
    expect(root).toEqual({ kind: 'phrase', terms: [t('at&t', { pos: 1 }), t('phones', { pos: 3 })], offsets: [0, 2] });
  });

  it('keeps an @ blend character inside a word instead of reading a field limit', () => {
    expect(tree('user@host x', { textHooks: blendHooks, isWordChar })).toEqual(and(t('user@host'), t('x')));
    expect(tree('user@host x', { isWordChar })).not.toEqual(and(t('user@host'), t('x')));
  });
});
