/**
 * A field's text as the snippet functors walk it: words (with their positions, match marks and
 * keyword bits) and the gaps between them split into whitespace / non-whitespace runs, plus HTML
 * tags that retain mode copies but never counts or highlights.
 */
import type { Token } from '../text/text-pipeline.js';
import type { SpzMark } from '../text/spz-marks.js';
import { FIELD_SHIFT } from './snippet-match.js';
import type { PassageStream } from './snippet-passages.js';

export const enum PieceKind { Word = 1, Gap = 0, Tag = 2 }

export interface Piece {
  kind: PieceKind;
  /** UTF-16 offsets into the field text. */
  start: number;
  end: number;
  /** Word position (for gaps: the last word's position). */
  pos: number;
  /** For a matched word: the position just past its folded span; 0 otherwise. */
  openUntil: number;
  /** Boundary (sentence / paragraph / zone) right before this piece; zone name when a zone opens. */
  brk: boolean;
  zone: string;
}

export interface FieldStream {
  text: string;
  pieces: Piece[];
  /** The pieces without tags: what passages count. */
  counted: Piece[];
  passage: PassageStream;
}

/** Manticore's sphIsSpace. */
const isSpace = (c: number): boolean => c === 32 || c === 9 || c === 10 || c === 13;

const TAG_RE = /<!--[\s\S]*?-->|<[^>]*>/g;

function cpLen(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff) n++;
  }
  return n;
}

function utf8Bytes(s: string): number {
  return Buffer.byteLength(s, 'utf8');
}

/** Splits a gap into runs of whitespace and of anything else (SplitSpaceIntoTokens). */
function splitGap(text: string, from: number, to: number, pos: number, out: Piece[], tags: boolean): void {
  const push = (a: number, b: number, kind: PieceKind): void => {
    out.push({ kind, start: a, end: b, pos, openUntil: 0, brk: false, zone: '' });
  };
  const runs = (a: number, b: number): void => {
    let s = a;
    for (let i = a + 1; i <= b; i++) {
      if (i === b || isSpace(text.charCodeAt(i)) !== isSpace(text.charCodeAt(s))) { push(s, i, PieceKind.Gap); s = i; }
    }
  };
  if (from >= to) return;
  if (!tags) { runs(from, to); return; }
  let at = from;
  TAG_RE.lastIndex = 0;
  const part = text.slice(from, to);
  for (let m = TAG_RE.exec(part); m; m = TAG_RE.exec(part)) {
    if (m.index > 0 || at < from + m.index) runs(at, from + m.index);
    push(from + m.index, from + m.index + m[0].length, PieceKind.Tag);
    at = from + m.index + m[0].length;
  }
  runs(at, to);
}

/** Folded hit spans of one field: sorted keys -> map pos -> first position past its span. */
function spanEnds(hits: number[], field: number): Map<number, number> {
  const out = new Map<number, number>();
  const lo = field * FIELD_SHIFT;
  const mine = hits.filter((h) => h > lo && h < lo + FIELD_SHIFT).map((h) => h - lo);
  let i = 0;
  while (i < mine.length) {
    let j = i;
    while (j + 1 < mine.length && mine[j + 1] === mine[j] + 1) j++;
    for (let k = i; k <= j; k++) out.set(mine[k], mine[j] + 1);
    i = j + 1;
  }
  return out;
}

export interface StreamInput {
  text: string;
  tokens: Token[];
  marks: SpzMark[];
  /** Keyword index per token (-1 none). */
  termIndex: Int32Array;
  hits: number[];
  field: number;
  /** Retain mode: tags in gaps are copied, not counted. */
  tags: boolean;
}

export function buildStream(inp: StreamInput): FieldStream {
  const { text, tokens, marks } = inp;
  const ends = spanEnds(inp.hits, inp.field);
  const pieces: Piece[] = [];
  let at = 0;
  let lastPos = 0;
  let m = 0;
  tokens.forEach((t, i) => {
    splitGap(text, at, t.start, lastPos, pieces, inp.tags);
    let brk = false;
    let zone = '';
    while (m < marks.length && marks[m].pos < t.pos) {
      brk = true;
      if (marks[m].kind === 'zone' && !marks[m].zone.startsWith('/')) zone = marks[m].zone;
      m++;
    }
    const first = pieces.length;
    pieces.push({ kind: PieceKind.Word, start: t.start, end: t.end, pos: t.pos, openUntil: ends.get(t.pos) ?? 0, brk: false, zone: '' });
    if (brk) {
      // the boundary goes before the gap that precedes the word when there is one
      let b = first;
      while (b > 0 && pieces[b - 1].kind !== PieceKind.Word && pieces[b - 1].start >= (tokens[i - 1]?.end ?? 0)) b--;
      const target = pieces[b] ?? pieces[first];
      target.brk = true;
      target.zone = zone;
    }
    at = t.end;
    lastPos = t.pos;
  });
  splitGap(text, at, text.length, lastPos, pieces, inp.tags);
  const counted = pieces.filter((p) => p.kind !== PieceKind.Tag);
  const n = counted.length;
  const ps: PassageStream = {
    len: new Int32Array(n), word: new Uint8Array(n), mask: new Uint32Array(n), hit: new Uint8Array(n),
    brk: new Uint8Array(n), docBytes: utf8Bytes(text),
  };
  let w = 0;
  counted.forEach((p, i) => {
    ps.len[i] = cpLen(text, p.start, p.end);
    ps.brk[i] = p.brk ? 1 : 0;
    if (p.kind !== PieceKind.Word) return;
    ps.word[i] = 1;
    const ti = inp.termIndex[w++];
    ps.hit[i] = p.openUntil ? 1 : 0;
    ps.mask[i] = p.openUntil && ti >= 0 ? (1 << ti) >>> 0 : 0;
  });
  return { text, pieces, counted, passage: ps };
}

export { cpLen, utf8Bytes };
