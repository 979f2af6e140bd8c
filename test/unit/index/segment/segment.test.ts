// Segment reads its blob and deleted bitmap through views it keeps: still right after core memory grows.
import { describe, expect, it } from 'vitest';
import { coreWith, grow, memories } from '../../../helpers/core-memory.js';
import { Segment } from '../../../../src/index/segment/segment.js';
import { buildSegment, invertDocs } from '../../../../src/index/segment/segment-builder.js';
import type { IndexSchema } from '../../../../src/index/types.js';

describe('Segment', () => {
  it.each(memories)('docFreq and hitCount read the term table before and after the core memory grows: %s memory', (_name, shared) => {
    const core = coreWith(shared);
    const schema = { fields: ['f'], attrs: [] };
    const seg = new Segment(core, schema, buildSegment(schema, invertDocs(schema, [
      { docId: 1n, fields: [{ terms: ['a', 'b', 'a'], positions: [1, 2, 3], length: 3 }], attrs: [] },
      { docId: 2n, fields: [{ terms: ['a', 'c'], positions: [1, 2], length: 2 }], attrs: [] },
    ])));
    const stats = () => ['a', 'b', 'c'].map((w) => { const t = seg.termId(w); return [seg.docFreq(t), seg.hitCount(t)]; });
    expect(stats()).toEqual([[2, 3], [1, 1], [1, 1]]);
    grow(core);
    expect(stats()).toEqual([[2, 3], [1, 1], [1, 1]]);
  });

  it.each(memories)('deleted rows, ids, columns and field lengths read and write before and after the core memory grows: %s memory', (_name, shared) => {
    const core = coreWith(shared);
    const schema: IndexSchema = { fields: ['f'], attrs: [{ name: 'n', type: 'uint' }, { name: 'b', type: 'bigint' }, { name: 'x', type: 'float' }] };
    const seg = new Segment(core, schema, buildSegment(schema, invertDocs(schema, [
      { docId: 7n, fields: [{ terms: ['a'], positions: [1], length: 1 }], attrs: [3, -5n, 1.5] },
      { docId: 9n, fields: [{ terms: ['a', 'b'], positions: [1, 2], length: 2 }], attrs: [4, 6n, 2.5] },
    ])), new Uint8Array([0b01]));
    const state = () => [0, 1].map((r) => [seg.isDeleted(r), seg.docId(r), seg.attr(0, r), seg.attr(1, r), seg.attr(2, r), [...seg.fieldLengths(r)]]);
    expect(state()).toEqual([[true, 7n, 3, -5n, 1.5, [1]], [false, 9n, 4, 6n, 2.5, [2]]]);
    grow(core);
    expect(state()).toEqual([[true, 7n, 3, -5n, 1.5, [1]], [false, 9n, 4, 6n, 2.5, [2]]]);
    expect(seg.markDeleted(1)).toBe(true);
    seg.setAttr(0, 0, 11);
    seg.setAttr(1, 0, 12n);
    seg.setAttr(2, 0, 0.25);
    grow(core);
    expect(state()).toEqual([[true, 7n, 11, 12n, 0.25, [1]], [true, 9n, 4, 6n, 2.5, [2]]]);
    expect(seg.live).toBe(0);
  });
});
