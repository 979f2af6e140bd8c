import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { processStartEpochMs, v8LogArgs, windowCompiles } from '../../../../bench/lib/v8-log.js';

/**
 * A child node with the V8 log on that first waits for a line, then calls `hotSquare` until it is hot (printing
 * epoch ms before and after the loop), and exits when stdin ends.
 */
const SCRIPT = `
function hotSquare(x) { return x * x + 1; }
process.stdin.once('data', () => {
  const t0 = Date.now();
  let s = 0;
  for (let i = 0; i < 2e7; i++) s = (s + hotSquare(i & 1023)) | 0;
  process.stdout.write(JSON.stringify([t0, Date.now(), s]) + '\\n');
});
process.stdin.resume();
`;

describe('V8 log compiles in a window', () => {
  it('finds the hot loop compiled in its window, and nothing of it in a window before it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'v8-log-test-'));
    try {
      const script = join(dir, 'hot-child.js');
      writeFileSync(script, SCRIPT);
      const child = spawn(process.execPath, [...v8LogArgs(dir), script], { stdio: ['pipe', 'pipe', 'inherit'] });
      const started = await new Promise<number>((resolve) => setTimeout(() => resolve(processStartEpochMs(child.pid!)), 50));
      expect(Math.abs(started - Date.now())).toBeLessThan(60_000);
      await new Promise((r) => setTimeout(r, 1500));
      // --log-deopt also prints its bailouts to stdout: the marks are the line that is a JSON array
      let out = '';
      const marks = new Promise<[number, number]>((resolve) => child.stdout.on('data', (d: Buffer) => {
        out += String(d);
        const line = /^\[\d+,\d+,-?\d+\]$/m.exec(out);
        if (line) resolve(JSON.parse(line[0]) as [number, number]);
      }));
      child.stdin.write('go\n');
      const [t0, t1] = await marks;
      child.stdin.end();
      await new Promise((r) => child.once('exit', r));

      // read from the process's start, a logged time comes out early by the isolate's later start: from 1 s before
      const inLoop = windowCompiles(dir, child.pid!, started, t0 - 1000, t1 + 500, 'hot-child.js');
      expect(inLoop['timed compiles']).toBeGreaterThanOrEqual(1);
      // the loop's callback (on-stack replacement), or hotSquare alone when V8 compiles it first
      expect(String(inLoop['timed compiled'])).toContain('hot-child.js');
      expect(inLoop['timed compiles seen before']).toBe(0);

      // the child waits for a line for 1.5 s before the loop: nothing of it compiled before
      const idle = windowCompiles(dir, child.pid!, started, started - 1000, t0 - 1000, 'hot-child.js');
      expect(String(idle['timed compiled'] ?? '')).not.toContain('hot-child.js');
      expect(windowCompiles(dir, child.pid!, started, t0, t1, 'no-such-file.js')).toEqual({ 'v8 log': 'no main-isolate log' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
