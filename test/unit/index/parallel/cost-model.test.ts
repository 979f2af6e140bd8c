import { afterEach, describe, expect, it } from 'vitest';
import { estimateCost, recordCost, resetCostModel, shapeOf, timed } from '../../../../src/index/parallel/cost-model.js';

describe('cost model', () => {
  afterEach(() => resetCostModel());

  it('learns each shape\'s time apart from the postings it decodes', () => {
    const phrase = shapeOf('phrase', 2);
    const or = shapeOf('or', 2);
    for (let i = 0; i < 40; i++) {
      recordCost(phrase, 250_000, 0.3);
      recordCost(or, 250_000, 3);
    }
    expect(estimateCost(phrase, 250_000)).toBeCloseTo(0.3, 2);
    expect(estimateCost(or, 250_000)).toBeCloseTo(3, 2);
    // a cost in another half power of 2 is another shape
    expect(estimateCost(phrase, 1_000_000)).not.toBeCloseTo(0.3, 2);
  });

  it('estimates a shape not seen yet from the time per posting of those measured', () => {
    const prior = estimateCost(shapeOf('and', 3), 100_000);
    expect(prior).toBeGreaterThan(0);
    for (let i = 0; i < 100; i++) recordCost(shapeOf('term', 1), 10_000, 0.01); // 1 ns a posting
    const learnt = estimateCost(shapeOf('and', 3), 100_000);
    expect(learnt).toBeLessThan(prior / 2);
    expect(learnt).toBeCloseTo(0.1, 1);
  });

  it('does not let one preempted query move its shape past a few times its mean', () => {
    const s = shapeOf('term', 1);
    for (let i = 0; i < 40; i++) recordCost(s, 5000, 0.15);
    recordCost(s, 5000, 15);
    expect(estimateCost(s, 5000)).toBeLessThan(0.25);
    // a lasting change still shows within a few queries
    for (let i = 0; i < 20; i++) recordCost(s, 5000, 15);
    expect(estimateCost(s, 5000)).toBeGreaterThan(10);
  });

  it('times what runs here', () => {
    const seen: number[] = [];
    expect(timed((ms) => seen.push(ms), () => 42)).toBe(42);
    expect(seen).toHaveLength(1);
    expect(seen[0]).toBeGreaterThanOrEqual(0);
  });
});
