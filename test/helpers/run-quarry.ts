/** Runs the real `bin/quarry.js` with arguments (and optional stdin), resolving with its exit and output. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './server-process.js';

export interface QuarryRun { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }

/** Starts `node bin/quarry.js ...args`; `stdin` is written and closed (none: an empty stdin). */
export function startQuarry(args: string[], opts: { stdin?: Buffer | string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): {
  proc: ChildProcess; done: Promise<QuarryRun>; output: () => { stdout: string; stderr: string };
} {
  const proc = spawn(process.execPath, [join(ROOT, 'bin/quarry.js'), ...args], {
    cwd: opts.cwd, env: { ...process.env, ...opts.env }, stdio: ['pipe', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  proc.stdout!.on('data', (c: Buffer) => { stdout += c.toString(); });
  proc.stderr!.on('data', (c: Buffer) => { stderr += c.toString(); });
  proc.stdin!.on('error', () => {}); // the command may exit before reading all of it
  proc.stdin!.end(opts.stdin ?? '');
  const done = new Promise<QuarryRun>((res) => proc.on('close', (code, signal) => res({ code, signal, stdout, stderr })));
  return { proc, done, output: () => ({ stdout, stderr }) };
}

export function runQuarry(args: string[], opts: { stdin?: Buffer | string; env?: NodeJS.ProcessEnv; cwd?: string } = {}): Promise<QuarryRun> {
  return startQuarry(args, opts).done;
}
