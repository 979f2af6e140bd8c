import { describe, expect, it } from 'vitest';
import {
  DEAD_AFTER_ERRORS, karmaOrder, liveBlocks, newKarma, recordOutcome, setAside, updateWeights, type AgentWeights,
} from '../../../../src/engine/distributed/agent-karma.js';

const K = 60_000;

describe('karma blocks (ha_period_karma)', () => {
  it('reads the current block, and the previous one until the current is half over', () => {
    const k = newKarma();
    recordOutcome(k, 10_000, K, { ms: 5 });
    recordOutcome(k, 70_000, K, { error: 'soft' });
    expect(liveBlocks(k, 70_000, K).map((b) => b.period)).toEqual([0, 1]);
    expect(liveBlocks(k, 95_000, K).map((b) => b.period)).toEqual([1]);
    expect(liveBlocks(k, 200_000, K)).toEqual([]);
  });

  it('keeps 15 blocks', () => {
    const k = newKarma();
    for (let p = 0; p < 20; p++) recordOutcome(k, p * K, K, { ms: 1 });
    expect(k.blocks.map((b) => b.period)).toEqual([5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
  });
});

describe('latency-weighted probabilities', () => {
  it('rescales by the inverse mean latency of each finished block, as the manual works it through', () => {
    const ks = [10, 5, 30, 3].map((ms) => { const k = newKarma(); recordOutcome(k, 1000, K, { ms }); return k; });
    const w: AgentWeights = { weights: [], period: 0 };
    expect(updateWeights(w, ks, 2000, K)).toEqual([0.25, 0.25, 0.25, 0.25]); // block 0 not finished
    const after = updateWeights(w, ks, K + 1, K);
    expect(after.map((x) => Number(x.toFixed(2)))).toEqual([0.15, 0.3, 0.05, 0.5]);
    expect(updateWeights(w, ks, K + 2, K)).toEqual(after); // a block is applied once
  });

  it('draws the first mirror by weight, orders the rest by weight, and puts mirrors set aside last', () => {
    const w = [0.15, 0.3, 0.05, 0.5];
    expect(karmaOrder(w, [false, false, false, false], () => 0)).toEqual([0, 3, 1, 2]);
    expect(karmaOrder(w, [false, false, false, false], () => 0.99)).toEqual([3, 1, 0, 2]);
    expect(karmaOrder(w, [false, false, false, false], () => 0.2)).toEqual([1, 3, 0, 2]);
    expect(karmaOrder(w, [false, false, false, true], () => 0.99)).toEqual([2, 1, 0, 3]);
    expect(karmaOrder(w, [true, true, true, true], () => 0.5)).toEqual([3, 1, 0, 2]);
    const counts = [0, 0, 0, 0];
    let seed = 1;
    const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let i = 0; i < 10_000; i++) counts[karmaOrder(w, [false, false, false, false], rnd)[0]!]!++;
    counts.forEach((c, i) => expect(Math.abs(c / 10_000 - w[i]!)).toBeLessThan(0.02));
  });
});

describe('nodeads and noerrors', () => {
  it('nodeads sets aside a mirror after several hard errors in a row; one answer revives it', () => {
    const [a, b] = [newKarma(), newKarma()];
    for (let i = 0; i < DEAD_AFTER_ERRORS - 1; i++) recordOutcome(a, 1000, K, { error: 'hard' });
    recordOutcome(a, 1000, K, { error: 'soft' });
    expect(setAside('nodeads', [a, b], 1000, K)).toEqual([false, false]);
    recordOutcome(a, 1000, K, { error: 'hard' });
    expect(setAside('nodeads', [a, b], 1000, K)).toEqual([true, false]);
    recordOutcome(a, 1000, K, { ms: 2 });
    expect(setAside('nodeads', [a, b], 1000, K)).toEqual([false, false]);
  });

  it('noerrors sets aside mirrors whose error ratio in the live blocks is worse than the best', () => {
    const [a, b, c] = [newKarma(), newKarma(), newKarma()];
    recordOutcome(a, 1000, K, { error: 'soft' });
    recordOutcome(a, 1000, K, { ms: 1 });
    recordOutcome(b, 1000, K, { ms: 1 });
    recordOutcome(c, 1000, K, { error: 'soft' });
    expect(setAside('noerrors', [a, b, c], 1000, K)).toEqual([true, false, true]);
    // the errors age out with their block: 1.5 periods later every mirror is even again
    expect(setAside('noerrors', [a, b, c], 1000 + 1.5 * K, K)).toEqual([false, false, false]);
  });
});
