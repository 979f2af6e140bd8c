import { describe, expect, it } from 'vitest';
import { collectGarbage } from '../../../../src/engine/background/idle-gc.js';

describe('collectGarbage', () => {
  it('collects unreachable objects now, without exposing gc to the global scope', () => {
    let garbage: { i: number; s: string }[] | null = [];
    for (let i = 0; i < 300_000; i++) garbage.push({ i, s: `row ${i}` });
    const held = process.memoryUsage().heapUsed;
    garbage = null;
    collectGarbage();
    expect(process.memoryUsage().heapUsed).toBeLessThan(held - 10 * 1024 * 1024);
    expect((globalThis as { gc?: unknown }).gc).toBeUndefined();
  });
});
