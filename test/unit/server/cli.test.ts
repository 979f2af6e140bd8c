// End-to-end: the real `bin/quarry.js` over the compiled build (npm run build first; CI does).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = resolve(import.meta.dirname, '../../..');
const BIN = join(ROOT, 'bin/quarry.js');
const BUILT = existsSync(join(ROOT, 'dist/src/server/cli.js'));
const ENGINE_BUILT = BUILT && existsSync(join(ROOT, 'dist/src/engine/index.js'));

interface Run {
  child: ChildProcess;
  stdout: string;
  stderr: string;
  exit: Promise<number | null>;
}

/** Through `node BIN`, or, asProgram, BIN itself (its shell line first, as `npm start` and `npx quarry`). */
function run(args: string[], asProgram = false, env: NodeJS.ProcessEnv = process.env): Run {
  const child = asProgram
    ? spawn(BIN, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
    : spawn(process.execPath, [BIN, ...args], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const r: Run = { child, stdout: '', stderr: '', exit: new Promise((res) => child.on('exit', (code) => res(code))) };
  child.stdout!.setEncoding('utf8').on('data', (d: string) => (r.stdout += d));
  child.stderr!.setEncoding('utf8').on('data', (d: string) => (r.stderr += d));
  return r;
}

async function waitForLine(r: Run, pattern: RegExp): Promise<RegExpMatchArray> {
  for (;;) {
    const m = pattern.exec(r.stdout);
    if (m) return m;
    if (r.child.exitCode !== null) throw new Error(`exited ${r.child.exitCode}: ${r.stderr}`);
    await new Promise((res) => setTimeout(res, 50));
  }
}

describe.skipIf(!BUILT)('bin/quarry.js (compiled build)', () => {
  it('prints usage for --help and exits 0', async () => {
    const r = run(['--help']);
    expect(await r.exit).toBe(0);
    expect(r.stdout).toContain('usage: quarry serve');
  });

  it('exits 2 with the usage on a bad flag', async () => {
    const r = run(['serve', '--bogus']);
    expect(await r.exit).toBe(2);
    expect(r.stderr).toContain("unknown option '--bogus'");
  });

  it('exits 1 with a clear message on a bad config file', async () => {
    const r = run(['serve', '--config', join(ROOT, 'package.json')]);
    expect(await r.exit).toBe(1);
    expect(r.stderr).toMatch(/quarry: ERROR: .* in .*package\.json line 1/);
  });
});

describe.skipIf(!ENGINE_BUILT)('quarry serve (real engine)', () => {
  it('serves SQL over HTTP on port 0 and exits 0 on SIGTERM', async () => {
    const data = await mkdtemp(join(tmpdir(), 'quarry-e2e-'));
    try {
      const r = run(['serve', '--data', data, '--http', '127.0.0.1:0', '--mysql', '127.0.0.1:0']);
      const [, port] = await waitForLine(r, /quarry listening http=127\.0\.0\.1:(\d+)/);
      const res = await fetch(`http://127.0.0.1:${port}/cli_json`, { method: 'POST', body: 'show tables' });
      expect(res.status).toBe(200);
      expect(Array.isArray(await res.json())).toBe(true);
      r.child.kill('SIGTERM');
      expect(await r.exit).toBe(0);
    } finally {
      await rm(data, { recursive: true, force: true });
    }
  });

  it('keeps serving on SIGUSR1 and SIGHUP: no inspector opened, no exit', async () => {
    const data = await mkdtemp(join(tmpdir(), 'quarry-e2e-'));
    try {
      const r = run(['serve', '--data', data, '--http', '127.0.0.1:0', '--mysql', '127.0.0.1:0']);
      const [, port] = await waitForLine(r, /quarry listening http=127\.0\.0\.1:(\d+)/);
      r.child.kill('SIGUSR1');
      r.child.kill('SIGHUP');
      await waitForLine(r, /SIGHUP: nothing to rotate/);
      const res = await fetch(`http://127.0.0.1:${port}/cli_json`, { method: 'POST', body: 'show tables' });
      expect(res.status).toBe(200);
      expect(r.child.exitCode).toBeNull();
      expect(r.stderr).not.toContain('Debugger listening');
      r.child.kill('SIGTERM');
      expect(await r.exit).toBe(0);
    } finally {
      await rm(data, { recursive: true, force: true });
    }
  });

  it('run as a program, serves in the same process with glibc malloc tuned (keeping values already set) and jemalloc preloaded where installed', async () => {
    const data = await mkdtemp(join(tmpdir(), 'quarry-e2e-'));
    try {
      const env: NodeJS.ProcessEnv = { ...process.env, MALLOC_ARENA_MAX: '4' };
      delete env.MALLOC_MMAP_THRESHOLD_;
      delete env.MALLOC_TRIM_THRESHOLD_;
      delete env.MALLOC_CONF;
      delete env.LD_PRELOAD;
      const r = run(['serve', '--data', data, '--http', '127.0.0.1:0', '--mysql', '127.0.0.1:0'], true, env);
      const [, port] = await waitForLine(r, /quarry listening http=127\.0\.0\.1:(\d+)/);
      // The pid spawned is the server itself (sh exec'd node): a supervisor's signals and exit code reach it.
      expect(readFileSync(`/proc/${r.child.pid}/comm`, 'utf8').trim()).toBe('node');
      const vars = readFileSync(`/proc/${r.child.pid}/environ`, 'utf8').split('\0').filter((v) => v.startsWith('MALLOC_')).sort();
      expect(vars).toEqual(['MALLOC_ARENA_MAX=4', 'MALLOC_CONF=narenas:2,dirty_decay_ms:1000,muzzy_decay_ms:0', 'MALLOC_MMAP_THRESHOLD_=131072', 'MALLOC_TRIM_THRESHOLD_=131072']);
      // jemalloc preloaded where installed (CI installs libjemalloc2), and mapped in the server
      const jemalloc = ['/usr/lib/x86_64-linux-gnu', '/usr/lib/aarch64-linux-gnu', '/usr/lib64'].map((d) => `${d}/libjemalloc.so.2`).find((f) => existsSync(f));
      if (jemalloc) expect(readFileSync(`/proc/${r.child.pid}/maps`, 'utf8')).toContain(jemalloc);
      expect((await fetch(`http://127.0.0.1:${port}/cli_json`, { method: 'POST', body: 'show tables' })).status).toBe(200);
      // the server's young-generation floor (the shell line says why)
      expect(readFileSync(`/proc/${r.child.pid}/cmdline`, 'utf8').split('\0')).toContain('--min-semi-space-size=4');
      r.child.kill('SIGTERM');
      expect(await r.exit).toBe(0);
    } finally {
      await rm(data, { recursive: true, force: true });
    }
  });

  it('run as a program, imports with no V8 flag (with one its build thread takes ~40 ms more CPU to start)', async () => {
    const data = await mkdtemp(join(tmpdir(), 'quarry-e2e-'));
    try {
      // reading an open stdin: the import is alive while its command line is read
      const child = spawn(BIN, ['import', '--table', 't', '--data', data, '--format', 'jsonl', '-'], { cwd: ROOT, stdio: ['pipe', 'ignore', 'pipe'] });
      const exit = new Promise((res) => child.on('exit', (code) => res(code)));
      let args: string[] = [];
      for (let i = 0; i < 100 && !args.includes('import'); i++) {
        await new Promise((res) => setTimeout(res, 50));
        args = readFileSync(`/proc/${child.pid}/cmdline`, 'utf8').split('\0');
      }
      expect(args.slice(1, 3)).toEqual([BIN, 'import']); // sh exec'd node on the file, nothing between
      child.stdin!.end('{"id": 1, "title": "a"}\n');
      expect(await exit).toBe(0);
    } finally {
      await rm(data, { recursive: true, force: true });
    }
  });
});
