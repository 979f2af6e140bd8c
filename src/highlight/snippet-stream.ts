/**
 * A field's text as the snippet functors walk it: words (with their positions, match marks and
 * keyword bits) and the gaps between them split into whitespace / non-whitespace runs, plus HTML
 * tags that retain mode copies but never counts or highlights.
 */
import type { Token } from '../text/text-pipeline.js';
import type { SpzMark } from '../text/spz-marks.js';
import { FIELD_SHIFT } from './snippet-doc-index.js';
import type { FieldHead } from './snippet-heads.js';
import type { PassageStream } from './snippet-passages.js';

/** The core's token layout (assembly/snippet/format.ts): | lengthCP | flags | keyword mask |. */
const PACKED_WORDS = 3;
const PACK_WORD = 1;
export const PACK_HIT = 2;
const PACK_BREAK = 4;
const PACK_PHRASE_BOUNDARY = 8;

export const enum PieceKind { Word = 1, Gap = 0, Tag = 2 }

/** Int32 words per piece in Pieces.data: | kind | start | end | pos | openUntil |. */
export const PIECE_WORDS = 5;
/** Field offsets inside a piece's words. */
export const P_KIND = 0;
export const P_START = 1;
export const P_END = 2;
export const P_POS = 3;
export const P_OPEN = 4;
/** Pieces a stream starts with room for, per token (a word and its gap's runs: ~2.5 on dictionary text). */
const PIECES_PER_TOKEN = 3;

/**
 * A field's pieces in document order, packed (no object per piece): for piece i at i * PIECE_WORDS,
 * kind, UTF-16 start and end offsets into the field text, word position (for gaps: the last word's),
 * and for a matched word the position just past its folded span (0 otherwise).
 */
export class Pieces {
  n = 0;
  data: Int32Array<ArrayBuffer>;

  /** `reuse`: a scratch array to write into when it is big enough (every piece's words are written before read). */
  constructor(capacity: number, reuse?: Int32Array<ArrayBuffer>) {
    const words = Math.max(capacity, 4) * PIECE_WORDS;
    this.data = reuse && reuse.length >= words ? reuse : new Int32Array(words);
  }

  push(kind: PieceKind, start: number, end: number, pos: number, openUntil: number): void {
    let at = this.n * PIECE_WORDS;
    if (at + PIECE_WORDS > this.data.length) {
      const grown = new Int32Array(this.data.length * 2);
      grown.set(this.data);
      this.data = grown;
    }
    const d = this.data;
    d[at++] = kind;
    d[at++] = start;
    d[at++] = end;
    d[at++] = pos;
    d[at] = openUntil;
    this.n++;
  }
}

/**
 * Buffers one field slot's streams reuse from document to document (buildSnippets keeps one per
 * field: a document's streams are dead once it returns), so a field costs no typed-array
 * allocations once the buffers have grown to the page's longest field.
 */
export class StreamScratch {
  pieces: Int32Array<ArrayBuffer> = new Int32Array(0);
  counted: Int32Array<ArrayBuffer> = new Int32Array(0);
  /** The passage stream's five per-token arrays (11 bytes a token). */
  bytes = new ArrayBuffer(0);
  packed: Int32Array<ArrayBuffer> = new Int32Array(0);
  /** The scan path's keyword occurrences of the field (copied out of the core's shared scratch). */
  occ: Int32Array<ArrayBuffer> = new Int32Array(0);
}

/** `have` when it holds `n` elements, else a new array of about twice that (kept in the scratch by the caller). */
function grownI32(have: Int32Array<ArrayBuffer>, n: number): Int32Array<ArrayBuffer> {
  return have.length >= n ? have : new Int32Array(Math.max(n, have.length * 2));
}

export interface FieldStream {
  text: string;
  pieces: Pieces;
  /** Indices into `pieces` of the pieces without tags: what passages count (their order numbers the passage stream). */
  counted: Int32Array;
  /** Per counted piece (by its counted index): 1 a sentence / paragraph / zone boundary right before it, 2 a phrase boundary piece. */
  brk: Uint8Array;
  /** The enclosing zone from a counted piece on, where it changes (emit_zones), by counted index. */
  zones: Map<number, string>;
  passage: PassageStream;
  /**
   * A start kept between requests (snippet-heads.ts) the pieces are read from: its rendered start is
   * memoized there. Every stream sets it (undefined but for kept starts): one object shape for all.
   */
  head: FieldHead | undefined;
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

/** Node's Buffer, absent in a page (the browser build). */
const nodeBuffer = (globalThis as { Buffer?: { byteLength(s: string, enc: 'utf8'): number } }).Buffer;

/**
 * The UTF-8 length of `s` (a lone surrogate counts 3 bytes, as its replacement's encoding). Node's
 * native count reads a text about three times as fast as a regular expression's test for non-ASCII
 * did (2,800-unit ASCII gcide bodies: 0.8-1.1 against 3.0-4.7 us), and a text equal in length and
 * bytes is ASCII: callers read that as "no surrogate pairs" without a second pass.
 */
function utf8Bytes(s: string): number {
  if (nodeBuffer) return nodeBuffer.byteLength(s, 'utf8');
  if (!NON_ASCII.test(s)) return s.length;
  let n = 0;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) n += 1;
    else if (c < 0x800) n += 2;
    else if (c >= 0xd800 && c < 0xdc00 && i + 1 < s.length && (s.charCodeAt(i + 1) & 0xfc00) === 0xdc00) { n += 4; i++; }
    else n += 3;
  }
  return n;
}

/** Whitespace / non-whitespace runs of text[from, to) as gap pieces (SplitSpaceIntoTokens). */
function runs(text: string, from: number, to: number, pos: number, out: Pieces): void {
  let s = from;
  let sp = isSpace(text.charCodeAt(from));
  for (let i = from + 1; i < to; i++) {
    const c = isSpace(text.charCodeAt(i));
    if (c !== sp) {
      out.push(PieceKind.Gap, s, i, pos, 0);
      s = i;
      sp = c;
    }
  }
  out.push(PieceKind.Gap, s, to, pos, 0);
}

/** Where a stream's walk writes: the pieces, and which of them are phrase boundary pieces. */
interface GapOut { pieces: Pieces; phrase: number[] }

/** Runs, with the gap's last phrase_boundary character as a piece of its own (brk 2). */
function boundaryRuns(text: string, from: number, to: number, pos: number, out: GapOut, isBoundary?: (cp: number) => boolean): void {
  let b = -1;
  if (isBoundary) for (let i = to - 1; i >= from && b < 0; i--) if (isBoundary(text.charCodeAt(i))) b = i;
  if (b < 0) { runs(text, from, to, pos, out.pieces); return; }
  if (b > from) runs(text, from, b, pos, out.pieces);
  out.phrase.push(out.pieces.n);
  out.pieces.push(PieceKind.Gap, b, b + 1, pos, 0);
  if (b + 1 < to) runs(text, b + 1, to, pos, out.pieces);
}

/**
 * Splits a gap into runs; `magic`: the text holds the stripper's marks (cut out); `tags`: HTML tags
 * become Tag pieces (retain mode).
 */
function splitGap(text: string, from: number, to: number, pos: number, out: GapOut, tags: boolean, magic: boolean, isBoundary?: (cp: number) => boolean): void {
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
    out.pieces.push(PieceKind.Tag, from + m.index, from + m.index + m[0].length, pos, 0);
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

/** First counted piece starting at or after `offset` (binary search over document order). */
function pieceAt(st: FieldStream, offset: number): number {
  const d = st.pieces.data;
  let lo = 0;
  let hi = st.counted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (d[st.counted[mid] * PIECE_WORDS + P_START] < offset) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/**
 * Boundaries on the counted pieces: a sentence ends after the gap piece that holds its terminator
 * (Manticore appends the sentence end), a paragraph or zone at the first piece after its mark. Zone
 * marks also record the enclosing zone for emit_zones.
 */
function placeMarks(st: FieldStream, marks: SpzMark[], boundary: StreamInput['boundary']): void {
  if (!boundary) return;
  const kinds = DELIVERED[boundary];
  const stack: string[] = [];
  const d = st.pieces.data;
  const n = st.counted.length;
  const at = (k: number, f: number): number => d[st.counted[k] * PIECE_WORDS + f];
  for (const m of marks) {
    if (!kinds.includes(m.kind)) continue;
    let k: number;
    if (m.kind === 'sentence') {
      k = pieceAt(st, m.start);
      if (k < n && at(k, P_KIND) !== PieceKind.Word) k++;
    } else {
      k = pieceAt(st, m.end);
      while (k < n && at(k, P_START) < m.end) k++;
    }
    if (m.kind === 'zone') {
      if (m.zone.startsWith('/')) stack.pop(); else stack.push(m.zone);
      if (k < n) st.zones.set(k, stack[stack.length - 1] ?? '');
    }
    if (k < n) st.brk[k] = 1;
  }
}

/** The field's pieces: gaps split into runs (and tags), words with their folded span ends. */
function walkPieces(inp: StreamInput, scratch?: StreamScratch): GapOut {
  const { text, tokens } = inp;
  const ends = spanEnds(inp.hits, inp.field);
  const out: GapOut = { pieces: new Pieces(tokens.length * PIECES_PER_TOKEN + 2, scratch?.pieces), phrase: [] };
  let at = 0;
  let lastPos = 0;
  const magic = text.includes('\u0003') || text.includes('\u0004');
  for (const t of tokens) {
    splitGap(text, at, t.start, lastPos, out, inp.tags, magic, inp.isBoundary);
    out.pieces.push(PieceKind.Word, t.start, t.end, t.pos, ends.size ? ends.get(t.pos) ?? 0 : 0);
    at = t.end;
    lastPos = t.pos;
  }
  splitGap(text, at, text.length, lastPos, out, inp.tags, magic, inp.isBoundary);
  return out;
}

/** Indices of the pieces that are not tags (all of them when there are no tags). */
function countedOf(pieces: Pieces, tags: boolean, scratch?: StreamScratch): Int32Array {
  const d = pieces.data;
  let n = 0;
  let out: Int32Array;
  if (scratch) {
    scratch.counted = grownI32(scratch.counted, pieces.n);
    out = scratch.counted;
  } else {
    out = new Int32Array(pieces.n);
  }
  for (let i = 0; i < pieces.n; i++) if (!tags || d[i * PIECE_WORDS + P_KIND] !== PieceKind.Tag) out[n++] = i;
  return n === out.length ? out : out.subarray(0, n);
}

/** Where piece `pi` (a counted one) stands in the sorted `counted`. */
function countedIndex(counted: Int32Array, pi: number): number {
  let lo = 0;
  let hi = counted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (counted[mid] < pi) lo = mid + 1; else hi = mid;
  }
  return lo;
}

/**
 * The field's stream; with `scratch` its arrays live in the scratch's buffers (valid until the next
 * stream built with the same scratch).
 */
export function buildStream(inp: StreamInput, scratch?: StreamScratch): FieldStream {
  const { text } = inp;
  const { pieces, phrase } = walkPieces(inp, scratch);
  if (scratch) scratch.pieces = pieces.data;
  const counted = countedOf(pieces, inp.tags, scratch);
  const n = counted.length;
  // one backing buffer for the five per-token arrays (fewer allocations per field)
  let buf: ArrayBuffer;
  if (scratch) {
    if (scratch.bytes.byteLength < n * 11) scratch.bytes = new ArrayBuffer(Math.max(n * 11, scratch.bytes.byteLength * 2));
    buf = scratch.bytes;
    // gaps read word, hit and mask as 0; brk is 0 unless a boundary sets it
    new Uint8Array(buf, n * 4, n * 7).fill(0);
  } else {
    buf = new ArrayBuffer(n * 11);
  }
  const ps: PassageStream = {
    len: new Int32Array(buf, 0, n), mask: new Uint32Array(buf, n * 4, n), word: new Uint8Array(buf, n * 8, n),
    hit: new Uint8Array(buf, n * 9, n), brk: new Uint8Array(buf, n * 10, n), docBytes: utf8Bytes(text),
  };
  const st: FieldStream = { text, pieces, counted, brk: ps.brk, zones: new Map(), passage: ps, head: undefined };
  // phrase boundary pieces are gaps, never tags: each is in `counted` (sorted)
  for (const pi of phrase) ps.brk[countedIndex(counted, pi)] = 2;
  placeMarks(st, inp.marks, inp.boundary);
  packStream(st, inp.termIndex, scratch);
  return st;
}

/** The passage stream's per-token arrays and the same stream packed as the core reads it (one copy into WASM memory). */
function packStream(st: FieldStream, termIndex: Int32Array, scratch?: StreamScratch): void {
  const { text, counted, passage: ps } = st;
  const d = st.pieces.data;
  const n = counted.length;
  let packed: Int32Array;
  if (scratch) {
    scratch.packed = grownI32(scratch.packed, n * PACKED_WORDS);
    packed = scratch.packed.subarray(0, n * PACKED_WORDS);
  } else {
    packed = new Int32Array(n * PACKED_WORDS);
  }
  // without surrogate pairs a piece's code points are its UTF-16 units
  const pairs = SURROGATE.test(text);
  let w = 0;
  for (let i = 0; i < n; i++) {
    const at = counted[i] * PIECE_WORDS;
    const start = d[at + P_START];
    const end = d[at + P_END];
    const len = pairs ? cpLen(text, start, end) : end - start;
    ps.len[i] = len;
    const brk = ps.brk[i];
    let flags = brk === 1 ? PACK_BREAK : brk === 2 ? PACK_PHRASE_BOUNDARY : 0;
    if (d[at + P_KIND] === PieceKind.Word) {
      const open = d[at + P_OPEN];
      ps.word[i] = 1;
      const ti = termIndex[w++];
      ps.hit[i] = open ? 1 : 0;
      ps.mask[i] = open && ti >= 0 ? (1 << ti) >>> 0 : 0;
      flags |= PACK_WORD | (open ? PACK_HIT : 0);
    }
    packed[i * PACKED_WORDS] = len;
    packed[i * PACKED_WORDS + 1] = flags;
    packed[i * PACKED_WORDS + 2] = ps.mask[i] | 0;
  }
  ps.packed = packed;
}

/**
 * PassageStream.docBytes of a field the scan path left unscanned (SQL: a field no leaf can match in,
 * once another field holds a hit): such a field has no tokens and is never extracted, and its bytes
 * matter only to canHighlightAll, which its text's length (a lower bound) mostly settles.
 */
export const UNCOUNTED_BYTES = -1;

/** A stream's UTF-8 bytes, counted now for a field left unscanned. */
export function streamBytes(s: FieldStream): number {
  const b = s.passage.docBytes;
  return b === UNCOUNTED_BYTES ? utf8Bytes(s.text) : b;
}

export { cpLen, utf8Bytes };
