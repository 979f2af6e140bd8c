/**
 * renderWhole as it was before it copied runs of pieces (session 14): one piece's text at a time, the
 * reference the run-copying version is checked against (test/unit/highlight/snippet-render-whole.test.ts).
 */
import { marker, type Markers } from '../../src/highlight/snippet-render.js';
import { P_END, P_KIND, P_OPEN, P_POS, P_START, PIECE_WORDS, PieceKind, type FieldStream } from '../../src/highlight/snippet-stream.js';

/** Whole-text mode (QueryHighlighter_c), piece by piece. */
export function renderWholeByPiece(s: FieldStream, mk: Markers, allowEmpty: boolean): string {
  let out = '';
  let openUntil = 0;
  let lastPos = 0;
  let matches = 0;
  let trailing = -1;
  let reopen = false;
  const close = (pos: number): void => {
    if (!openUntil || pos < openUntil) return;
    if (!reopen) out += marker(mk.after, mk.id++);
    openUntil = 0;
    trailing = -1;
    reopen = false;
  };
  const d = s.pieces.data;
  for (let i = 0; i < s.pieces.n; i++) {
    const at = i * PIECE_WORDS;
    const kind = d[at + P_KIND];
    const text = s.text.slice(d[at + P_START], d[at + P_END]);
    if (kind === PieceKind.Word) {
      const pos = d[at + P_POS];
      const open = d[at + P_OPEN];
      close(pos);
      if (reopen) { out += marker(mk.before, mk.id); reopen = false; }
      if (open && !openUntil) {
        out += marker(mk.before, mk.id);
        matches++;
        openUntil = open;
      }
      out += text;
      trailing = -1;
      lastPos = pos;
    } else if (kind === PieceKind.Gap) {
      close(lastPos + 1);
      if (openUntil && !reopen && trailing < 0) trailing = out.length;
      out += text;
    } else {
      close(lastPos + 1);
      if (openUntil && !reopen) {
        const tail = trailing >= 0 ? out.slice(trailing) : '';
        if (trailing >= 0) out = out.slice(0, trailing);
        out += marker(mk.after, mk.id++) + tail;
        trailing = -1;
        reopen = true;
      }
      out += text;
    }
  }
  if (!matches && allowEmpty) return '';
  if (openUntil && !reopen) out += marker(mk.after, mk.id++);
  return out;
}
