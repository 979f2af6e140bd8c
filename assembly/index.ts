// The whole wasm API: flat functions over scalars (ptr, len). No strings, no throws: a negative
// return is an E_* code (util/codes.ts). The bytecode and blob formats: plan/format.ts and
// segment/layout.ts.

export { alloc, free } from "./memory/heap";
export { evaluate, evaluateRange, lastTotal, lastPruned } from "./plan/evaluate";
export { unpack, unpackOne, undelta } from "./postings/bitpack";
export { intersectSorted } from "./plan/intersect";
export { cursorInit, cursorSeek, cursorAdvance, cursorTf, cursorPositions } from "./postings/cursor";
export { cursorBytes } from "./postings/cursor";

/** Format versions the host checks once after instantiating. */
export function segmentVersion(): u32 {
  return 1;
}
export function planVersion(): u32 {
  return 1;
}
export { snippetPick } from "./snippet/pick";
export { exprColumn } from "./rank/expr-column";
export { positionsOut } from "./plan/positions-out";
export { scanReset, scanCount, scanKeyOffsets, scanKeyLengths, scanArena } from "./text/scan-ids";
export { scanField, scanFields } from "./text/scan";
export { stemIds } from "./text/stem-en";
export { snipStream, snipUnknownCount, snipResults } from "./snippet/scan-stream";
export { groupRange, groupResult } from "./group/run";
export { budgetSet, budgetExceeded } from "./memory/budget";
export { heapStats } from "./memory/heap-stats";
