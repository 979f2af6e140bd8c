// The one-byte flip that declares the core's imported memory shared: found in the real build, and the
// flipped module instantiates over a shared memory while the artifact itself takes a plain one.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { memoryImportFlagAt, sharedVariant } from '../../../src/wasm/shared-memory.js';
import { coreFile } from '../../../src/engine/node-host.js';
import { Core } from '../../../src/wasm/core.js';
import { queryPool, setQueryThreads } from '../../../src/index/parallel/query-threads.js';

const abort = () => { throw new Error('abort'); };

describe('sharedVariant', () => {
  for (const build of ['debug', 'release'] as const) {
    it(`declares ${build}.wasm's memory shared and nothing else changes`, () => {
      const bytes = new Uint8Array(readFileSync(coreFile(build)));
      const at = memoryImportFlagAt(bytes);
      expect(bytes[at]).toBe(0x01);
      const shared = sharedVariant(bytes)!;
      expect(shared[at]).toBe(0x03);
      expect([...shared].filter((b, i) => b !== bytes[i])).toHaveLength(1);
      const plain = new WebAssembly.Memory({ initial: 16, maximum: 65536 });
      const sab = new WebAssembly.Memory({ initial: 16, maximum: 65536, shared: true });
      expect(() => new WebAssembly.Instance(new WebAssembly.Module(bytes), { env: { memory: plain, abort } })).not.toThrow();
      expect(() => new WebAssembly.Instance(new WebAssembly.Module(shared), { env: { memory: sab, abort } })).not.toThrow();
      expect(() => new WebAssembly.Instance(new WebAssembly.Module(shared), { env: { memory: plain, abort } })).toThrow();
    });
  }

  it('a Core where shared memory is unavailable (a page without isolation) gets a plain memory and no threads', async () => {
    const g = globalThis as { crossOriginIsolated?: boolean };
    g.crossOriginIsolated = false;
    try {
      const core = new Core();
      expect(core.shared).toBe(false);
      expect(core.buffer).toBeInstanceOf(ArrayBuffer);
      const p = core.place(new Uint8Array([1, 2, 3]));
      expect([...core.read(p, 3)]).toEqual([1, 2, 3]);
      await setQueryThreads(2);
      expect(queryPool(core)).toBeNull();
      await setQueryThreads(1);
    } finally {
      delete g.crossOriginIsolated;
    }
    expect(new Core().shared).toBe(true);
  });

  it('finds no memory import in a module without one', () => {
    const empty = new Uint8Array([0, 0x61, 0x73, 0x6d, 1, 0, 0, 0]);
    expect(memoryImportFlagAt(empty)).toBe(-1);
    expect(sharedVariant(empty)).toBeNull();
  });
});
