// Merges on the merge thread (the compiled worker in dist/, as the server runs it): writes, deletes,
// attribute updates, OPTIMIZE and TRUNCATE that arrive while a merge is in flight all survive its swap,
// and the index answers as one that never merged.
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { RtIndex } from '../../../../src/index/rt-index.js';
import { TieredMergePolicy } from '../../../../src/index/merge-policy.js';
import { setMergeRunnerFactory, type MergeRunnerFactory } from '../../../../src/index/parallel/merge-job.js';
import { Core } from '../../../../src/wasm/core.js';
import { mergeThreadRunner } from '../../../../src/engine/background/merge-thread.js';
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
