// Raw memory for the host (alloc/free) and a growable scratch vector addressed by index.

/** Allocates `size` bytes, 16-byte aligned (TLSF); the host places segments and plans there. */
export function alloc(size: usize): usize {
  if (size >= EXACT_FIT_MIN) {
    const p = allocInClass(size);
    if (p) return p;
  }
  return heap.alloc(size);
}

/** From this size up, alloc looks for a free block in the request's own size class first. */
const EXACT_FIT_MIN: usize = 1 << 20;
/** TLSF's second-level bits: 16 size classes between two powers of two. */
const SL_BITS: u32 = 4;
/** How many blocks of the class alloc tries before giving up on it. */
const CLASS_TRIES = 8;

/**
 * TLSF is good-fit: it rounds a request up to the next size class, so it never uses a free block of
 * the request's own class, up to 1/16 too small to be sure. A merge frees its parts and then places the
 * merged segment, nearly as large as they were (equal words and deleted rows dropped): TLSF left that
 * hole and grew the memory, and a wasm memory never gives pages back, so the parts' pages stayed
 * resident beside the merged ones (at 1M documents, tens of MiB after each large merge). Here a large
 * request first asks for a block of its own class (a request at the class's lower bound, which TLSF
 * rounds no further), takes it if it or its free right neighbour holds `size` (an in-place realloc),
 * and tries a few blocks of the class before falling back to TLSF's own search. A block it set aside is
 * freed again (coalescing as before). Never grows the memory where TLSF's own search would not.
 */
function allocInClass(size: usize): usize {
  const fl = <u32>(31 - clz<u32>(<u32>size));
  const lower = size & ~((<usize>1 << (fl - SL_BITS)) - 1);
  // payload lower - 4: TLSF rounds it up to `lower`'s class, not past it
  const request = lower - 16;
  // the blocks set aside are listed through their own first word: no static memory, which the
  // instances on worker threads share, and no allocation that would sit between blocks
  let aside: usize = 0;
  let found: usize = 0;
  for (let i = 0; i < CLASS_TRIES && !found; i++) {
    const pages = memory.size();
    const p = heap.alloc(request);
    if (fits(p, size)) found = heap.realloc(p, size); // in place: the block or its free right neighbour
    else {
      store<usize>(p, aside);
      aside = p;
    }
    if (memory.size() != pages) break; // grown: nothing of the class was free
  }
  while (aside) {
    const next = load<usize>(aside);
    heap.free(aside);
    aside = next;
  }
  return found;
}

/** Whether the used block at `p`, merged with its right neighbour when that is free, holds `size` bytes. */
function fits(p: usize, size: usize): bool {
  const need = ((size + 4 + 15) & ~(<usize>15)) - 4; // TLSF's payload for `size`
  const own = load<u32>(p - 4) & ~3;
  if (<usize>own >= need) return true;
  const right = load<u32>(p + own);
  return (right & 1) != 0 && <usize>own + 4 + <usize>(right & ~3) >= need;
}

export function free(ptr: usize): void {
  heap.free(ptr);
}

/**
 * A growable array of u32 words. Callers keep indices, never pointers, across pushes: a push may
 * move the storage.
 */
export class WordVec {
  ptr: usize = 0;
  len: u32 = 0;
  cap: u32 = 0;

  ensure(extra: u32): void {
    const need = this.len + extra;
    if (need <= this.cap) return;
    let cap = this.cap < 256 ? <u32>256 : this.cap;
    while (cap < need) cap <<= 1;
    this.ptr = this.ptr == 0 ? heap.alloc(<usize>cap << 2) : heap.realloc(this.ptr, <usize>cap << 2);
    this.cap = cap;
  }

  @inline at(i: u32): u32 {
    return load<u32>(this.ptr + (<usize>i << 2));
  }

  @inline set(i: u32, v: u32): void {
    store<u32>(this.ptr + (<usize>i << 2), v);
  }
}

/**
 * A u32 list with Array's surface (index, push, length) over a WordVec: unmanaged storage, so a
 * growing list never goes through the runtime's object lists, which every instance sharing the
 * memory would otherwise write (see build/worker-heap.js).
 */
export class U32List {
  v: WordVec = new WordVec();

  get length(): i32 { return <i32>this.v.len; }
  set length(n: i32) {
    if (<u32>n > this.v.len) this.v.ensure(<u32>n - this.v.len);
    this.v.len = <u32>n;
  }

  @operator("[]") get(i: i32): u32 { return this.v.at(<u32>i); }
  @operator("[]=") set(i: i32, x: u32): void { this.v.set(<u32>i, x); }

  push(x: u32): void {
    this.v.ensure(1);
    this.v.set(this.v.len++, x);
  }
}
