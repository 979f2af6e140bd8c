import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { cpuMark, cpuMsSince, processCpuMs, threadCpuNs } from '../../../../bench/lib/process-cpu.js';

/** A child node that burns CPU in bursts of `ms` each time it reads a line, and answers "done". */
function burner() {
  const child = spawn(process.execPath, ['-e', `process.stdin.on('data', (d) => { const t = performance.now() + Number(d); while (performance.now() < t); process.stdout.write('done\\n'); });`], { stdio: ['pipe', 'pipe', 'inherit'] });
  const burn = (ms: number) => new Promise<void>((resolve) => { child.stdout.once('data', () => resolve()); child.stdin.write(String(ms)); });
  return { pid: child.pid!, burn, stop: () => child.kill() };
}

describe('process CPU from the scheduler', () => {
  it('reads every thread of a process, and counts a burst to well under a clock tick of the tick count', async () => {
    const b = burner();
    try {
      await b.burn(50); // started and warm
      expect(threadCpuNs(b.pid).size).toBeGreaterThan(1); // node's main thread and its helpers
      const mark = cpuMark(b.pid);
      await b.burn(300);
      const precise = cpuMsSince(mark);
      const ticks = processCpuMs(b.pid) - mark.ticksMs;
      // a shared machine may run the burner for less than its 300 ms of wall time, never for more
      expect(precise).toBeGreaterThan(20);
      expect(precise).toBeLessThan(400);
      expect(Math.abs(precise - ticks)).toBeLessThan(25); // ticks: 10 ms each, both ends rounded
      expect(precise % 10).not.toBe(0); // not a tick count
    } finally {
      b.stop();
    }
  });

  it('falls back to the tick count when a thread ended since the mark', () => {
    const mark = cpuMark(process.pid);
    mark.threads.set(`${process.pid}/999999999`, 0); // a thread that is gone now
    const since = cpuMsSince(mark);
    expect(since).toBeGreaterThanOrEqual(0);
    expect(since).toBeLessThanOrEqual(processCpuMs(process.pid) - mark.ticksMs);
    expect(since % 10).toBe(0); // whole ticks of 10 ms: the tick count, not the scheduler's nanoseconds
  });
});
