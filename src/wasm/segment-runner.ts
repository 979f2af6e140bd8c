/** Runs one encoded plan over one placed segment: one evaluate() call, results read at once. */
import { coreFault, type Core } from './core.js';

/** evaluate()'s code when the core could not allocate (assembly/util/codes.ts E_NO_MEMORY). */
const E_NO_MEMORY = -3;

export interface TopK {
  rowIds: Uint32Array;
  weights: Int32Array;
  /** Matches after deletes and filters in this segment. */
  total: number;
}

const CORE_ERRORS: Record<number, string> = {
  [-1]: 'malformed query plan',
  [-2]: 'malformed segment',
};

/** The top-K evaluate()/evaluateRange() returned `n` for, read from `outPtr` (throws on an E_* code). */
export function readTopK(core: Core, outPtr: number, n: number, total: number): TopK {
  if (n === E_NO_MEMORY) throw coreFault(new Error('out of memory'));
  if (n < 0) throw new Error(`quarry wasm core: ${CORE_ERRORS[n] ?? `error ${n}`}`);
  const words = core.u32.subarray(outPtr >>> 2, (outPtr >>> 2) + n * 2);
  const rowIds = new Uint32Array(n);
  const weights = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    rowIds[i] = words[2 * i];
    weights[i] = words[2 * i + 1] | 0;
  }
  return { rowIds, weights, total };
}

/** Counts evaluate() calls, so tests can check there is one per segment per query. */
export const evaluateCalls = { count: 0 };

/** evaluate()'s flag on `k` (assembly/plan/evaluate.ts ALL_MATCHES): every match, unsorted. */
const ALL_MATCHES = 0x80000000;

/**
 * Runs a plan over one segment: the top `k` matches best first, or with `all` every match (k must
 * cover them: the segment's rows) in the core's match order, without the top-K heap.
 */
export function runPlan(core: Core, segDesc: number, plan: Uint32Array, k: number, all = false): TopK {
  return withPlan(core, plan, k, (planPtr, outPtr) =>
    core.exports.evaluate(segDesc, planPtr, plan.length, all ? (k | ALL_MATCHES) >>> 0 : k, outPtr));
}

/**
 * runPlan over rows [from, to) of the segment only (evaluateRange): the top `k` of that range. A
 * search under max_query_time steps through a big segment this way, checking its deadline between
 * ranges; the ranges' top-Ks merge exactly as segments' do.
 */
export function runPlanRange(core: Core, segDesc: number, plan: Uint32Array, k: number, from: number, to: number): TopK {
  return withPlan(core, plan, k, (planPtr, outPtr) => core.exports.evaluateRange(segDesc, planPtr, plan.length, k, outPtr, from, to));
}

/** Places the plan and an output buffer for `k` pairs, runs `call`, reads its top-K, frees both. */
function withPlan(core: Core, plan: Uint32Array, k: number, call: (planPtr: number, outPtr: number) => number): TopK {
  const planPtr = core.alloc(plan.byteLength);
  const outPtr = core.alloc(Math.max(k, 1) * 8);
  try {
    core.u32.set(plan, planPtr >>> 2);
    evaluateCalls.count++;
    let n: number;
    try {
      n = call(planPtr, outPtr);
    } catch (e) {
      throw coreFault(e, core);
    }
    return readTopK(core, outPtr, n, n >= 0 ? core.exports.lastTotal() >>> 0 : 0);
  } finally {
    core.free(planPtr);
    core.free(outPtr);
  }
}
