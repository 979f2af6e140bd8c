// The event-loop probe that tells the query threads when the protocol thread is saturated.
import { describe, expect, it } from 'vitest';
import { eventLoopBusyProbe } from '../../../src/engine/node-host.js';

const spin = (ms: number) => { const end = performance.now() + ms; while (performance.now() < end); };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('eventLoopBusyProbe', () => {
  it('is busy after a window without idle time and idle after a quiet one', async () => {
    const busy = eventLoopBusyProbe();
    spin(40);
    expect(busy()).toBe(true);
    // within the window the last reading stands
    expect(busy()).toBe(true);
    // long enough that a late wake-up on a loaded machine (counted as busy time) stays a small share
    await sleep(500);
    expect(busy()).toBe(false);
  });
});
