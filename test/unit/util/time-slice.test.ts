// Time slicing: long work yields every SLICE_MS, the yielded pieces resume one per event-loop turn, so
// I/O that arrives meanwhile is served between slices of however many pieces are waiting.
import { describe, expect, it } from 'vitest';
import { mapSliced, nextTurn, SLICE_MS } from '../../../src/util/time-slice.js';

const spin = (ms: number) => { const end = performance.now() + ms; while (performance.now() < end); };

describe('time slicing', () => {
  it('maps like Array.map, in order, without yielding when the work is short', async () => {
    let turns = 0;
    const tick = setImmediate(() => { turns++; });
    expect(await mapSliced([1, 2, 3], (x, i) => x * 10 + i)).toEqual([10, 21, 32]);
    expect(turns).toBe(0);
    clearImmediate(tick);
  });

  it('lets a timer that is due run between slices of two long maps running at once', async () => {
    const order: string[] = [];
    const work = (name: string) => mapSliced(Array.from({ length: 8 }, (_, i) => i), (i) => { spin(SLICE_MS / 2); order.push(`${name}${i}`); });
    const cheap = new Promise<void>((r) => setTimeout(() => { order.push('cheap'); r(); }, 1));
    await Promise.all([work('a'), work('b'), cheap]);
    // the cheap callback ran before either long map finished: after a slice or two, not after both
    const at = order.indexOf('cheap');
    expect(at).toBeGreaterThan(0);
    expect(at).toBeLessThan(order.indexOf('a7'));
    expect(at).toBeLessThan(order.indexOf('b7'));
  });

  it('resumes waiting pieces one per turn, oldest first', async () => {
    const seen: number[] = [];
    await Promise.all([0, 1, 2].map(async (i) => { await nextTurn(); seen.push(i); }));
    expect(seen).toEqual([0, 1, 2]);
  });
});
