// The bridge: one compiled module, many instances; views survive memory.grow; plan errors surface.
import { describe, expect, it } from 'vitest';
import { Core, sharedCore } from '../../../src/wasm/core.js';
import { coreModule, defaultBuild } from '../../../src/wasm/core-module.js';
import { encodePlan } from '../../../src/wasm/plan-encoder.js';
import { runPlan } from '../../../src/wasm/segment-runner.js';
import { INNER_WORDS, NO_TERM, OPS, PLAN_HEADER_WORDS, PLAN_MAGIC, TERM_WORDS, type PlanSpec } from '../../../src/wasm/plan-format.js';
import { Segment } from '../../../src/index/segment/segment.js';
import { buildSegment, invertDocs } from '../../../src/index/segment/segment-builder.js';

const spec = (over: Partial<PlanSpec> = {}): PlanSpec => ({
  ranker: 0, flags: 0, weights: [1], root: null, filters: [], sort: [], allowPtr: 0, maxQpos: 0, ...over,
});

describe('core module', () => {
  it('uses the debug build under vitest and compiles once', () => {
    expect(defaultBuild()).toBe('debug');
    expect(coreModule()).toBe(coreModule());
    expect(sharedCore()).toBe(sharedCore());
    expect(new Core().exports.segmentVersion()).toBe(1);
  });
  it('instances have separate memories', () => {
    const a = new Core();
    const b = new Core();
    const p = a.place(new Uint8Array([1, 2, 3]));
    const q = b.place(new Uint8Array([9, 9, 9]));
    expect(Array.from(a.read(p, 3))).toEqual([1, 2, 3]);
    expect(Array.from(b.read(q, 3))).toEqual([9, 9, 9]);
  });
  it('re-makes views after memory.grow', () => {
    const c = new Core();
    const p = c.place(new Uint8Array([7, 7]));
    const before = c.buffer.byteLength;
    const big = c.alloc(before * 2);
    expect(c.buffer.byteLength).toBeGreaterThan(before);
    expect(c.u8[p]).toBe(7);
    c.u8[big + before] = 5;
    expect(c.read(big + before, 1)[0]).toBe(5);
  });
});

describe('plan encoding', () => {
  it('lays out the header, nodes and sizes', () => {
    const words = encodePlan(spec({
      root: { op: 'and', children: [
        { op: 'term', termId: 3, qpos: 1, fieldMask: 1, maxPos: 0, flags: 0, idf: 0.5 },
        { op: 'term', termId: NO_TERM, qpos: 2, fieldMask: 1, maxPos: 0, flags: 0, idf: 0 },
      ] },
    }));
    expect(words[0]).toBe(PLAN_MAGIC);
    const root = words[5];
    expect(root).toBe(PLAN_HEADER_WORDS + 1);
    expect(words[root]).toBe(OPS.and);
    expect(words[root + 1]).toBe(INNER_WORDS + 2 * TERM_WORDS);
    expect(words[root + INNER_WORDS + 2]).toBe(3);
    expect(new Float32Array(words.buffer, (root + INNER_WORDS + 7) * 4, 1)[0]).toBe(0.5);
  });
  it('the core rejects malformed plans and segments with error codes', () => {
    const core = new Core();
    const schema = { fields: ['f'], attrs: [] };
    const seg = new Segment(core, schema, buildSegment(schema, invertDocs(schema, [
      { docId: 1n, fields: [{ terms: ['x'], positions: [1], length: 1 }], attrs: [] },
    ])));
    expect(runPlan(core, seg.descPtr, encodePlan(spec()), 10).total).toBe(1);
    const bad = encodePlan(spec({ root: { op: 'and', children: [] } }));
    bad[bad[5] + 1] = 999; // subtree size past the end
    expect(() => runPlan(core, seg.descPtr, bad, 10)).toThrow('malformed query plan');
    const noMagic = encodePlan(spec());
    noMagic[0] = 0;
    expect(() => runPlan(core, seg.descPtr, noMagic, 10)).toThrow('malformed query plan');
    core.u32[seg.blobPtr >>> 2] = 0; // corrupt the segment magic
    expect(() => runPlan(core, seg.descPtr, encodePlan(spec()), 10)).toThrow('malformed segment');
  });
});

describe('every match (ALL_MATCHES)', () => {
  it('returns every match in match order without the top-K heap; the same set as a full top-K', () => {
    const core = new Core();
    const schema = { fields: ['f'], attrs: [] };
    const docs = Array.from({ length: 50 }, (_, i) => ({ docId: BigInt(i + 1), fields: [{ terms: i % 3 ? ['x'] : ['y'], positions: [1], length: 1 }], attrs: [] }));
    const seg = new Segment(core, schema, buildSegment(schema, invertDocs(schema, docs)));
    const all = runPlan(core, seg.descPtr, encodePlan(spec()), seg.rows, true);
    expect(Array.from(all.rowIds)).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(all.total).toBe(50);
    const top = runPlan(core, seg.descPtr, encodePlan(spec()), seg.rows);
    expect([...top.rowIds].sort((a, b) => a - b)).toEqual([...all.rowIds]);
  });
});
