// Cores over both kinds of wasm memory, for tests of what holds a view into core memory across a grow.
import { expect } from 'vitest';
import { Core } from '../../src/wasm/core.js';

const g = globalThis as { crossOriginIsolated?: boolean };

/** The two memories a Core may get, as it.each rows: [name, shared]. */
export const memories = [['shared', true], ['non-shared (a page without cross-origin isolation)', false]] as const;

/** A core with a shared or non-shared memory (Core picks shared unless a page is not cross-origin isolated). */
export function coreWith(shared: boolean): Core {
  const was = g.crossOriginIsolated;
  g.crossOriginIsolated = shared;
  let core: Core;
  try { core = new Core(); } finally { if (was === undefined) delete g.crossOriginIsolated; else g.crossOriginIsolated = was; }
  expect(core.shared).toBe(shared);
  return core;
}

/** Forces memory.grow: a non-shared memory detaches the views taken before. */
export function grow(core: Core): void {
  const before = core.buffer.byteLength;
  core.alloc(before + (1 << 20));
  expect(core.buffer.byteLength).toBeGreaterThan(before);
}
