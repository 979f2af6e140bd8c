// Crash-test harness: builds the store and the child script to plain JS, runs the child, SIGKILLs it.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '../../..');
/** Sources the child needs, as repo-relative folders or files. */
const SOURCES = ['src/store', 'src/util/errors.ts', 'src/util/server-log.ts', 'src/util/round-trace.ts', 'src/util/packed-map.ts', 'test/unit/store/crash-child.ts'];

function listTs(path: string): string[] {
  const abs = join(ROOT, path);
  if (abs.endsWith('.ts')) return [abs];
  // a folder's subfolders too (src/store/values/, src/store/write-log/)
  return readdirSync(abs, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? listTs(join(path, e.name)) : e.name.endsWith('.ts') ? [join(abs, e.name)] : []);
}

/**
 * Transpiles the child and the store into a temporary tree mirroring the repo (so relative `.js`
 * imports resolve), with a node_modules link back to the repo's. Returns the child's JS path.
 */
export function buildChild(): string {
  const out = mkdtempSync(join(tmpdir(), 'quarry-crash-build-'));
  writeFileSync(join(out, 'package.json'), '{"type":"module"}\n');
  symlinkSync(join(ROOT, 'node_modules'), join(out, 'node_modules'), 'dir');
  for (const file of SOURCES.flatMap(listTs)) {
    const js = ts.transpileModule(readFileSync(file, 'utf8'), {
      compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      fileName: file,
    }).outputText;
    const dest = join(out, relative(ROOT, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(dest), { recursive: true });
    writeFileSync(dest, js);
  }
  return join(out, 'test/unit/store/crash-child.js');
}

export interface ChildRun {
  /** Complete stdout lines printed before the kill. */
  lines: string[];
  stderr: string;
  /** True when the child was killed by us (false: it exited on its own, i.e. crashed). */
  killed: boolean;
}

/** Runs the child until it prints READY, waits `killAfterMs`, SIGKILLs it, returns its output. */
export function runAndKill(
  childJs: string, args: string[], killAfterMs: number, env: Record<string, string> = {},
): Promise<ChildRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [childJs, ...args], {
      env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    let timer: NodeJS.Timeout | undefined;
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString();
      if (!timer && stdout.includes('READY\n')) timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    });
    child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
    child.on('error', reject);
    child.on('close', (_code, signal) => {
      clearTimeout(timer);
      const complete = stdout.slice(0, stdout.lastIndexOf('\n') + 1);
      resolve({ lines: complete.split('\n').filter(Boolean), stderr, killed: signal === 'SIGKILL' });
    });
  });
}
