import { afterEach, describe, expect, it } from 'vitest';
import type { CorePool } from '../../../../src/wasm/worker-pool.js';
import {
  HANDOVER_MS, MIN_HANDOVER_COST, SPREAD_MS, WHOLE_MS, handOver, setBusyProbe, setParallelMinCost, setSpareCoreProbe,
} from '../../../../src/index/parallel/query-threads.js';

/** handOver reads only the pool's thread counts. */
const pool = (idle: number, threads = 2) => ({ idle, threads }) as unknown as CorePool;

function state(busy: boolean, spare: boolean): void {
  setBusyProbe(() => busy);
  setSpareCoreProbe(() => spare);
}

describe('handOver by learnt time', () => {
  afterEach(() => {
    setBusyProbe(null);
    setSpareCoreProbe(null);
    setParallelMinCost(undefined);
  });

  it('sends only queries that save more than a hand-over costs', () => {
    expect(WHOLE_MS).toBeGreaterThan(HANDOVER_MS);
    expect(SPREAD_MS).toBeGreaterThan(WHOLE_MS);
  });

  it('spreads what takes SPREAD_MS or more while this thread is not saturated, whatever its postings', () => {
    state(false, true);
    expect(handOver(10_000, SPREAD_MS, pool(2))).toBe('spread');
    // many postings that evaluate quickly (a phrase of common words that rarely meet) stay here
    expect(handOver(1_000_000, SPREAD_MS / 2, pool(2))).toBe('inline');
  });

  it('sends a query whole to an idle thread while saturated only from WHOLE_MS, and only with a core spare', () => {
    state(true, true);
    expect(handOver(50_000, HANDOVER_MS, pool(2))).toBe('inline');
    expect(handOver(50_000, WHOLE_MS, pool(2))).toBe('whole');
    expect(handOver(50_000, WHOLE_MS, pool(0))).toBe('inline');
    state(true, false);
    expect(handOver(50_000, WHOLE_MS, pool(2))).toBe('inline');
  });

  it('sends a big query whole, never cut, while saturated or while a thread is taken', () => {
    state(true, false);
    expect(handOver(10_000, SPREAD_MS * 4, pool(2))).toBe('whole');
    state(false, true);
    expect(handOver(10_000, SPREAD_MS * 4, pool(1))).toBe('whole');
  });

  it('keeps a query of fewer than MIN_HANDOVER_COST postings here, however long it was timed', () => {
    state(false, true);
    expect(handOver(MIN_HANDOVER_COST - 1, SPREAD_MS * 10, pool(2))).toBe('inline');
    state(true, true);
    expect(handOver(MIN_HANDOVER_COST - 1, SPREAD_MS * 10, pool(2))).toBe('inline');
    expect(handOver(MIN_HANDOVER_COST, SPREAD_MS * 10, pool(2))).toBe('whole');
  });

  it('decides by postings alone while a test sets a threshold', () => {
    state(false, true);
    setParallelMinCost(1000);
    expect(handOver(1000, 0, pool(2))).toBe('spread');
    expect(handOver(999, 100, pool(2))).toBe('inline');
    state(true, true);
    expect(handOver(500, 0, pool(2))).toBe('whole');
  });
});
