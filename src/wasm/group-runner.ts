/**
 * Runs the core's groupRange() over one placed segment (or a range of its rows) and reads the result
 * block it wrote: the only file touching core memory for grouping. The block is copied out and
 * freed at once, so nothing of it depends on the core afterwards.
 */
import { coreFault, type Core } from './core.js';
import { PROGRAM_OUT_WORDS, RESULT_HEADER_WORDS, RF_FALLBACK } from './group-format.js';
import { readTopK } from './segment-runner.js';

/** One program's records: `n` of `recordBytes` each from byte `offset` of `view`. */
export interface GroupRecords { view: DataView; offset: number; n: number; recordBytes: number }

/** What one groupRange() call found. */
export interface GroupBlock {
  /** Matches after deletes and filters. */
  total: number;
  /** The core saw what only the host folds right: the block carries its matches for that. */
  fallback: boolean;
  programs: GroupRecords[];
  /** The matches (rowId, weight) in row order when the spec asked for them; null when there are none. */
  matches: { rowIds: Uint32Array; weights: Int32Array } | null;
}

/** Reads a block (a copy of the core's bytes, 8-aligned). */
export function readGroupBlock(bytes: Uint8Array): GroupBlock {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const u32 = (w: number) => view.getUint32(w * 4, true);
  const np = u32(1);
  const programs: GroupRecords[] = [];
  for (let p = 0; p < np; p++) {
    const h = RESULT_HEADER_WORDS + p * PROGRAM_OUT_WORDS;
    programs.push({ view, n: u32(h), recordBytes: u32(h + 1), offset: u32(h + 2) });
  }
  const nMatches = u32(3);
  let matches: GroupBlock['matches'] = null;
  if (nMatches > 0) {
    const words = new Uint32Array(bytes.buffer, bytes.byteOffset + u32(4), nMatches * 2);
    const rowIds = new Uint32Array(nMatches);
    const weights = new Int32Array(nMatches);
    for (let i = 0; i < nMatches; i++) {
      rowIds[i] = words[2 * i]!;
      weights[i] = words[2 * i + 1]! | 0;
    }
    matches = { rowIds, weights };
  }
  return { total: u32(0), fallback: (u32(2) & RF_FALLBACK) !== 0, programs, matches };
}

/** Counts groupRange() calls: tests check one per segment per query, however many groupings. */
export const groupCalls = { count: 0 };

/** Runs groupRange over rows [from, to) with the plan and spec already placed; reads the block. */
export function runGroupRangeAt(
  core: Core, segDesc: number, planPtr: number, planWords: number, specPtr: number, specWords: number, from: number, to: number,
): GroupBlock {
  groupCalls.count++;
  let n: number;
  try {
    n = core.exports.groupRange(segDesc, planPtr, planWords, specPtr, specWords, from, to);
  } catch (e) {
    throw coreFault(e, core);
  }
  if (n < 0) readTopK(core, 0, n, 0); // throws the E_* code's message
  const ptr = core.exports.groupResult() >>> 0;
  const bytes = core.read(ptr, n);
  core.free(ptr);
  return readGroupBlock(bytes);
}

/** Places a plan and a spec, runs groupRange over rows [from, to) of the segment at `segDesc`, reads the block. */
export function runGroupRange(core: Core, segDesc: number, plan: Uint32Array, spec: Uint32Array, from = 0, to = 0x7fffffff): GroupBlock {
  const planPtr = core.alloc(plan.byteLength);
  const specPtr = core.alloc(spec.byteLength);
  try {
    core.u32.set(plan, planPtr >>> 2);
    core.u32.set(spec, specPtr >>> 2);
    return runGroupRangeAt(core, segDesc, planPtr, plan.length, specPtr, spec.length, from, to);
  } finally {
    core.free(planPtr);
    core.free(specPtr);
  }
}
