// A seeded fuzz run of every target against the real server binary over loopback (npm run fuzz runs
// the long version): no crash, no hang, no malformed or internal answer, no half write, bounded memory.
import { describe, expect, it } from 'vitest';
import { runFuzz, verdict } from './runner.js';
import { TARGETS } from './targets.js';

const INPUTS = Number(process.env.QUARRY_FUZZ_INPUTS ?? 2_000);

describe('fuzzing the real server', () => {
  it(`answers ${INPUTS} seeded inputs per target well-formed, in time, and stays up`, async () => {
    const report = await runFuzz({ inputs: INPUTS, seed: 20261126, targets: TARGETS, concurrency: 4 });
    // every whole-run oracle (runner.ts verdict): no crash, finding, hang or internal error, fz_w in
    // threes (no half write), the same tables after a restart rebuilt them from the store, RSS bounded
    expect(verdict(report)).toEqual([]);
    for (const t of report.targets) expect(t.inputs).toBe(INPUTS);
    expect(report.tripleRows).toBeGreaterThan(0);
    expect(report.stateAtEnd).not.toBe('');
  }, 240_000);
});
