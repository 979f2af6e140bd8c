/**
 * The bridge to the core's positionsOut (assembly/plan/positions-out.ts): runs an encoded plan on
 * one row of a placed segment and reads the root's hits, for highlighting.
 */
import type { Core } from './core.js';

/** Words per hit the core writes: | hitpos (field << 24 | pos) | span |. */
const PO_WORDS = 2;
/** First guess of the hit count; the call is repeated once when the row has more. */
const INITIAL_CAP = 256;

const CORE_ERRORS: Record<number, string> = { [-1]: 'malformed query plan', [-2]: 'malformed segment', [-3]: 'out of memory' };

interface PositionsExports {
  positionsOut(seg: number, plan: number, planLen: number, row: number, out: number, cap: number): number;
}

/**
 * The matched occurrences of `plan` in row `row`: pairs (hitpos, span) in hit order, hitpos =
 * field << 24 | pos; empty when the row does not satisfy the whole query.
 */
export function positionsOut(core: Core, segDesc: number, plan: Uint32Array, row: number): Uint32Array {
  const fn = (core.exports as unknown as PositionsExports).positionsOut;
  const planPtr = core.alloc(plan.byteLength);
  let cap = INITIAL_CAP;
  let outPtr = core.alloc(cap * PO_WORDS * 4);
  try {
    core.u32.set(plan, planPtr >>> 2);
    let n = fn(segDesc, planPtr, plan.length, row, outPtr, cap);
    if (n > cap) {
      core.free(outPtr);
      outPtr = 0;
      cap = n;
      outPtr = core.alloc(cap * PO_WORDS * 4);
      n = fn(segDesc, planPtr, plan.length, row, outPtr, cap);
    }
    if (n < 0) throw new Error(`quarry wasm core: ${CORE_ERRORS[n] ?? `error ${n}`}`);
    return core.u32.slice(outPtr >>> 2, (outPtr >>> 2) + n * PO_WORDS);
  } finally {
    core.free(planPtr);
    core.free(outPtr);
  }
}
