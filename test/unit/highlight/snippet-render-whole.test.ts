// renderWhole (runs of adjacent pieces copied as one slice) against the piece-by-piece reference:
// random fields of words, gaps and tags (retain mode), runs of hits, markers that number themselves.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderWhole, type Markers } from '../../../src/highlight/snippet-render.js';
import { renderWholeByPiece } from '../../reference/snippet-render-whole.js';
import { fieldStream } from './helpers.js';

const item = fc.record({
  w: fc.constantFrom('a', 'bb', 'ccc', 'dd'),
  hit: fc.boolean(),
  gap: fc.constantFrom(' ', ', ', '', '. '),
  tag: fc.constantFrom('', '', '', '<i>', '</i>'),
});

const markers = (numbered: boolean): Markers =>
  (numbered ? { before: '<%SNIPPET_ID%>', after: '</%SNIPPET_ID%>', id: 1 } : { before: '<b>', after: '</b>', id: 1 });

describe('renderWhole', () => {
  it('gives the piece-by-piece text, markers and marker numbers', () => {
    fc.assert(fc.property(fc.array(item, { maxLength: 30 }), fc.boolean(), fc.boolean(), (items, numbered, allowEmpty) => {
      const s = fieldStream(items);
      const a = markers(numbered);
      const b = markers(numbered);
      expect(renderWhole(s, a, allowEmpty)).toBe(renderWholeByPiece(s, b, allowEmpty));
      expect(a.id).toBe(b.id);
    }), { numRuns: 3000, seed: 14 });
  });

  it('copies a field without hits whole', () => {
    const s = fieldStream([{ w: 'bb', hit: false, gap: ', ', tag: '' }, { w: 'a', hit: false, gap: '', tag: '<i>' }]);
    expect(renderWhole(s, markers(false), false)).toBe('bb, a<i>');
    expect(renderWhole(s, markers(false), true)).toBe('');
  });
});
