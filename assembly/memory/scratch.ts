// A LIFO scratch stack for the small per-row buffers of hit merging (run lists, FSM atoms): a bump
// pointer instead of a TLSF alloc/free pair per matched row, which cost about a tenth of a phrase
// query's CPU. Frees must come in reverse order of allocation (nested calls); a request that does not
// fit the stack's fixed block falls back to the heap, and scratchFree tells the two apart.

/** Bytes of the stack; deeper or larger requests go to the heap. */
const STACK_BYTES: usize = 64 << 10;
let base: usize = 0;
let top: usize = 0;

/** `bytes` of scratch memory (8-aligned); give it back with scratchFree, innermost first. */
export function scratchAlloc(bytes: usize): usize {
  const size = (bytes + 7) & ~(<usize>7);
  if (base == 0) {
    base = heap.alloc(STACK_BYTES);
    top = base;
  }
  if (top + size <= base + STACK_BYTES) {
    const p = top;
    top += size;
    return p;
  }
  return heap.alloc(size);
}

/** Returns `p` and everything allocated after it (LIFO) to the stack, or to the heap if it came from there. */
export function scratchFree(p: usize): void {
  if (p >= base && p < base + STACK_BYTES) top = p;
  else heap.free(p);
}

/** Empties the stack (between rows, when no call holds scratch): a trapped query cannot leak it. */
export function scratchReset(): void {
  top = base;
}
