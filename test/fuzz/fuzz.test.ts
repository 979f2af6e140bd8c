// A seeded fuzz run of every target against the real server binary over loopback (npm run fuzz runs
// the long version): no crash, no hang, no malformed or internal answer, no half write, bounded memory.
import { describe, expect, it } from 'vitest';
import { runFuzz } from './runner.js';
import { TARGETS } from './targets.js';

const INPUTS = Number(process.env.QUARRY_FUZZ_INPUTS ?? 2_000);

describe('fuzzing the real server', () => {
  it(`answers ${INPUTS} seeded inputs per target well-formed, in time, and stays up`, async () => {
    const report = await runFuzz({ inputs: INPUTS, seed: 20261126, targets: TARGETS, concurrency: 4 });
    expect(report.findings.map((f) => `${f.target}#${f.index}: ${f.problem} <- ${f.input.slice(0, 200)}`)).toEqual([]);
    expect(report.crashed).toBe(false);
    expect(report.internalErrors).toEqual([]);
    for (const t of report.targets) expect(t.inputs).toBe(INPUTS);
    // fz_w only ever gets three-row INSERTs: a count that is not a multiple of 3 is a half-applied one
    expect(report.tripleRows % 3).toBe(0);
    expect(report.tripleRows).toBeGreaterThan(0);
    // the heap may grow with the rows written, not without bound
    expect(report.rssEndMb).toBeLessThan(report.rssStartMb + 200);
  }, 240_000);
});
