/**
 * A field's text as the snippet functors walk it: words (with their positions, match marks and
 * keyword bits) and the gaps between them split into whitespace / non-whitespace runs, plus HTML
 * tags that retain mode copies but never counts or highlights.
 */
import type { Token } from '../text/text-pipeline.js';
import type { SpzMark } from '../text/spz-marks.js';
import { FIELD_SHIFT } from './snippet-doc-index.js';
import type { PassageStream } from './snippet-passages.js';

/** The core's token layout (assembly/snippet/format.ts): | lengthCP | flags | keyword mask |. */
const PACKED_WORDS = 3;
const PACK_WORD = 1;
const PACK_HIT = 2;
const PACK_BREAK = 4;
const PACK_PHRASE_BOUNDARY = 8;

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
  /** 1: a sentence / paragraph / zone boundary right before this piece; 2: a phrase boundary piece. */
  brk: number;
  /** The enclosing zone from this piece on, when it changes here (emit_zones). */
  zone?: string;
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

/** The stripper's paragraph mark and zone mark (`\u0004name\u0004`): not text, never emitted. */
const MAGIC_RE = /\u0003|\u0004[^\u0004]*\u0004/g;

function cpLen(s: string, from: number, to: number): number {
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = s.charCodeAt(i);
    if (c < 0xdc00 || c > 0xdfff) n++;
  }
  return n;
}

const NON_ASCII = /[^\x00-\x7f]/;
const SURROGATE = /[\ud800-\udfff]/;

function utf8Bytes(s: string): number {
  // most stored text is ASCII: its UTF-8 length is its length
  return NON_ASCII.test(s) ? Buffer.byteLength(s, 'utf8') : s.length;
}

/** Whitespace / non-whitespace runs of text[from, to) as gap pieces (SplitSpaceIntoTokens). */
function runs(text: string, from: number, to: number, pos: number, out: Piece[]): void {
  let s = from;
  let sp = isSpace(text.charCodeAt(from));
  for (let i = from + 1; i < to; i++) {
    const c = isSpace(text.charCodeAt(i));
    if (c !== sp) {
      out.push({ kind: PieceKind.Gap, start: s, end: i, pos, openUntil: 0, brk: 0 });
      s = i;
      sp = c;
    }
  }
  out.push({ kind: PieceKind.Gap, start: s, end: to, pos, openUntil: 0, brk: 0 });
}

/** Runs, with the gap's last phrase_boundary character as a piece of its own (brk 2). */
function boundaryRuns(text: string, from: number, to: number, pos: number, out: Piece[], isBoundary?: (cp: number) => boolean): void {
  let b = -1;
  if (isBoundary) for (let i = to - 1; i >= from && b < 0; i--) if (isBoundary(text.charCodeAt(i))) b = i;
  if (b < 0) { runs(text, from, to, pos, out); return; }
  if (b > from) runs(text, from, b, pos, out);
  out.push({ kind: PieceKind.Gap, start: b, end: b + 1, pos, openUntil: 0, brk: 2 });
  if (b + 1 < to) runs(text, b + 1, to, pos, out);
}

/**
 * Splits a gap into runs; `magic`: the text holds the stripper's marks (cut out); `tags`: HTML tags
 * become Tag pieces (retain mode).
 */
function splitGap(text: string, from: number, to: number, pos: number, out: Piece[], tags: boolean, magic: boolean, isBoundary?: (cp: number) => boolean): void {
  if (from >= to) return;
  if (magic) {
    const part = text.slice(from, to);
    if (part.includes('\u0003') || part.includes('\u0004')) {
      let at = from;
      MAGIC_RE.lastIndex = 0;
      for (let m = MAGIC_RE.exec(part); m; m = MAGIC_RE.exec(part)) {
        splitGap(text, at, from + m.index, pos, out, tags, false, isBoundary);
        at = from + m.index + m[0].length;
      }
      splitGap(text, at, to, pos, out, tags, false, isBoundary);
      return;
    }
  }
  if (!tags) { boundaryRuns(text, from, to, pos, out, isBoundary); return; }
  let at = from;
  TAG_RE.lastIndex = 0;
  const part = text.slice(from, to);
  for (let m = TAG_RE.exec(part); m; m = TAG_RE.exec(part)) {
    if (at < from + m.index) boundaryRuns(text, at, from + m.index, pos, out, isBoundary);
    out.push({ kind: PieceKind.Tag, start: from + m.index, end: from + m.index + m[0].length, pos, openUntil: 0, brk: 0 });
    at = from + m.index + m[0].length;
  }
  if (at < to) boundaryRuns(text, at, to, pos, out, isBoundary);
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
  /** snippet_boundary: which marks split passages ('' = none). */
  boundary: '' | 'sentence' | 'paragraph' | 'zone';
  /** The table's phrase_boundary characters (they split passages). */
  isBoundary?: (cp: number) => boolean;
}

/** Mark kinds that split passages for each snippet_boundary (Manticore delivers kinds >= it). */
const DELIVERED: Record<string, string[]> = {
  sentence: ['sentence', 'paragraph', 'zone'], paragraph: ['paragraph', 'zone'], zone: ['zone'],
};

/** First piece starting at or after `offset` (binary search over document order). */
function pieceAt(ps: Piece[], offset: number): number {
  let lo = 0;
  let hi = ps.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (ps[mid].start < offset) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/**
 * Boundaries on the pieces: a sentence ends after the gap piece that holds its terminator (Manticore
 * appends the sentence end), a paragraph or zone at the first piece after its mark. Zone marks also
 * record the enclosing zone for emit_zones.
 */
function placeMarks(ps: Piece[], marks: SpzMark[], boundary: StreamInput['boundary']): void {
  if (!boundary) return;
  const kinds = DELIVERED[boundary];
  const stack: string[] = [];
  for (const m of marks) {
    if (!kinds.includes(m.kind)) continue;
    let k: number;
    if (m.kind === 'sentence') {
      k = pieceAt(ps, m.start);
      if (k < ps.length && ps[k].kind !== PieceKind.Word) k++;
    } else {
      k = pieceAt(ps, m.end);
      while (k < ps.length && ps[k].start < m.end) k++;
    }
    if (m.kind === 'zone') {
      if (m.zone.startsWith('/')) stack.pop(); else stack.push(m.zone);
      if (k < ps.length) ps[k].zone = stack[stack.length - 1] ?? '';
    }
    if (k < ps.length) ps[k].brk = 1;
  }
}

export function buildStream(inp: StreamInput): FieldStream {
  const { text, tokens, marks } = inp;
  const ends = spanEnds(inp.hits, inp.field);
  const pieces: Piece[] = [];
  let at = 0;
  let lastPos = 0;
  const magic = text.includes('\u0003') || text.includes('\u0004');
  for (const t of tokens) {
    splitGap(text, at, t.start, lastPos, pieces, inp.tags, magic, inp.isBoundary);
    pieces.push({ kind: PieceKind.Word, start: t.start, end: t.end, pos: t.pos, openUntil: ends.size ? ends.get(t.pos) ?? 0 : 0, brk: 0 });
    at = t.end;
    lastPos = t.pos;
  }
  splitGap(text, at, text.length, lastPos, pieces, inp.tags, magic, inp.isBoundary);
  const counted = inp.tags ? pieces.filter((p) => p.kind !== PieceKind.Tag) : pieces;
  placeMarks(counted, marks, inp.boundary);
  const n = counted.length;
  // one backing buffer for the five per-token arrays (fewer allocations per field)
  const buf = new ArrayBuffer(n * 11);
  const ps: PassageStream = {
    len: new Int32Array(buf, 0, n), mask: new Uint32Array(buf, n * 4, n), word: new Uint8Array(buf, n * 8, n),
    hit: new Uint8Array(buf, n * 9, n), brk: new Uint8Array(buf, n * 10, n), docBytes: utf8Bytes(text),
  };
  let w = 0;
  // the same stream packed as the core reads it (one copy into WASM memory)
  const packed = new Int32Array(n * PACKED_WORDS);
  // without surrogate pairs a piece's code points are its UTF-16 units
  const pairs = SURROGATE.test(text);
  for (let i = 0; i < n; i++) {
    const p = counted[i];
    const len = pairs ? cpLen(text, p.start, p.end) : p.end - p.start;
    ps.len[i] = len;
    ps.brk[i] = p.brk;
    let flags = p.brk === 1 ? PACK_BREAK : p.brk === 2 ? PACK_PHRASE_BOUNDARY : 0;
    if (p.kind === PieceKind.Word) {
      ps.word[i] = 1;
      const ti = inp.termIndex[w++];
      ps.hit[i] = p.openUntil ? 1 : 0;
      ps.mask[i] = p.openUntil && ti >= 0 ? (1 << ti) >>> 0 : 0;
      flags |= PACK_WORD | (p.openUntil ? PACK_HIT : 0);
    }
    packed[i * PACKED_WORDS] = len;
    packed[i * PACKED_WORDS + 1] = flags;
    packed[i * PACKED_WORDS + 2] = ps.mask[i] | 0;
  }
  ps.packed = packed;
  return { text, pieces, counted, passage: ps };
}

export { cpLen, utf8Bytes };
