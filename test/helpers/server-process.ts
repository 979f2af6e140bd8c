/** Starts the real server binary on loopback with a data directory, for end-to-end tests. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { join } from 'node:path';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerProcess {
  proc: ChildProcess;
  httpPort: number;
  /** Everything the server printed so far (stdout and stderr), start-up lines included. */
  output(): string;
  /** POST a body to a path; resolves with status and text. */
  post(path: string, body: string, headers?: Record<string, string>): Promise<{ status: number; text: string }>;
  /** Runs SQL through /sql?mode=raw and returns the parsed JSON array (throws on a transport error). */
  sql(query: string): Promise<unknown>;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

export async function startServer(dataDir: string, env: Record<string, string> = {}, args: string[] = []): Promise<ServerProcess> {
  const proc = spawn(process.execPath, [join(ROOT, 'bin/quarry.js'), 'serve', '--data', dataDir,
    '--http', '127.0.0.1:0', '--mysql', '127.0.0.1:0', ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  const httpPort = await new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 30_000);
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const m = /http=[\d.]+:(\d+)/.exec(out);
      if (m) { clearTimeout(timer); resolve(Number(m[1])); }
    };
    proc.stdout!.on('data', onData);
    proc.stderr!.on('data', (c: Buffer) => { out += c.toString(); });
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`server exited ${code}: ${out}`)); });
  });
  proc.removeAllListeners('exit');
  const exited = new Promise<number | null>((resolve) => proc.on('exit', (code) => resolve(code)));
  const post = async (path: string, body: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`http://127.0.0.1:${httpPort}${path}`, { method: 'POST', body, headers });
    return { status: res.status, text: await res.text() };
  };
  return {
    proc, httpPort, post, output: () => out,
    async sql(query: string) {
      const r = await post('/sql?mode=raw', query);
      return JSON.parse(r.text);
    },
    async stop(signal: NodeJS.Signals = 'SIGTERM') {
      proc.kill(signal);
      return exited;
    },
  };
}
