// The fields a step of an AND's LCS run occurs in on one row, read from the two words' hits: a cheaper
// second stage of the row bound (prune.ts pairedPart) for the rows its tf-only stage cannot skip. A step
// between query positions qa < qb with no pair term (the first and third word of a three-word AND, or a
// word repeated) is bounded there from tf alone by the fields both words are in, so a row of two common
// words (high mid high: both in title and body on most of their rows) was scored whole (positions of
// every word merged, LCS, BM25 per field) though its words seldom stand qb - qa apart. Here the two
// words' hits are decoded (into their cursors, where scoring the row reads them again) and walked once.

import { FIELD_END_BIT } from "../util/codes";
import { cursorPositions, cursorTf, INLINE_HITS } from "../postings/cursor";

/** stepFields()'s answer when it did not read the hits. */
export const STEP_UNREAD: u32 = 0xffffffff;

/**
 * The 16-bit field set (prune.ts fields16) of the fields where a hit of cursor `a`'s row at position p
 * and one of cursor `b`'s at p + `gap` both stand (`a` == `b`: a word repeated `gap` positions apart),
 * or STEP_UNREAD when a row has more hits than a cursor keeps decoded (two such rows would share the
 * one scratch vector: postings/cursor.ts cursorPositions).
 */
export function stepFields(a: usize, b: usize, gap: u32): u32 {
  const ta = cursorTf(a);
  const tb = cursorTf(b);
  if (ta > INLINE_HITS || tb > INLINE_HITS) return STEP_UNREAD;
  const ha = cursorPositions(a);
  const hb = a == b ? ha : cursorPositions(b);
  let found: u32 = 0;
  let i: u32 = 0;
  let j: u32 = 0;
  // hitpos is | field | fieldEnd | pos |: without the end bit, ascending; p + gap in the same field
  // only (positions stay far below the field bits)
  while (i < ta && j < tb) {
    const want = (load<u32>(ha + (<usize>i << 2)) & ~FIELD_END_BIT) + gap;
    const got = load<u32>(hb + (<usize>j << 2)) & ~FIELD_END_BIT;
    if (got < want) {
      j++;
      continue;
    }
    if (got == want) {
      const f = got >>> 24;
      found |= f < 15 ? <u32>1 << f : <u32>0x8000;
    }
    i++;
  }
  return found;
}
