// A scanned field as the snippet builder walks it, in one call: from the scanner's token records
// (text/scan.ts) to the pieces the renderer copies (words, and the gaps between them split into
// whitespace / non-whitespace runs), the picker's token stream (format.ts) and the keyword
// occurrences, with no JavaScript per token. Positions advance as the index walk advances them
// (src/text/field-walk.ts walkScanned); keywords are found by the token id's dictionary term number.
//
// Piece (PIECE_WORDS i32): | kind (1 word, 0 gap) | start | end (UTF-16 offsets) | pos | open (0) |
// Occurrence (OCC_WORDS i32): | piece index | pos | keyword index |
// idTerm: i32 per scanner id: 0 not looked up, -1 stopword, -2 being looked up, else term number.
// A record's id -1: the scan did not name the token (the host knew it is neither keyword nor stopword).
// A field with ids not looked up yet lists them instead (the host looks them up and calls again).
// kw: open-addressed (term number, keyword index) i32 pairs, `kwMask + 1` slots, term 0 = empty.

import * as F from "./format";

const PIECE_WORDS: i32 = 5;
const OCC_WORDS: i32 = 3;
const RECORD_BYTES: usize = 16;
/** The term of a token the scan did not name: below every idTerm value. */
const NOT_KEYWORD: i32 = -3;

let occCount: i32 = 0;
let unknownCount: i32 = 0;
let foundMask: u32 = 0;
let docBytes: i32 = 0;

/** Ids the last snipStream found not looked up (it wrote them, once each, where occurrences go). */
export function snipUnknownCount(): i32 {
  return unknownCount;
}

/**
 * The last snipStream's occurrence count, found mask and UTF-8 bytes as three i32 here (the host reads
 * them in place: three calls across the boundary per field were a few percent of a short document's build).
 */
const results: usize = memory.data(12, 4);
export function snipResults(): usize {
  return results;
}

// the current field's output cursors
let pieces: usize = 0;
let packed: usize = 0;
let np: i32 = 0;

@inline function isSpace(c: u32): bool {
  return c == 32 || c == 9 || c == 10 || c == 13;
}

function piece(kind: i32, start: i32, end: i32, pos: i32, flags: u32): void {
  const p = pieces + <usize>np * PIECE_WORDS * 4;
  store<i32>(p, kind);
  store<i32>(p, start, 4);
  store<i32>(p, end, 8);
  store<i32>(p, pos, 12);
  store<i32>(p, 0, 16);
  const t = packed + <usize>np * F.TOKEN_WORDS * 4;
  store<i32>(t, end - start);
  store<u32>(t, flags, 4);
  store<u32>(t, 0, 8);
  np++;
}

/** Whitespace / non-whitespace runs of text[from, to) as gap pieces (Manticore's SplitSpaceIntoTokens). */
function gap(text: usize, from: i32, to: i32, pos: i32): void {
  if (from >= to) return;
  let s = from;
  let sp = isSpace(<u32>load<u16>(text + (<usize>from << 1)));
  for (let i = from + 1; i < to; i++) {
    const c = isSpace(<u32>load<u16>(text + (<usize>i << 1)));
    if (c != sp) {
      piece(0, s, i, pos, 0);
      s = i;
      sp = c;
    }
  }
  piece(0, s, to, pos, 0);
}

/** The keyword index of term number `term` (-1 none). */
@inline function keywordOf(kw: usize, kwMask: i32, term: i32): i32 {
  // the table is at most half full: a probe ends at an empty slot
  let slot = term & kwMask;
  let t = load<i32>(kw + (<usize>slot << 3));
  while (t != term && t != 0) {
    slot = (slot + 1) & kwMask;
    t = load<i32>(kw + (<usize>slot << 3));
  }
  return t == 0 ? -1 : load<i32>(kw + (<usize>slot << 3), 4);
}

/** UTF-8 length of `len` units (no surrogates) at `text`, 16 or 8 units at a time; -1 when they hold U+0003 or U+0004. */
function utf8Length(text: usize, len: i32): i32 {
  const low = i16x8.splat(5);
  const high = i16x8.splat(0x80);
  let bytes = 0;
  let i = 0;
  // 16 units a turn while they are all plain ASCII (most text), then 8 a turn, unit by unit where not
  for (; i + 16 <= len; i += 16) {
    const v0 = v128.load(text + (<usize>i << 1));
    const v1 = v128.load(text + (<usize>i << 1), 16);
    if (v128.any_true(v128.or(v128.or(i16x8.lt_u(v0, low), i16x8.ge_u(v0, high)), v128.or(i16x8.lt_u(v1, low), i16x8.ge_u(v1, high))))) break;
    bytes += 16;
  }
  for (; i + 8 <= len; i += 8) {
    const v = v128.load(text + (<usize>i << 1));
    // all ASCII from U+0005 on: one byte each; else unit by unit
    if (!v128.any_true(v128.or(i16x8.lt_u(v, low), i16x8.ge_u(v, high)))) {
      bytes += 8;
      continue;
    }
    const b = unitBytes(text, i, i + 8);
    if (b < 0) return -1;
    bytes += b;
  }
  const b = unitBytes(text, i, len);
  return b < 0 ? -1 : bytes + b;
}

function unitBytes(text: usize, from: i32, to: i32): i32 {
  let bytes = 0;
  for (let i = from; i < to; i++) {
    const c = <u32>load<u16>(text + (<usize>i << 1));
    // the HTML stripper's paragraph and zone marks: the general path cuts them out
    if (c == 3 || c == 4) return -1;
    bytes += c < 0x80 ? 1 : c < 0x800 ? 2 : 3;
  }
  return bytes;
}

/**
 * Streams one scanned field: `text` (`len` UTF-16 units, no surrogates: the scanner took it), its
 * `n` token records, the term numbers and keyword table; `steps`: overshort_step, stopword_step,
 * phrase_boundary_step. Writes pieces to `outPieces` and `outPacked` (room for len + 2 each) and
 * keyword occurrences to `outOcc` (room for n). Returns the piece count, -1 for text with the
 * stripper's marks (U+0003, U+0004), or -2 when ids need their terms (snipUnknownCount of them, at
 * `outOcc`): the host writes them into idTerm and calls again.
 */
export function snipStream(
  text: usize, len: i32, records: usize, n: i32, idTerm: usize, kw: usize, kwMask: i32,
  overshortStep: i32, stopwordStep: i32, boundaryStep: i32, outPieces: usize, outPacked: usize, outOcc: usize,
): i32 {
  pieces = outPieces;
  packed = outPacked;
  np = 0;
  occCount = 0;
  unknownCount = 0;
  foundMask = 0;
  const bytes = utf8Length(text, len);
  if (bytes < 0) return -1;
  docBytes = bytes;
  let pos = 0;
  let step = 1;
  let at = 0;
  for (let i = 0; i < n; i++) {
    const r = records + <usize>i * RECORD_BYTES;
    const start = load<i32>(r);
    const end = load<i32>(r, 4);
    const extra = load<i32>(r, 12);
    // most gaps are one character (a space): one piece, no run splitting; most others two (", ", ". "):
    // one piece, or two when one is a space and the other not, without the run loop
    const g = start - at;
    if (g == 1) {
      piece(0, at, start, pos, 0);
    } else if (g == 2) {
      const c0 = load<u32>(text + (<usize>at << 1));
      if (isSpace(c0 & 0xffff) == isSpace(c0 >>> 16)) {
        piece(0, at, start, pos, 0);
      } else {
        piece(0, at, at + 1, pos, 0);
        piece(0, at + 1, start, pos, 0);
      }
    } else {
      gap(text, at, start, pos);
    }
    const adv = step + (extra >> 1) * overshortStep;
    pos += adv > 0 ? adv : 0;
    if (extra & 1) pos += boundaryStep;
    const id = load<i32>(r, 8);
    // id -1: a token the scan did not name (neither a keyword nor a stopword), an ordinary word
    const term = id < 0 ? NOT_KEYWORD : load<i32>(idTerm + (<usize>id << 2));
    if (term == NOT_KEYWORD) {
      // nothing to look up or record
    } else if (term == 0 || term == -2) {
      // not looked up yet: listed (once, marked -2) in place of the occurrences, the host calls again
      if (term == 0) {
        store<i32>(idTerm + (<usize>id << 2), -2);
        store<i32>(outOcc + (<usize>unknownCount << 2), id);
        unknownCount++;
      }
      occCount = 0;
    } else if (unknownCount > 0) {
      // only the unknown ids are being collected
    } else if (term > 0) {
      const k = keywordOf(kw, kwMask, term);
      if (k >= 0) {
        const o = outOcc + <usize>occCount * OCC_WORDS * 4;
        store<i32>(o, np);
        store<i32>(o, pos, 4);
        store<i32>(o, k, 8);
        occCount++;
        foundMask |= (<u32>1) << <u32>k;
      }
    }
    step = term > 0 || term == NOT_KEYWORD ? 1 : stopwordStep;
    piece(1, start, end, pos, F.TOK_WORD);
    at = end;
  }
  gap(text, at, len, pos);
  store<i32>(results, occCount);
  store<u32>(results, foundMask, 4);
  store<i32>(results, docBytes, 8);
  return unknownCount > 0 ? -2 : np;
}
