// The side-by-side's query run (bench/side-by-side/side-by-side.bench.ts queryRun) over a fake peer: its connections,
// the mix once or whole passes in order until minMs, and a QPS that counts every query run.
import { describe, expect, it } from 'vitest';
import { queryRun, type Peer } from '../../../../bench/side-by-side/side-by-side.bench.js';

/** A peer whose every statement takes `ms` and is recorded, on `conns` connections opened so far. */
function fakePeer(ms: number) {
  const seen: string[] = [];
  let opened = 0;
  const peer: Peer = {
    name: 'fake',
    async open() {
      opened++;
      return {
        exec: async (sql: string) => { seen.push(sql); await new Promise((r) => setTimeout(r, ms)); },
        close: async () => {},
      };
    },
    stop: async () => {},
  };
  return { peer, seen, opened: () => opened };
}

describe('side-by-side queryRun', () => {
  it('runs the mix once when it takes longer than minMs', async () => {
    const f = fakePeer(1);
    const run = await queryRun(f.peer, ['a', 'b', 'c'], 2);
    expect(f.seen).toHaveLength(3);
    expect(f.opened()).toBe(2);
    expect(run.qps).toBeGreaterThan(0);
  });

  it('repeats whole passes of the mix, in order, until minMs have passed', async () => {
    const f = fakePeer(2);
    const t0 = performance.now();
    const run = await queryRun(f.peer, ['a', 'b', 'c', 'd'], 1, 'gcide', 60);
    expect(performance.now() - t0).toBeGreaterThanOrEqual(60);
    expect(f.seen.length % 4).toBe(0);
    expect(f.seen.length).toBeGreaterThan(4);
    const words = f.seen.map((s) => /MATCH\('(\w)'\)/.exec(s)![1]);
    expect(words.slice(0, 8)).toEqual(['a', 'b', 'c', 'd', 'a', 'b', 'c', 'd']);
    // QPS counts every query run, not one pass
    expect(run.qps).toBeGreaterThan(4 / ((performance.now() - t0) / 1000));
  });
});
