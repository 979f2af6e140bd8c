// SegmentSlots: a merge swap's forwards answer look-ups at once, later turns re-point the doc map in
// slices (writes in between respected), and the forwards and slots are released once all are.
import { describe, expect, it } from 'vitest';
import { DocMap } from '../../../src/index/doc-map.js';
import { REPOINT_CHUNK, SegmentSlots } from '../../../src/index/segment-slots.js';
import type { Segment } from '../../../src/index/segment/segment.js';

/** Segments are only identities to the slots. */
const fakeSegment = (name: string) => ({ name }) as unknown as Segment;
const turn = () => new Promise<void>((r) => setImmediate(r));
async function settled(slots: SegmentSlots): Promise<number> {
  let turns = 0;
  while (slots.forwarding) { await turn(); turns++; }
  return turns;
}

describe('SegmentSlots', () => {
  // many chunks: the re-pointing spans turns (a slow machine's turn does a chunk) and writes land between them
  const half = 128 * REPOINT_CHUNK + 1000;

  function twoParts() {
    const docs = new DocMap();
    const slots = new SegmentSlots(docs);
    const a = fakeSegment('a'), b = fakeSegment('b'), c = fakeSegment('c');
    const sa = slots.add(a), sb = slots.add(b);
    for (let i = 0; i < 2 * half; i++) docs.set(i, 0, i < half ? sa : sb, i % half);
    // merged c: a's rows then b's, except a's row 5 (deleted before the merge: its entry gone)
    docs.delete(5, 0);
    const fa = new Int32Array(half).map((_, r) => (r < 5 ? r : r === 5 ? -1 : r - 1));
    const fb = new Int32Array(half).map((_, r) => half - 1 + r);
    const ids = new Int32Array(2 * (2 * half - 1));
    for (let row = 0, i = 0; i < 2 * half; i++) if (i !== 5) ids[2 * row++] = i;
    return { docs, slots, a, b, c, fa, fb, ids };
  }
  const where = (docs: DocMap, slots: SegmentSlots, id: number) => {
    const e = docs.find(id, 0);
    return e < 0 ? undefined : slots.at(e);
  };

  it('answers through the forwards at once and re-points every entry over later turns', async () => {
    const { docs, slots, a, b, c, fa, fb, ids } = twoParts();
    slots.retire([a, b], c, [fa, fb], ids);
    expect(slots.forwarding).toBe(true);
    expect(where(docs, slots, 4)).toEqual({ seg: c, row: 4 });
    expect(where(docs, slots, 6)).toEqual({ seg: c, row: 5 });
    expect(where(docs, slots, half + 3)).toEqual({ seg: c, row: half + 2 });
    expect(where(docs, slots, 5)).toBeUndefined();
    await turn(); // one slice re-pointed: a write now, between two slices
    docs.delete(half + 10, 0); // DELETE of a row not re-pointed yet
    const d = fakeSegment('d');
    const sd = slots.add(d);
    docs.set(2 * half - 1, 0, sd, 0); // REPLACE: the id's new copy in d
    expect(await settled(slots)).toBeGreaterThan(0);
    const sc = docs.segmentAt(docs.find(0, 0));
    for (let i = 0; i < 2 * half; i++) {
      const e = docs.find(i, 0);
      if (i === 5 || i === half + 10) { expect(e).toBe(-1); continue; }
      const row = i < 5 ? i : i - 1;
      if (i === 2 * half - 1) expect([docs.segmentAt(e), slots.at(e).seg]).toEqual([sd, d]);
      else if (docs.segmentAt(e) !== sc || slots.at(e).row !== row) throw new Error(`id ${i}: slot ${docs.segmentAt(e)} row ${slots.at(e).row}`);
    }
    // the parts' slots are free again once nothing forwards from them
    expect(slots.add(fakeSegment('e'))).toBe(0);
  });

  it('a merged segment merged again before its pass is done: the later pass re-points through both', async () => {
    const { docs, slots, a, b, c, fa, fb, ids } = twoParts();
    slots.retire([a, b], c, [fa, fb], ids);
    await turn();
    const e = fakeSegment('e');
    const n = ids.length >>> 1;
    slots.retire([c], e, [new Int32Array(n).map((_, r) => r)], ids);
    expect(where(docs, slots, half + 3)).toEqual({ seg: e, row: half + 2 });
    await settled(slots);
    const se = docs.segmentAt(docs.find(0, 0));
    for (let row = 0; row < n; row++) {
      const at = docs.find(ids[2 * row], 0);
      if (docs.segmentAt(at) !== se || docs.rowAt(at) !== row) throw new Error(`row ${row}`);
    }
  });

  it('clear() stops a pass in flight', async () => {
    const { docs, slots, a, b, c, fa, fb, ids } = twoParts();
    slots.retire([a, b], c, [fa, fb], ids);
    slots.clear();
    docs.clear();
    await turn();
    await turn();
    expect(slots.forwarding).toBe(false);
    expect(docs.size).toBe(0);
  });
});
