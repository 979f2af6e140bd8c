import { describe, expect, it } from 'vitest';
import { AppliedBytes, DEFAULT_TRIGGERS, snapshotDue } from '../../../src/replication/snapshot-triggers.js';

describe('snapshotDue', () => {
  const t = { ops: 100, bytes: 1000, intervalMs: 60_000 };
  it('is due on the first threshold reached: ops, bytes of ops, or time with an op since', () => {
    expect(snapshotDue(t, { ops: 99, bytes: 999, ms: 59_999 })).toBe(false);
    expect(snapshotDue(t, { ops: 100, bytes: 0, ms: 0 })).toBe(true);
    expect(snapshotDue(t, { ops: 1, bytes: 1000, ms: 0 })).toBe(true);
    expect(snapshotDue(t, { ops: 1, bytes: 0, ms: 60_000 })).toBe(true);
    // nothing applied since the latest snapshot: never due, however long ago it was
    expect(snapshotDue(t, { ops: 0, bytes: 0, ms: 10 * 60_000 })).toBe(false);
  });

  it('waits (rank + 1) times each threshold for the later nodes, and 0 turns the size and time triggers off', () => {
    expect(snapshotDue(t, { ops: 150, bytes: 1500, ms: 90_000 }, 1)).toBe(false);
    expect(snapshotDue(t, { ops: 1, bytes: 2000, ms: 0 }, 1)).toBe(true);
    expect(snapshotDue(t, { ops: 1, bytes: 0, ms: 120_000 }, 1)).toBe(true);
    expect(snapshotDue({ ops: 100, bytes: 0, intervalMs: 0 }, { ops: 99, bytes: 1e12, ms: 1e12 })).toBe(false);
    expect(DEFAULT_TRIGGERS).toEqual({ ops: 10_000, bytes: 128 * 1024 * 1024, intervalMs: 0 });
  });
});

describe('AppliedBytes', () => {
  it('gives the bytes applied after a sequence, a later snapshot of another node included', () => {
    const b = new AppliedBytes();
    for (let seq = 11; seq <= 20; seq++) b.add(seq, seq);
    expect(b.since(0)).toBe(155);
    expect(b.since(10)).toBe(155);
    expect(b.since(15)).toBe(16 + 17 + 18 + 19 + 20);
    b.add(21, 100);
    expect(b.since(15)).toBe(190);
    expect(b.since(21)).toBe(0);
    expect(b.since(30)).toBe(0);
  });
});
