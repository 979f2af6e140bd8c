// mergedRows against a row-by-row model: ids copied run by run over any pattern of deleted rows
// (whole bitmap bytes dead or live, runs crossing byte edges), and the rows deleted or left stale
// since a merge thread's snapshot; and the same rows from the row maps a merge thread sends back.
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RtIndex } from '../../../../src/index/rt-index.js';
import { blobIds, mergedRows, rowsFromForward } from '../../../../src/index/parallel/merge-job.js';
import { mergeWithRowMaps } from '../../../../src/index/segment/segment-merger.js';
import { SegmentView } from '../../../../src/index/segment/segment-view.js';
import { idHalves } from '../../../../src/index/doc-map.js';
import { doc } from '../helpers.js';

const schema = { fields: ['body'], attrs: [{ name: 'n', type: 'uint' as const }] };

describe('mergedRows', () => {
  it('agrees with a row-by-row model, with and without a snapshot', () => {
    const part = fc.record({ rows: fc.integer({ min: 1, max: 40 }), before: fc.array(fc.nat(39)), after: fc.array(fc.nat(39)) });
    fc.assert(fc.property(fc.array(part, { minLength: 1, maxLength: 4 }), fc.boolean(), (spec, withSnap) => {
      const idx = new RtIndex(schema, { autoMerge: false });
      let id = 0;
      for (const s of spec) idx.addBatch(Array.from({ length: s.rows }, () => doc(schema, (++id) * 4_294_967_311, { body: 'w' }, [id])));
      const parts = idx.segments.slice();
      const del = (rows: number[], pi: number) => rows.filter((r) => r < parts[pi].rows).forEach((r) => parts[pi].markDeleted(r));
      spec.forEach((s, pi) => del(s.before, pi));
      const snap = parts.map((p) => ({ deleted: p.deletedBitmap(), version: p.version }));
      if (withSnap) spec.forEach((s, pi) => del(s.after, pi));
      // the model: the rows live in the snapshot, in order
      const ids: number[] = [], gone: number[] = [], stale: number[] = [], src: number[][] = [[], []];
      parts.forEach((p, pi) => {
        for (let r = 0; r < p.rows; r++) {
          if ((snap[pi].deleted[r >>> 3] >>> (r & 7)) & 1) continue;
          const m = ids.length / 2;
          ids.push(...idHalves(p.docId(r)));
          src[0].push(pi); src[1].push(r);
          const isGone = p.isDeleted(r) ? 1 : 0;
          gone.push(isGone);
          if (!isGone && p.version !== snap[pi].version) stale.push(m, pi, r);
        }
      });
      const got = mergedRows(parts, withSnap ? snap : undefined, true);
      expect(got.n).toBe(ids.length / 2);
      expect([...got.ids]).toEqual(ids);
      expect([...got.gone]).toEqual(withSnap ? gone : gone.map(() => 0));
      expect(got.stale).toEqual(withSnap ? stale : []);
      expect([[...got.part], [...got.row]]).toEqual(src);
      expect(mergedRows(parts, withSnap ? snap : undefined).part.length).toBe(0);
      // a merge thread's result: its row maps (merged over the snapshot) give the same rows, and the
      // merged blob's id column the same ids
      const views = parts.map((p, pi) => new SegmentView(p.core.exports.memory.buffer, schema, p.blobPtr, p.terms, snap[pi].deleted));
      const { built, maps } = mergeWithRowMaps(schema, views);
      expect(maps.map((m) => [...m])).toEqual(got.forward.map((m) => [...m]));
      for (const sources of [true, false]) {
        const fromMaps = rowsFromForward(parts, withSnap ? snap : parts.map((p) => ({ deleted: p.deletedBitmap(), version: p.version })), maps, sources);
        expect({ ...fromMaps, ids: got.ids, part: [...fromMaps.part], row: [...fromMaps.row] })
          .toEqual({ ...got, part: sources ? [...got.part] : [], row: sources ? [...got.row] : [] });
      }
      expect([...blobIds(built.blob, got.n)]).toEqual(ids);
    }), { numRuns: 200 });
  });
});
