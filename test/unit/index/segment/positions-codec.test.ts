// The host's packed hit positions (src/index/segment/positions-codec.ts): round trips, formats, sizes.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { hitFormat, hitWidth, packHits, packedHitsWords, unpackHits } from '../../../../src/index/segment/positions-codec.js';
import { FIELD_END_BIT, POS_MASK } from '../../../../src/index/segment/segment-layout.js';

const hit = (field: number, pos: number, end = false) => ((field << 24) | (end ? FIELD_END_BIT : 0) | pos) >>> 0;

/** A block's hits: rows of ascending hitpos, any field (0..255), any pos, either end mark. */
const blockHits = fc.array(
  fc.uniqueArray(
    fc.tuple(fc.oneof(fc.nat(2), fc.nat(255)), fc.oneof(fc.nat(40), fc.nat(POS_MASK)), fc.boolean()).map(([f, p, e]) => hit(f, p, e)),
    { minLength: 1, maxLength: 30 },
  ).map((xs) => xs.sort((a, b) => a - b)),
  { minLength: 1, maxLength: 128 },
).map((rows) => rows.flat());

function roundTrip(hits: number[], at = 3): number[] {
  const fmt = hitFormat(hits, 0, hits.length);
  const words = new Uint32Array(at + packedHitsWords(0, hits.length, fmt));
  packHits(hits, 0, hits.length, fmt, words, at);
  const out = new Uint32Array(hits.length);
  unpackHits(words, at, hits.length, fmt, out, 0);
  return Array.from(out);
}

describe('positions codec', () => {
  it('unpacks what it packs', () => {
    fc.assert(fc.property(blockHits, fc.nat(5), (hits, at) => {
      expect(roundTrip(hits, at)).toEqual(hits);
    }), { numRuns: 300 });
  });
  it('edge cases: one hit, position 0, the largest position, the last field, end marks', () => {
    for (const hits of [
      [hit(0, 1)], [hit(0, 0)], [hit(0, POS_MASK, true)], [hit(255, POS_MASK, true)], [hit(0, 1), hit(255, 1)],
      [hit(1, 5), hit(2, 5), hit(3, 5), hit(7, 5), hit(200, 9, true)], [hit(0, 5, true), hit(0, 7)],
    ]) expect(roundTrip(hits)).toEqual(hits);
  });
  it('a hit takes the widths of the block\'s largest field and position, plus the end mark', () => {
    expect(hitWidth(hitFormat([hit(0, 1)], 0, 1))).toBe(2);
    expect(hitWidth(hitFormat([hit(0, 3), hit(1, 90, true)], 0, 2))).toBe(1 + 1 + 7);
    expect(hitWidth(hitFormat([hit(255, POS_MASK, true)], 0, 1))).toBe(32);
    // a range of a larger array: only its own hits count
    expect(hitFormat([hit(9, 900), hit(0, 2), hit(0, 3)], 1, 3)).toBe(0 | (2 << 8));
  });
});
