// serializeSegmentInTurns (the checkpoint's copy of a big segment, a slice per event-loop turn) writes the
// bytes serializeSegment does, lets other work run between its slices, and keeps reading a segment a
// merge swapped out meanwhile (pinned: its memory is not reused before the copy is done); segmentFilePieces
// (the checkpoint's file over shared core memory, written without a copy) are those same bytes.
import { afterEach, describe, expect, it } from 'vitest';
import { RtIndex } from '../../../../src/index/rt-index.js';
import { loadSegment, SERIALIZE_SLICE, segmentFilePieces, serializeSegment, serializeSegmentInTurns } from '../../../../src/index/segment/segment-codec.js';
import { doc } from '../helpers.js';

const schema = { fields: ['body'], attrs: [{ name: 'n', type: 'uint' as const }, { name: 's', type: 'string' as const }] };
const slice = SERIALIZE_SLICE.bytes;
afterEach(() => { SERIALIZE_SLICE.bytes = slice; });

function table(batches: number): RtIndex {
  const idx = new RtIndex(schema, { autoMerge: false });
  for (let b = 0, id = 1; b < batches; b++) {
    idx.addBatch(Array.from({ length: 300 }, () => { id++; return doc(schema, id, { body: `w${id % 97} x${id % 13} common` }, [id, `s${id}`]); }));
  }
  return idx;
}

describe('serializeSegmentInTurns', () => {
  it('writes what serializeSegment writes, a slice per turn', async () => {
    const idx = table(1);
    const seg = idx.segments[0];
    idx.delete([5n, 77n]);
    const whole = serializeSegment(seg);
    SERIALIZE_SLICE.bytes = 1000;
    // a task that re-queues itself each turn runs between the slices
    let turns = 0, ticking = true;
    const tick = () => { turns++; if (ticking) setImmediate(tick); };
    setImmediate(tick);
    const sliced = await serializeSegmentInTurns(seg);
    ticking = false;
    expect(Math.ceil(seg.blobLen / 1000)).toBeGreaterThan(5);
    expect(turns).toBeGreaterThanOrEqual(Math.ceil(seg.blobLen / 1000) - 1);
    expect(Buffer.from(sliced).equals(Buffer.from(whole))).toBe(true);
    const back = loadSegment(sliced, schema, idx.core);
    expect([back.rows, back.live]).toEqual([seg.rows, seg.live]);
  });

  it('copies a segment a merge swapped out meanwhile as it was', async () => {
    const idx = table(3);
    const seg = idx.segments[1];
    const whole = serializeSegment(seg);
    SERIALIZE_SLICE.bytes = 1000;
    const copying = serializeSegmentInTurns(seg);
    await new Promise((r) => setImmediate(r));
    idx.optimize(); // frees the parts (seg once unpinned) and places the merged segment
    idx.addBatch([doc(schema, 9999, { body: 'fresh words here' }, [1, 'x'])]); // may reuse freed memory
    expect(Buffer.from(await copying).equals(Buffer.from(whole))).toBe(true);
    expect(idx.segments.length).toBe(2);
  });
});

describe('segmentFilePieces', () => {
  it('are, in order, the bytes serializeSegment writes, the blob a view of the shared core memory', () => {
    const idx = table(2);
    const seg = idx.segments[0];
    idx.delete([5n, 77n]);
    const pieces = segmentFilePieces(seg)!;
    expect(pieces).toBeDefined(); // the core's memory is shared (query and merge threads read it)
    expect(pieces[1].buffer).toBe(idx.core.u8.buffer);
    const joined = Buffer.concat(pieces);
    expect(joined.equals(Buffer.from(serializeSegment(seg)))).toBe(true);
    const back = loadSegment(joined, schema, idx.core);
    expect([back.rows, back.live]).toEqual([seg.rows, seg.live]);
  });
});
