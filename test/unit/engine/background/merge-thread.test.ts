// Merges on the merge thread (the compiled worker in dist/, as the server runs it): writes, deletes,
// attribute updates, OPTIMIZE and TRUNCATE that arrive while a merge is in flight all survive its swap,
// and the index answers as one that never merged; the thread's own segments go back to it by key,
// others' dictionaries ahead of the job in chunks, and a big merged dictionary comes back in chunks.
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RtIndex } from '../../../../src/index/rt-index.js';
import { TieredMergePolicy } from '../../../../src/index/merge-policy.js';
import { setMergeRunnerFactory, type MergeRunnerFactory } from '../../../../src/index/parallel/merge-job.js';
import { Core } from '../../../../src/wasm/core.js';
import { Segment } from '../../../../src/index/segment/segment.js';
import { mergeSegments, mergeWithRowMaps } from '../../../../src/index/segment/segment-merger.js';
import { mergeThreadRunner } from '../../../../src/engine/background/merge-thread.js';
import { TERMS_CHUNK, type AddMessage, type JobMessage } from '../../../../src/engine/background/merge-wire.js';
import { doc, req, t } from '../../index/helpers.js';
import { applyMergeOp, expectModel, mergeOps, mergeSchema, type MergeOp } from '../../index/merge-ops.js';

const WORKER = new URL('../../../../dist/src/engine/background/merge-worker.js', import.meta.url);
const schema = mergeSchema;

type Op = MergeOp | { kind: 'truncate' } | { kind: 'wait'; turns: number };

const [add] = mergeOps(80);
const op: fc.Arbitrary<Op> = fc.oneof(
  ...mergeOps(80), add, add, add, add,
  fc.constant({ kind: 'truncate' as const }),
  fc.record({ kind: fc.constant('wait' as const), turns: fc.integer({ min: 1, max: 4 }) }),
  fc.record({ kind: fc.constant('wait' as const), turns: fc.integer({ min: 1, max: 4 }) }),
);

describe('merges on the merge thread', () => {
  let jobs = 0;
  /** Called when the next job goes to the thread (before it is back). */
  let onJob: (() => void) | null = null;
  afterAll(() => setMergeRunnerFactory(null));

  it('finds the compiled worker (npm test builds it first)', () => {
    expect(existsSync(fileURLToPath(WORKER))).toBe(true);
    const real = mergeThreadRunner(WORKER);
    const counting: MergeRunnerFactory = (core) => {
      const run = real(core)!;
      return (job) => {
        jobs++;
        const p = run(job);
        onJob?.();
        return p;
      };
    };
    setMergeRunnerFactory(counting);
  });

  it('loses no write, delete or update that came in while a merge ran, and answers as before', async () => {
    const core = new Core();
    expect(core.shared).toBe(true);
    await fc.assert(fc.asyncProperty(fc.array(op, { maxLength: 50 }), async (ops) => {
      const idx = new RtIndex(schema, { core, mergePolicy: new TieredMergePolicy(2) }); // merges at every chance
      const model = new Map<number, [number, string]>();
      for (const o of ops) {
        if (o.kind === 'truncate') {
          idx.truncate();
          model.clear();
        } else if (o.kind === 'wait') {
          for (let i = 0; i < o.turns; i++) await new Promise((r) => setTimeout(r, 1));
        } else {
          applyMergeOp(idx, model, o);
        }
      }
      await idx.whenMerged();
      expectModel(idx, model, 80);
      const hits = idx.search(req(t('common'), { limit: 100 })).hits.map((h) => Number(h.docId)).sort((a, b) => a - b);
      expect(hits).toEqual([...model.keys()].sort((a, b) => a - b));
      for (const id of model.keys()) expect(idx.search(req(t(`w${id}`))).hits.map((h) => Number(h.docId))).toEqual([id]);
      idx.truncate();
    }), { numRuns: 80 });
    expect(jobs).toBeGreaterThan(10);
  });

  it('swaps in a merge whose parts were deleted from, updated and replaced while it ran', async () => {
    // levels from one row up (no floor): the merged segment and the REPLACE's one stay apart
    const idx = new RtIndex(schema, { core: new Core(), mergePolicy: new TieredMergePolicy(2, Infinity, 1) });
    const inFlight = new Promise<void>((r) => { onJob = r; });
    idx.addBatch([1, 2, 3].map((id) => doc(schema, id, { body: `w${id} common` }, [id, `s${id}`])));
    idx.addBatch([4, 5, 6].map((id) => doc(schema, id, { body: `w${id} common` }, [id, `s${id}`])));
    await inFlight;
    onJob = null;
    idx.delete([2n]);
    idx.updateAttrs(5n, new Map<string, number | string>([['n', 50], ['s', 'five']]));
    idx.delete([6n]);
    idx.addBatch([doc(schema, 6, { body: 'w6 again' }, [60, 'six'])]); // REPLACE = delete + add
    await idx.whenMerged();
    expect(idx.segments.length).toBeLessThanOrEqual(2);
    expect(idx.segments[0].rows).toBe(6); // the merge ran over the rows live when it started
    expect(idx.count()).toBe(5);
    expect(idx.has(2n)).toBe(false);
    expect(idx.getAttrs(5n)).toEqual([50, 'five']);
    expect(idx.getAttrs(6n)).toEqual([60, 'six']);
    expect(idx.search(req(t('common'), { limit: 100 })).hits.map((h) => Number(h.docId)).sort()).toEqual([1, 3, 4, 5]);
    expect(idx.search(req(t('again'))).hits.map((h) => Number(h.docId))).toEqual([6]);
    idx.truncate();
  });

  it('names the dictionaries of segments it built by key, sends others ahead in chunks, and brings a big merged dictionary back whole', async () => {
    const jobs: JobMessage[] = [];
    const added: AddMessage[] = [];
    const post = Worker.prototype.postMessage;
    Worker.prototype.postMessage = function (this: Worker, m: unknown, t?: unknown) {
      if ((m as JobMessage).job) jobs.push(m as JobMessage);
      if ((m as AddMessage).add) added.push(m as AddMessage);
      return post.call(this, m, t as never);
    };
    setMergeRunnerFactory(mergeThreadRunner(WORKER));
    try {
      const idx = new RtIndex(schema, { core: new Core(), mergePolicy: new TieredMergePolicy(2) });
      // each batch's dictionary over a chunk; the first two merged, then with the third of their size:
      // that job names the merged one by the thread's key, and its dictionary comes back in five chunks
      const sizes = [TERMS_CHUNK + 100, TERMS_CHUNK + 100, 2 * TERMS_CHUNK + 200];
      let id = 0;
      const firstGen: number[] = [];
      for (const size of sizes) {
        idx.addBatch(Array.from({ length: size }, () => { id++; return doc(schema, id, { body: `w${id} common` }, [id, `s${id}`]); }));
        firstGen.push(idx.segments[idx.segments.length - 1].terms.length);
        await idx.whenMerged();
      }
      expect(idx.segments.length).toBe(1);
      const seg = idx.segments[0];
      expect(seg.terms.length).toBeGreaterThan(4 * TERMS_CHUNK);
      expect(seg.terms).toEqual([...seg.terms].sort());
      // the batches' own dictionaries went ahead, at most a chunk a message; merged ones by the thread's key
      expect(added.every((a) => a.add < 0 && a.terms.length <= TERMS_CHUNK)).toBe(true);
      expect(added.reduce((n, a) => n + a.terms.length, 0)).toBe(firstGen.reduce((n, x) => n + x, 0));
      expect(jobs.map((j) => j.job.parts.map((p) => Math.sign(p.key)))).toEqual([[-1, -1], [1, -1]]);
      for (const probe of [1, sizes[0], sizes[0] + 7, id]) {
        expect(idx.search(req(t(`w${probe}`))).hits.map((h) => Number(h.docId))).toEqual([probe]);
        expect(idx.getAttrs(BigInt(probe))).toEqual([probe, `s${probe}`]);
      }
      expect(idx.search(req(t('common'), { limit: 1 })).totalFound).toBe(id);
      idx.truncate();
    } finally {
      Worker.prototype.postMessage = post;
      setMergeRunnerFactory(null);
    }
  });

  it('builds the bytes and row maps an inline merge builds, over parts it was sent and parts it built', async () => {
    const core = new Core();
    const run = mergeThreadRunner(WORKER)(core)!;
    const idx = new RtIndex(schema, { core, autoMerge: false });
    for (let b = 0; b < 4; b++) idx.addBatch(Array.from({ length: 50 }, (_, i) => doc(schema, b * 50 + i + 1, { body: `w${i % 7} x${b} common` }, [i, `s${i}`])));
    idx.delete([3n, 120n]);
    const job = (parts: readonly Segment[]) => ({ schema, parts: parts.map((p) => ({ blobPtr: p.blobPtr, deleted: p.deletedBitmap(), terms: p.terms })) });
    const first = await run(job(idx.segments.slice(0, 2)));
    const inline = mergeWithRowMaps(schema, idx.segments.slice(0, 2));
    expect(Buffer.from(first.blob).equals(Buffer.from(inline.built.blob))).toBe(true);
    expect(first.terms).toEqual(inline.built.terms);
    expect(first.forward!.map((m) => [...m])).toEqual(inline.maps.map((m) => [...m]));
    // the thread's result placed, then merged again with the rest: it is named by key this time
    const placed = new Segment(core, schema, first);
    const again = await run(job([placed, ...idx.segments.slice(2)]));
    expect(Buffer.from(again.blob).equals(Buffer.from(mergeSegments(schema, [placed, ...idx.segments.slice(2)]).blob))).toBe(true);
    placed.free();
    idx.truncate();
  });

  it('ends an idle merge thread (its heap goes with it) and starts a new one for the next merge', async () => {
    const threads = () => readdirSync('/proc/self/task').length;
    setMergeRunnerFactory(mergeThreadRunner(WORKER, 100));
    try {
      const idx = new RtIndex(schema, { core: new Core(), mergePolicy: new TieredMergePolicy(2) });
      const before = threads();
      for (const round of [0, 1]) {
        idx.addBatch([1, 2, 3].map((i) => doc(schema, round * 10 + i, { body: `w${round * 10 + i} common` }, [i, `s${i}`])));
        idx.addBatch([4, 5, 6].map((i) => doc(schema, round * 10 + i, { body: `w${round * 10 + i} common` }, [i, `s${i}`])));
        await idx.whenMerged();
        expect(threads()).toBeGreaterThan(before); // the merge thread runs
        const until = Date.now() + 5000;
        while (threads() > before && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
        expect(threads()).toBe(before); // ended once idle
      }
      expect(idx.search(req(t('common'), { limit: 100 })).hits.map((h) => Number(h.docId)).sort((a, b) => a - b)).toEqual([1, 2, 3, 4, 5, 6, 11, 12, 13, 14, 15, 16]);
      idx.truncate();
    } finally {
      setMergeRunnerFactory(null);
    }
  });
});
