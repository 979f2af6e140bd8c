import { describe, expect, it } from 'vitest';
import { clusterSnapshotName, snapshotSeqOf, trimPoint } from '../../../src/replication/cluster-snapshots.js';

describe('cluster snapshots', () => {
  it('names snapshots by sequence, sorting in sequence order, and tells them from table ADD snapshots', () => {
    expect(snapshotSeqOf(clusterSnapshotName(1234))).toBe(1234);
    expect(clusterSnapshotName(99) < clusterSnapshotName(100)).toBe(true);
    expect(snapshotSeqOf('t-5b0c6f4e')).toBeUndefined();
  });

  it('trims through the snapshot, or through the oldest applied sequence of a node keeping up below it', () => {
    expect(trimPoint(100, [100, 120], 10)).toBe(100);
    expect(trimPoint(100, [95, 120], 10)).toBe(95);
    // a node more than one interval behind (down) does not hold the stream back: it loads the snapshot
    expect(trimPoint(100, [40, 120], 10)).toBe(100);
    expect(trimPoint(100, [], 10)).toBe(100);
  });
});
