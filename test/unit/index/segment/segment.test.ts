// Segment's dictionary statistics read through a view it keeps: still right after core memory grows.
import { describe, expect, it } from 'vitest';
import { Core } from '../../../../src/wasm/core.js';
import { Segment } from '../../../../src/index/segment/segment.js';
import { buildSegment, invertDocs } from '../../../../src/index/segment/segment-builder.js';

const g = globalThis as { crossOriginIsolated?: boolean };

describe('Segment', () => {
  it.each([['shared', true], ['non-shared (a page without cross-origin isolation)', false]])('docFreq and hitCount read the term table before and after the core memory grows: %s memory', (_name, shared) => {
    const was = g.crossOriginIsolated;
    g.crossOriginIsolated = shared;
    let core: Core;
    try { core = new Core(); } finally { if (was === undefined) delete g.crossOriginIsolated; else g.crossOriginIsolated = was; }
    expect(core.shared).toBe(shared);
    const schema = { fields: ['f'], attrs: [] };
    const seg = new Segment(core, schema, buildSegment(schema, invertDocs(schema, [
      { docId: 1n, fields: [{ terms: ['a', 'b', 'a'], positions: [1, 2, 3], length: 3 }], attrs: [] },
      { docId: 2n, fields: [{ terms: ['a', 'c'], positions: [1, 2], length: 2 }], attrs: [] },
    ])));
    const stats = () => ['a', 'b', 'c'].map((w) => { const t = seg.termId(w); return [seg.docFreq(t), seg.hitCount(t)]; });
    expect(stats()).toEqual([[2, 3], [1, 1], [1, 1]]);
    const before = core.buffer.byteLength;
    core.alloc(before + (1 << 20)); // forces memory.grow: a non-shared memory detaches the old views
    expect(core.buffer.byteLength).toBeGreaterThan(before);
    expect(stats()).toEqual([[2, 3], [1, 1], [1, 1]]);
  });
});
