// The merge job protocol (merge-wire.ts) with the compiled merge thread: dictionaries of segments the
// thread built go back to it by key, others ahead of the job in chunks, a big merged dictionary comes
// back in chunks, and what the thread builds is what an inline merge builds.
import { Worker } from 'node:worker_threads';
import { afterAll, describe, expect, it } from 'vitest';
import { RtIndex } from '../../../../src/index/rt-index.js';
import { TieredMergePolicy } from '../../../../src/index/merge-policy.js';
import { setMergeRunnerFactory } from '../../../../src/index/parallel/merge-job.js';
import { Segment } from '../../../../src/index/segment/segment.js';
import { mergeSegments, mergeWithRowMaps } from '../../../../src/index/segment/segment-merger.js';
import { Core } from '../../../../src/wasm/core.js';
import { mergeThreadRunner } from '../../../../src/engine/background/merge-thread.js';
import { TERMS_CHUNK, type AddMessage, type JobMessage } from '../../../../src/engine/background/merge-wire.js';
import { doc, req, t } from '../../index/helpers.js';
import { mergeSchema as schema } from '../../index/merge-ops.js';

const WORKER = new URL('../../../../dist/src/engine/background/merge-worker.js', import.meta.url);

describe('the merge job protocol', () => {
  afterAll(() => setMergeRunnerFactory(null));

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
});
