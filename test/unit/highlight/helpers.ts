// The highlight render tests' (snippet-render, snippet-render-whole) made-up field stream: words, gaps
// and retain mode's tags as pieces, runs of hits marked the way the scan path marks them.
import { PieceKind, Pieces, type FieldStream } from '../../../src/highlight/snippet-stream.js';

/** One word of a made-up field: its text, whether it is a hit, the gap and (retain mode) tag after it. */
export interface FieldItem {
  w: string;
  hit: boolean;
  gap: string;
  tag?: string;
}

/** The field of `items`: a hit run's words share the position just past the run; every piece is counted. */
export function fieldStream(items: readonly FieldItem[]): FieldStream {
  let text = '';
  const pieces = new Pieces(items.length * 3);
  const ends: number[] = [];
  for (let i = items.length - 1; i >= 0; i--) ends[i] = items[i].hit && i + 1 < items.length && items[i + 1].hit ? ends[i + 1] : i + 2;
  items.forEach((x, i) => {
    pieces.push(PieceKind.Word, text.length, text.length + x.w.length, i + 1, x.hit ? ends[i] : 0);
    text += x.w;
    for (const [kind, t] of [[PieceKind.Gap, x.gap], [PieceKind.Tag, x.tag ?? '']] as const) {
      if (!t) continue;
      pieces.push(kind, text.length, text.length + t.length, i + 1, 0);
      text += t;
    }
  });
  const counted = Int32Array.from({ length: pieces.n }, (_, i) => i);
  return { text, pieces, counted, brk: new Uint8Array(0), zones: new Map(), passage: {} } as unknown as FieldStream;
}
