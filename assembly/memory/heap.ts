// Raw memory for the host (alloc/free) and a growable scratch vector addressed by index.

/** Allocates `size` bytes, 16-byte aligned (TLSF); the host places segments and plans there. */
export function alloc(size: usize): usize {
  return heap.alloc(size);
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
