import { afterEach, describe, expect, it, vi } from 'vitest';

/** The module read with QUARRY_TRACE_PHASES as given (it reads the variable once, when loaded). */
async function traceWith(value: string | undefined) {
  vi.resetModules();
  if (value === undefined) delete process.env.QUARRY_TRACE_PHASES;
  else vi.stubEnv('QUARRY_TRACE_PHASES', value);
  const lines: string[] = [];
  const write = vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => {
    lines.push(String(s));
    return true;
  });
  const mod = await import('../../../src/util/phase-trace.js');
  return { mod, lines, write };
}

describe('phase-trace', () => {
  afterEach(() => {
    vi.restoreAllMocks();
    vi.unstubAllEnvs();
  });

  it('prints nothing unless QUARRY_TRACE_PHASES=1', async () => {
    const { mod, lines } = await traceWith(undefined);
    mod.phase('start');
    mod.threadsCpu();
    expect(lines).toEqual([]);
  });

  it('marks a phase with ms since the process started, the thread, its CPU and run-queue wait (ms to 0.1 from schedstat)', async () => {
    const { mod, lines } = await traceWith('1');
    mod.phase('first batch');
    expect(lines).toHaveLength(1);
    const m = /^phase (\d+\.\d) (?:main|t\d+) cpu=(-?\d+(?:\.\d)?) wait=(-?\d+(?:\.\d)?) first batch\n$/.exec(lines[0]!);
    expect(m).not.toBeNull();
    // the process has been running at least as long as this test file took to load
    expect(Number(m![1])).toBeGreaterThan(0);
    expect(Number(m![1])).toBeLessThanOrEqual(process.uptime() * 1000 + 1);
    if (process.platform === 'linux') {
      expect(Number(m![2])).toBeGreaterThanOrEqual(0);
      expect(Number(m![3])).toBeGreaterThanOrEqual(0);
    }
  });

  it.runIf(process.platform === 'linux')('lists the threads of the process busiest first, main among them', async () => {
    const { mod, lines } = await traceWith('1');
    mod.threadsCpu();
    expect(lines).toHaveLength(1);
    const cpu = lines[0]!.replace(/^threads /, '').trim().split(' ').map((t) => Number(t.split('=')[1]));
    expect(lines[0]).toMatch(/^threads .*\bmain=\d+/);
    expect(cpu).toEqual([...cpu].sort((a, b) => b - a));
  });
});
