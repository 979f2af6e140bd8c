// renderPassages without zones (passage by passage when the passages are disjoint) against renderWalk
// (every piece from the first passage on): random fields of words and gaps, runs of hits, passages in
// document order, disjoint or touching (the pick's) or overlapping and empty, markers that number themselves.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderPassages, renderWalk, type Markers } from '../../../src/highlight/snippet-render.js';
import type { FieldStream } from '../../../src/highlight/snippet-stream.js';
import type { PickedPassage } from '../../../src/wasm/snippet.js';
import { fieldStream, type FieldItem } from './helpers.js';

interface Field { stream: FieldStream; n: number }

/** A field from (word, hit, gap) triples, and its piece count. */
function field(words: FieldItem[]): Field {
  const stream = fieldStream(words);
  return { stream, n: stream.pieces.n };
}

const word = fc.record({
  w: fc.constantFrom('a', 'bb', 'ccc', 'dd'),
  hit: fc.boolean(),
  gap: fc.constantFrom(' ', ', ', '', '. '),
});

const markers = (numbered: boolean): Markers =>
  (numbered ? { before: '<%SNIPPET_ID%>', after: '</%SNIPPET_ID%>', id: 1 } : { before: '<b>', after: '</b>', id: 1 });

function same(f: Field, passages: PickedPassage[], numbered: boolean): void {
  const a = markers(numbered);
  const b = markers(numbered);
  expect(renderPassages(f.stream, passages, a, false)).toEqual(renderWalk(f.stream, passages, b, false));
  expect(a.id).toBe(b.id);
}

describe('renderPassages without zones', () => {
  it('gives the piece-by-piece walk\'s passages for disjoint passages', () => {
    fc.assert(fc.property(
      fc.array(word, { minLength: 1, maxLength: 40 }),
      fc.array(fc.tuple(fc.nat(6), fc.integer({ min: 1, max: 12 }), fc.integer({ min: -5, max: 30 })), { minLength: 1, maxLength: 5 }),
      fc.boolean(),
      (words, raw, numbered) => {
        const f = field(words);
        const passages: PickedPassage[] = [];
        let at = 0;
        for (const [skip, tokens, weight] of raw) {
          const start = at + skip;
          if (start >= f.n) break;
          passages.push({ field: 0, start, tokens: Math.min(tokens, f.n - start), weight });
          at = start + tokens;
        }
        if (passages.length) same(f, passages, numbered);
      },
    ), { numRuns: 3000 });
  });

  it('gives the walk\'s passages when they overlap or are empty', () => {
    fc.assert(fc.property(
      fc.array(word, { minLength: 1, maxLength: 40 }),
      fc.array(fc.tuple(fc.nat(60), fc.nat(12), fc.integer({ min: -5, max: 30 })), { minLength: 1, maxLength: 5 }),
      fc.boolean(),
      (words, raw, numbered) => {
        const f = field(words);
        const passages: PickedPassage[] = raw
          .map(([start, tokens, weight]) => ({ field: 0, start: start % f.n, tokens: Math.min(tokens, f.n - (start % f.n)), weight }))
          .sort((a, b) => a.start - b.start);
        same(f, passages, numbered);
      },
    ), { numRuns: 1000 });
  });
});
