import { afterEach, describe, expect, it, vi } from 'vitest';

/** The module read with QUARRY_TRACE_ROUNDS as given (read once, when loaded), on fake timers and clock. */
async function traceWith(value: string | undefined) {
  vi.resetModules();
  if (value === undefined) delete process.env.QUARRY_TRACE_ROUNDS;
  else vi.stubEnv('QUARRY_TRACE_ROUNDS', value);
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'performance'] });
  const lines: string[] = [];
  vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => {
    lines.push(String(s));
    return true;
  });
  const mod = await import('../../../src/util/round-trace.js');
  return { mod, lines };
}

describe('round-trace', () => {
  afterEach(() => {
    vi.useRealTimers();
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it('is off unless QUARRY_TRACE_ROUNDS=1: arrivals read 0', async () => {
    const { mod, lines } = await traceWith(undefined);
    expect(mod.roundTracing).toBe(false);
    expect(mod.arrival()).toBe(0);
    expect(lines).toEqual([]);
  });

  it('after 1 s without rounds, prints where the rounds of the burst spent their time', async () => {
    const { mod, lines } = await traceWith('1');
    expect(mod.roundTracing).toBe(true);
    // round 1: a statement arrives, its record's write starts (inside startOverlapped), the round is issued,
    // the write ends, the round settles
    const a = mod.arrival();
    vi.advanceTimersByTime(2);
    const w = mod.writeStarted(1);
    vi.advanceTimersByTime(0.5);
    const issued = mod.roundIssued([a]);
    vi.advanceTimersByTime(1);
    mod.writeEnded(w);
    vi.advanceTimersByTime(0.5);
    mod.roundSettled(issued);
    // round 2: two statements, issued 3 ms after round 1 settled, one write of two records
    const b = mod.arrival();
    vi.advanceTimersByTime(1);
    const c = mod.arrival();
    vi.advanceTimersByTime(2);
    const w2 = mod.writeStarted(2);
    const issued2 = mod.roundIssued([b, c]);
    vi.advanceTimersByTime(0.05);
    mod.writeEnded(w2);
    mod.roundSettled(issued2);
    expect(lines).toEqual([]);
    vi.advanceTimersByTime(1000);
    // the rounds line, then the turnaround line
    expect(lines).toHaveLength(2);
    const line = lines[0]!;
    // round 2's statements arrive 0 and 1 ms after round 1 settled; last arrival->issue (2.5 + 2) / 2 rounds
    expect(lines[1]).toMatch(/^  turnaround: settle->first arrival 0\.000, settle->last arrival 1\.000, last arrival->issue 2\.250 /);
    expect(line).toMatch(/^rounds 2 in 0\.00 s /);
    expect(line).toContain('stmts/round 1.500 [1:1 2:1]');
    // arrival->issue: (2.5 + 3 + 2) / 3 statements
    expect(line).toContain('arrival->issue 2.500');
    expect(line).toContain('issue->write -0.250'); // (-0.5 + 0) / 2
    expect(line).toContain('write 0.775 (max 1.50; <0.1/0.2/0.5/1/2/more 1/0/0/0/1/0)');
    expect(line).toContain('write->settle 0.250');
    expect(line).toContain('issue->settle 0.775');
    expect(line).toContain('settle->issue 3.000');
    expect(line).toContain('writes 2, of >1 record 1');
    // counters start over for the next burst
    vi.advanceTimersByTime(5000);
    expect(lines).toHaveLength(2);
  });
});
