// The core's packed hit positions (assembly/postings/positions.ts) read through a postings
// cursor: every row's hits as the host wrote them, after advances and after seeks that skip rows
// inside a block, rows short enough to stay in the cursor and rows too long for it.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { Core } from '../../../src/wasm/core.js';
import { buildSegment } from '../../../src/index/segment/segment-builder.js';
import { FIELD_END_BIT, POS_MASK } from '../../../src/index/segment/segment-layout.js';

const core = new Core('debug');
const x = core.exports;
const TERMINATED = 0x7fffffff;

const hit = (field: number, pos: number, end: boolean) => ((field << 24) | (end ? FIELD_END_BIT : 0) | pos) >>> 0;
/** One row's hits: ascending, fields 0..255 (mostly few), positions small or up to POS_MASK. */
const rowHits = fc.uniqueArray(
  fc.tuple(fc.oneof(fc.nat(2), fc.nat(255)), fc.oneof(fc.nat(300), fc.nat(POS_MASK)), fc.boolean()).map(([f, p, e]) => hit(f, p, e)),
  { minLength: 1, maxLength: 40 },
).map((xs) => xs.sort((a, b) => a - b));
const postings = fc.uniqueArray(fc.nat(3000), { minLength: 1, maxLength: 400 }).map((xs) => xs.sort((a, b) => a - b));

function place(rows: number[], hits: number[][]): { blob: number; cursor: number } {
  const positions = hits.flat();
  const last = rows[rows.length - 1] + 1;
  const built = buildSegment({ fields: ['f'], attrs: [] }, {
    rows: last, numFields: 1,
    postings: {
      terms: ['t'], rowStart: Uint32Array.of(0, rows.length), rows: Uint32Array.from(rows),
      tfs: Uint32Array.from(hits.map((h) => h.length)), posStart: Uint32Array.of(0, positions.length),
      positions: Uint32Array.from(positions),
    },
    fieldLens: new Uint32Array(last), docIds: new BigInt64Array(last), attrs: [],
  });
  return { blob: core.place(built.blob), cursor: core.alloc(x.cursorBytes()) };
}

function positionsAt(cursor: number): number[] {
  const tf = x.cursorTf(cursor);
  const p = x.cursorPositions(cursor) >>> 2;
  return Array.from(core.u32.subarray(p, p + tf));
}

describe('compressed positions in the core', () => {
  it('advance reads every row\'s hits back', () => {
    fc.assert(fc.property(postings, fc.array(rowHits, { minLength: 400, maxLength: 400 }), (rows, all) => {
      const hits = rows.map((_, i) => all[i]);
      const { blob, cursor } = place(rows, hits);
      let i = 0;
      for (let r = x.cursorInit(cursor, blob, 0); r !== TERMINATED; r = x.cursorAdvance(cursor), i++) {
        expect(positionsAt(cursor)).toEqual(hits[i]);
        expect(positionsAt(cursor)).toEqual(hits[i]); // a second read of the same row
      }
      expect(i).toBe(rows.length);
      core.free(blob);
      core.free(cursor);
    }), { numRuns: 40 });
  });
  it('seeks skip rows and their hits: the row landed on reads its own', () => {
    const targets = fc.array(fc.nat(3100), { maxLength: 60 }).map((t) => t.sort((a, b) => a - b));
    fc.assert(fc.property(postings, fc.array(rowHits, { minLength: 400, maxLength: 400 }), targets, fc.boolean(), (rows, all, ts, readAll) => {
      const hits = rows.map((_, i) => all[i]);
      const { blob, cursor } = place(rows, hits);
      x.cursorInit(cursor, blob, 0);
      for (const t of ts) {
        const r = x.cursorSeek(cursor, t);
        if (r === TERMINATED) break;
        // reading only some rows makes the next read skip several rows at once
        if (readAll || t % 3 === 0) expect(positionsAt(cursor)).toEqual(hits[rows.indexOf(r)]);
      }
      core.free(blob);
      core.free(cursor);
    }), { numRuns: 60 });
  });
  it('one row with one hit, and one row with thousands', () => {
    const many = Array.from({ length: 5000 }, (_, i) => hit(i < 2500 ? 0 : 7, (i % 2500) * 3 + 1, i === 2499 || i === 4999));
    for (const hits of [[[hit(0, 1, true)]], [[hit(3, POS_MASK, true)]], [many], [[hit(0, 2, false)], many, [hit(1, 1, false)]]]) {
      const rows = hits.map((_, i) => i * 2);
      const { blob, cursor } = place(rows, hits);
      let i = 0;
      for (let r = x.cursorInit(cursor, blob, 0); r !== TERMINATED; r = x.cursorAdvance(cursor), i++) {
        // the last row is read without reading the ones before it
        if (i === hits.length - 1) expect(positionsAt(cursor)).toEqual(hits[i]);
      }
      core.free(blob);
      core.free(cursor);
    }
  });
});
