// LatencyWindow (the `*_stats_ms_*` counters): the 1, 5 and 15 minute windows of its samples,
// and the newest MAX_SAMPLES kept in order while the ring grows, wraps and drops its oldest by time.
import { describe, expect, it } from 'vitest';
import { LatencyWindow, MAX_SAMPLES } from '../../../src/metrics/latency-window.js';

const MINUTE = 60_000;

describe('LatencyWindow', () => {
  it('keeps each window to its minutes and says N/A when empty', () => {
    const w = new LatencyWindow();
    const now = 100 * MINUTE;
    expect(w.text('avg', now)).toBe('N/A N/A N/A');
    w.add(4, now - 10 * MINUTE);
    w.add(2, now - 3 * MINUTE);
    w.add(1, now - 1000);
    expect(w.countText(now)).toBe('1 2 3');
    expect(w.text('max', now)).toBe('1.000 2.000 4.000');
    expect(w.text('min', now)).toBe('1.000 1.000 1.000');
    // past 15 minutes a sample is gone for good
    expect(w.text('max', now + 6 * MINUTE)).toBe('N/A N/A 2.000');
    expect(w.countText(now)).toBe('1 2 2');
  });

  it('keeps the newest MAX_SAMPLES in order as it grows and wraps', () => {
    const w = new LatencyWindow();
    const now = 100 * MINUTE;
    const n = MAX_SAMPLES + 777;
    for (let i = 0; i < n; i++) w.add(i, now - (n - i));
    expect(w.countText(now)).toBe(`${MAX_SAMPLES} ${MAX_SAMPLES} ${MAX_SAMPLES}`);
    expect(w.text('min', now)).toBe(`${(n - MAX_SAMPLES).toFixed(3)} `.repeat(3).trimEnd());
    expect(w.text('max', now)).toBe(`${(n - 1).toFixed(3)} `.repeat(3).trimEnd());
    const avg = ((n - MAX_SAMPLES + n - 1) / 2).toFixed(3);
    expect(w.text('avg', now)).toBe(`${avg} ${avg} ${avg}`);
    // the oldest dropped by time from the middle of the ring: the rest stay in order
    w.add(-1, now + 15 * MINUTE - 100);
    expect(w.text('min', now + 15 * MINUTE - 100)).toBe('-1.000 -1.000 -1.000');
    expect(w.countText(now + 15 * MINUTE - 100)).toBe('1 1 101');
  });
});
