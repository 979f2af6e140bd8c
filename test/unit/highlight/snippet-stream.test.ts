// Tests for the packed piece stream of a field (snippet-stream.ts).
import { describe, expect, it } from 'vitest';
import { buildStream, P_END, P_KIND, P_OPEN, P_POS, P_START, PIECE_WORDS, PieceKind, Pieces, type FieldStream } from '../../../src/highlight/snippet-stream.js';
import { FIELD_SHIFT } from '../../../src/highlight/snippet-doc-index.js';
import { createTextPipeline } from '../../../src/text/text-pipeline.js';

/** The stream's pieces as [kind, text, pos, openUntil] rows. */
function rows(s: FieldStream): [number, string, number, number][] {
  const d = s.pieces.data;
  const out: [number, string, number, number][] = [];
  for (let i = 0; i < s.pieces.n; i++) {
    const at = i * PIECE_WORDS;
    out.push([d[at + P_KIND], s.text.slice(d[at + P_START], d[at + P_END]), d[at + P_POS], d[at + P_OPEN]]);
  }
  return out;
}

function stream(text: string, opts: { hits?: number[]; tags?: boolean; isBoundary?: (cp: number) => boolean } = {}): FieldStream {
  const tokens = createTextPipeline(opts.tags ? { html_strip: '1' } : {}).tokenize(text);
  return buildStream({
    text, tokens, marks: [], termIndex: new Int32Array(tokens.length).fill(-1), hits: opts.hits ?? [], field: 0,
    tags: opts.tags ?? false, boundary: '', isBoundary: opts.isBoundary,
  });
}

describe('Pieces', () => {
  it('grows past its first capacity and keeps every piece', () => {
    const p = new Pieces(1);
    for (let i = 0; i < 50; i++) p.push(PieceKind.Gap, i, i + 1, i * 2, i % 3);
    expect(p.n).toBe(50);
    expect(Array.from(p.data.subarray(49 * PIECE_WORDS, 50 * PIECE_WORDS))).toEqual([PieceKind.Gap, 49, 50, 98, 1]);
  });
});

describe('buildStream', () => {
  it('splits gaps into space / non-space runs and marks folded hit spans', () => {
    const s = stream('big, red dog', { hits: [1, 2].map((p) => 0 * FIELD_SHIFT + p) });
    expect(rows(s)).toEqual([
      [PieceKind.Word, 'big', 1, 3], [PieceKind.Gap, ',', 1, 0], [PieceKind.Gap, ' ', 1, 0],
      [PieceKind.Word, 'red', 2, 3], [PieceKind.Gap, ' ', 2, 0], [PieceKind.Word, 'dog', 3, 0],
    ]);
    expect(Array.from(s.counted)).toEqual([0, 1, 2, 3, 4, 5]);
    expect(Array.from(s.passage.hit)).toEqual([1, 0, 0, 1, 0, 0]);
  });

  it('leaves tags out of the counted pieces (retain mode)', () => {
    const s = stream('a <b>word</b> here', { tags: true });
    const kinds = rows(s).map((r) => r[0]);
    expect(kinds.filter((k) => k === PieceKind.Tag)).toHaveLength(2);
    expect(Array.from(s.counted).every((i) => kinds[i] !== PieceKind.Tag)).toBe(true);
    expect(s.passage.len.length).toBe(s.counted.length);
  });

  it('flags the last phrase boundary character of a gap by its counted index', () => {
    const s = stream('one. two', { isBoundary: (cp) => cp === 46 });
    const texts = Array.from(s.counted).map((i) => rows(s)[i][1]);
    expect(texts).toEqual(['one', '.', ' ', 'two']);
    expect(Array.from(s.brk)).toEqual([0, 2, 0, 0]);
  });
});
