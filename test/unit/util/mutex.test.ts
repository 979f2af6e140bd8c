// Mutex: one holder at a time in arrival order, and the count of callers still waiting for their turn.
import { describe, expect, it } from 'vitest';
import { Mutex } from '../../../src/util/mutex.js';

describe('Mutex', () => {
  it('runs holders one at a time in arrival order and counts those still waiting', async () => {
    const m = new Mutex();
    const order: string[] = [];
    let release!: () => void;
    const first = m.run(() => new Promise<void>((r) => { order.push('first'); release = r; }));
    const second = m.run(() => { order.push('second'); });
    const third = m.run(() => { throw new Error('third fails'); });
    await new Promise((r) => setImmediate(r));
    expect(order).toEqual(['first']);
    expect(m.waiting).toBe(2);
    release();
    await first;
    await second;
    await expect(third).rejects.toThrow('third fails');
    expect(order).toEqual(['first', 'second']);
    expect(m.waiting).toBe(0);
    expect(await m.run(() => 'after a failure')).toBe('after a failure');
  });
});
