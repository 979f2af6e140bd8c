/** Spawns the real server binary on loopback (ports chosen by the OS) and waits for the ports it prints. */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';

export interface SpawnedQuarry {
  proc: ChildProcess;
  http: number;
  mysql: number;
  /** The binary API port, when `--agent` was given. */
  agent?: number;
  /** Settles when the process exits. */
  exited: Promise<void>;
}

/**
 * `node ROOT/bin/quarry.js serve ARGS --http 127.0.0.1:0 --mysql 127.0.0.1:0`. Output is kept only until the
 * server is listening (for the error if it never is); after that the streams keep flowing unread, so the
 * child never blocks on a full pipe, and a caller may add its own listeners.
 */
export async function spawnQuarry(root: string, args: string[], env?: Record<string, string>): Promise<SpawnedQuarry> {
  const proc = spawn(process.execPath, [join(root, 'bin/quarry.js'), 'serve', ...args,
    '--http', '127.0.0.1:0', '--mysql', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'pipe'], env: env && { ...process.env, ...env } });
  let out = '';
  const collect = (c: Buffer) => { out += c.toString(); };
  proc.stdout!.on('data', collect);
  proc.stderr!.on('data', collect);
  let onReady = () => {};
  let onExit = (_code: number | null) => {};
  try {
    const [http, mysql, agent] = await new Promise<[number, number, number | undefined]>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 30_000);
      onReady = () => {
        const m = /http=[\d.]+:(\d+) mysql=[\d.]+:(\d+)(?: agent=[\d.]+:(\d+))?/.exec(out);
        if (m) { clearTimeout(timer); resolve([Number(m[1]), Number(m[2]), m[3] ? Number(m[3]) : undefined]); }
      };
      onExit = (code) => { clearTimeout(timer); reject(new Error(`server exited ${code}: ${out}`)); };
      proc.stdout!.on('data', onReady); // after collect: sees the chunk already appended
      proc.once('exit', onExit);
    });
    const exited = new Promise<void>((resolve) => {
      if (proc.exitCode !== null || proc.signalCode !== null) resolve();
      else proc.once('exit', () => resolve());
    });
    return { proc, http, mysql, agent, exited };
  } finally {
    proc.off('exit', onExit);
    proc.stdout!.off('data', onReady);
    proc.stdout!.off('data', collect);
    proc.stderr!.off('data', collect);
  }
}
