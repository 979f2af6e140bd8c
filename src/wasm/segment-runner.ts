/** Runs one encoded plan over one placed segment: one evaluate() call, results read at once. */
import type { Core } from './core.js';

export interface TopK {
  rowIds: Uint32Array;
  weights: Int32Array;
  /** Matches after deletes and filters in this segment. */
  total: number;
}

const CORE_ERRORS: Record<number, string> = {
  [-1]: 'malformed query plan',
  [-2]: 'malformed segment',
  [-3]: 'out of memory',
};

/** Counts evaluate() calls, so tests can check there is one per segment per query. */
export const evaluateCalls = { count: 0 };

/** evaluate()'s flag on `k` (assembly/plan/evaluate.ts ALL_MATCHES): every match, unsorted. */
const ALL_MATCHES = 0x80000000;

/**
 * Runs a plan over one segment: the top `k` matches best first, or with `all` every match (k must
 * cover them: the segment's rows) in the core's match order, without the top-K heap.
 */
export function runPlan(core: Core, segDesc: number, plan: Uint32Array, k: number, all = false): TopK {
  const planPtr = core.alloc(plan.byteLength);
  const outPtr = core.alloc(Math.max(k, 1) * 8);
  try {
    core.u32.set(plan, planPtr >>> 2);
    evaluateCalls.count++;
    const n = core.exports.evaluate(segDesc, planPtr, plan.length, all ? (k | ALL_MATCHES) >>> 0 : k, outPtr);
    if (n < 0) throw new Error(`quarry wasm core: ${CORE_ERRORS[n] ?? `error ${n}`}`);
    const words = core.u32.subarray(outPtr >>> 2, (outPtr >>> 2) + n * 2);
    const rowIds = new Uint32Array(n);
    const weights = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      rowIds[i] = words[2 * i];
      weights[i] = words[2 * i + 1] | 0;
    }
    return { rowIds, weights, total: core.exports.lastTotal() >>> 0 };
  } finally {
    core.free(planPtr);
    core.free(outPtr);
  }
}
