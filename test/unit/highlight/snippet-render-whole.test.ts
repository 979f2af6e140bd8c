// renderWhole (runs of adjacent pieces copied as one slice) against the piece-by-piece reference:
// random fields of words, gaps and tags (retain mode), runs of hits, markers that number themselves.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { renderWhole, type Markers } from '../../../src/highlight/snippet-render.js';
import { PieceKind, Pieces, type FieldStream } from '../../../src/highlight/snippet-stream.js';
import { renderWholeByPiece } from '../../reference/snippet-render-whole.js';

/** A field from (word, hit, gap, tag) items: a hit run's words share the position just past the run. */
function field(items: { w: string; hit: boolean; gap: string; tag: string }[]): FieldStream {
  let text = '';
  const pieces = new Pieces(items.length * 3);
  const ends: number[] = [];
  for (let i = items.length - 1; i >= 0; i--) ends[i] = items[i].hit && i + 1 < items.length && items[i + 1].hit ? ends[i + 1] : i + 2;
  items.forEach((x, i) => {
    pieces.push(PieceKind.Word, text.length, text.length + x.w.length, i + 1, x.hit ? ends[i] : 0);
    text += x.w;
    for (const [kind, t] of [[PieceKind.Gap, x.gap], [PieceKind.Tag, x.tag]] as const) {
      if (!t) continue;
      pieces.push(kind, text.length, text.length + t.length, i + 1, 0);
      text += t;
    }
  });
  return { text, pieces, counted: new Int32Array(0), brk: new Uint8Array(0), zones: new Map(), passage: {} } as unknown as FieldStream;
}

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
      const s = field(items);
      const a = markers(numbered);
      const b = markers(numbered);
      expect(renderWhole(s, a, allowEmpty)).toBe(renderWholeByPiece(s, b, allowEmpty));
      expect(a.id).toBe(b.id);
    }), { numRuns: 3000, seed: 14 });
  });

  it('copies a field without hits whole', () => {
    const s = field([{ w: 'bb', hit: false, gap: ', ', tag: '' }, { w: 'a', hit: false, gap: '', tag: '<i>' }]);
    expect(renderWhole(s, markers(false), false)).toBe('bb, a<i>');
    expect(renderWhole(s, markers(false), true)).toBe('');
  });
});
