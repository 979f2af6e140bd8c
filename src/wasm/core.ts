/**
 * One instance of the WASM core and its linear memory: the only place that reads or writes it.
 * Typed-array views are re-made whenever memory.grow replaced the buffer.
 */
import { SearchError } from '../util/errors.js';
import { coreModuleFor, defaultBuild, sharedMemoryAvailable, type WasmBuild } from './core-module.js';

/** The raw exports (see assembly/index.ts). Pointers and sizes are plain numbers. */
export interface CoreExports {
  memory: WebAssembly.Memory;
  alloc(size: number): number;
  free(ptr: number): void;
  evaluate(seg: number, plan: number, planLen: number, k: number, out: number): number;
  evaluateRange(seg: number, plan: number, planLen: number, k: number, out: number, from: number, to: number): number;
  lastTotal(): number;
  /** Matching rows the last evaluate() counted without scoring them (weight-bound pruning). */
  lastPruned(): number;
  unpack(src: number, n: number, bits: number, out: number): void;
  unpackOne(src: number, i: number, bits: number): number;
  undelta(ptr: number, n: number, base: number): void;
  intersectSorted(a: number, aLen: number, b: number, bLen: number, out: number): number;
  cursorInit(c: number, blob: number, termId: number): number;
  cursorSeek(c: number, target: number): number;
  cursorAdvance(c: number): number;
  cursorTf(c: number): number;
  cursorPositions(c: number): number;
  cursorBytes(): number;
  segmentVersion(): number;
  planVersion(): number;
  /** Runs the module's top-level initializers (exported rather than run on instantiation). */
  _start(): void;
  /** Confines this instance's heap to [root + 2048, end) of a shared memory (a worker's instance). */
  heapConfine(root: number, end: number): void;
  exprColumn(blob: number, code: number, len: number, rows: number, out: number): void;
  /** Matches rows [from, to) and folds them by each program of `spec` (assembly/group/format.ts): the block's bytes or an E_* code. */
  groupRange(seg: number, plan: number, planLen: number, spec: number, specLen: number, from: number, to: number): number;
  /** The address of the block the last groupRange() wrote (the host frees it). */
  groupResult(): number;
  /** Caps each later evaluate/groupRange call's working memory at `bytes` (0: none; assembly/memory/budget.ts). */
  budgetSet(bytes: number): void;
  /** Whether the last call trapped at that cap. */
  budgetExceeded(): number;
  /** Writes the heap's account at `out` (6 u32 words; assembly/memory/heap-stats.ts). */
  heapStats(out: number): void;
}

/**
 * The main instance's heap, block by block (bytes): what is live, and what is free inside the memory.
 * `largestFree`: the largest free block below the top one; `topFree`: the top one (not yet touched, in part).
 */
export interface HeapStats { memory: number; used: number; usedBlocks: number; free: number; freeBlocks: number; largestFree: number; topFree: number }

/** wasm32's ceiling: 65536 pages of 64 KiB (the module declares it: a shared memory must have one). */
const MAX_PAGES = 65536;
const INITIAL_PAGES = 16;

/** The imports of one core instance over `memory`. */
export function coreImports(memory: WebAssembly.Memory): WebAssembly.Imports {
  return {
    env: {
      memory,
      abort(_msg: number, _file: number, line: number, col: number): never {
        throw new Error(`quarry wasm core: assertion failed at ${line}:${col}`);
      },
    },
  };
}

export class Core {
  readonly exports: CoreExports;
  #buffer: ArrayBuffer | null = null;
  #u8!: Uint8Array;
  #u32!: Uint32Array;
  #i32!: Int32Array;
  #f32!: Float32Array;
  #i64!: BigInt64Array;

  readonly build: WasmBuild;
  readonly module: WebAssembly.Module;
  /** Whether the memory is a SharedArrayBuffer that worker threads can run instances over. */
  readonly shared: boolean;

  /**
   * The memory is shared where that works (Node, a cross-origin isolated page): worker threads run
   * instances of the same module over it (src/wasm/worker-pool.ts), reading the segments this
   * instance placed, never copying them.
   */
  constructor(build: WasmBuild = defaultBuild()) {
    this.build = build;
    const { module, shared } = coreModuleFor(build, sharedMemoryAvailable());
    this.module = module;
    this.shared = shared;
    const memory = new WebAssembly.Memory({ initial: INITIAL_PAGES, maximum: MAX_PAGES, shared });
    const instance = new WebAssembly.Instance(module, coreImports(memory));
    this.exports = instance.exports as unknown as CoreExports;
    this.exports._start();
  }

  #refresh(): void {
    const buf = this.exports.memory.buffer;
    if (buf === this.#buffer) return;
    this.#buffer = buf;
    this.#u8 = new Uint8Array(buf);
    this.#u32 = new Uint32Array(buf);
    this.#i32 = new Int32Array(buf);
    this.#f32 = new Float32Array(buf);
    this.#i64 = new BigInt64Array(buf);
  }

  get u8(): Uint8Array { this.#refresh(); return this.#u8; }
  get u32(): Uint32Array { this.#refresh(); return this.#u32; }
  get i32(): Int32Array { this.#refresh(); return this.#i32; }
  get f32(): Float32Array { this.#refresh(); return this.#f32; }
  /** Index = byte address / 8; the data must be 8-aligned (segment columns are). */
  get i64(): BigInt64Array { this.#refresh(); return this.#i64; }
  get buffer(): ArrayBuffer { this.#refresh(); return this.#buffer as ArrayBuffer; }

  /** Allocates `size` bytes (16-aligned); throws a QUERY_ERROR when the core is out of memory. */
  alloc(size: number): number {
    let p: number;
    try {
      p = this.exports.alloc(Math.max(size, 16));
    } catch (e) {
      throw coreFault(e);
    }
    if (p === 0) throw coreFault(new Error('out of memory'));
    return p >>> 0;
  }

  free(ptr: number): void {
    if (ptr) this.exports.free(ptr);
  }

  /** The per-call working-memory cap in bytes (0: none); worker instances started later take it too. */
  get queryMemory(): number {
    return this.#queryMemory;
  }

  set queryMemory(bytes: number) {
    this.#queryMemory = bytes;
    this.exports.budgetSet(bytes);
  }

  #queryMemory = 0;

  /** Copies bytes into fresh core memory; returns the address. */
  place(bytes: Uint8Array): number {
    const p = this.alloc(bytes.length);
    this.u8.set(bytes, p);
    return p;
  }

  /** The heap's account (a walk over every block: for benches and diagnostics, not a hot path). */
  heapStats(): HeapStats {
    const out = this.alloc(24);
    try {
      this.exports.heapStats(out);
      const [used, usedBlocks, free, freeBlocks, largestFree, topFree] = this.u32.subarray(out >>> 2, (out >>> 2) + 6);
      // the block of `out` itself is counted as used
      return { memory: this.buffer.byteLength, used, usedBlocks, free, freeBlocks, largestFree, topFree };
    } finally {
      this.free(out);
    }
  }

  /** A copy of `len` bytes at `ptr`. */
  read(ptr: number, len: number): Uint8Array {
    return this.u8.slice(ptr, ptr + len);
  }
}

/**
 * A trap in the core as the error of the one request that hit it. The release core traps only when
 * its allocator cannot grow the memory (wasm32's 4 GiB, or the host's limit); the allocator's state
 * stays whole (it fails before changing anything), so the instance serves the next request. Measured:
 * allocating until the trap, then freeing, leaves a core that allocates again.
 */
export function coreFault(e: unknown, core?: Core): unknown {
  if (!(e instanceof WebAssembly.RuntimeError) && !(e instanceof Error && e.message === 'out of memory')) return e;
  if (core?.exports.budgetExceeded()) return queryMemoryError(core.queryMemory, e);
  return new SearchError('QUERY_ERROR', 'out of memory in the search core: the query needs more memory than the core can get; narrow it or retry later', { cause: e });
}

/** The error of a query stopped at max_query_memory (the core keeps serving: the cap traps before the allocator). */
export function queryMemoryError(cap: number, cause?: unknown): SearchError {
  return new SearchError('QUERY_ERROR', `query needs more core memory than max_query_memory allows (${cap} bytes for one segment's matches and groups); narrow the query or raise max_query_memory`, { cause });
}

let shared: Core | null = null;

/** The process-wide default instance (indexes share it unless given their own). */
export function sharedCore(): Core {
  shared ??= new Core();
  return shared;
}
