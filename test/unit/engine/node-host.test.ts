// The probes that tell the query threads when the protocol thread is saturated and when a core is spare.
import { describe, expect, it } from 'vitest';
import { eventLoopBusyProbe, procStatTicks, spareCoreProbe } from '../../../src/engine/node-host.js';

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

describe('spareCoreProbe', () => {
  it('has a core to spare while the machine idles half a core or more, re-read once per window', async () => {
    // two cores; each reading adds 20 ticks, `idle` of them idle
    let idle = 0;
    let total = 0;
    let next = 20;
    const spare = spareCoreProbe(() => ({ idle: (idle += next), total: (total += 20) }), 2);
    expect(spare()).toBe(true); // no window yet
    next = 2; // 0.2 cores idle
    await sleep(120);
    expect(spare()).toBe(false);
    next = 20;
    expect(spare()).toBe(false); // within the window the last reading stands
    next = 6; // 0.6 cores idle
    await sleep(120);
    expect(spare()).toBe(true);
  });

  it('has one where the ticks cannot be read, and reads this machine without throwing', async () => {
    const none = spareCoreProbe(() => null, 2);
    await sleep(120);
    expect(none()).toBe(true);
    const real = spareCoreProbe();
    await sleep(120);
    expect(typeof real()).toBe('boolean');
    expect(procStatTicks()()).toEqual(process.platform === 'linux' ? { idle: expect.any(Number), total: expect.any(Number) } : null);
  });
});
