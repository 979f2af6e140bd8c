// `npm test` after the build: the type check of sources and tests (tsconfig.test.json, one check),
// vitest, then the conformance runner with SQL over HTTP and again with SQL over the MySQL protocol,
// then ONE last line `N passed, N failed, N skipped` summing all four.
// Exits non-zero when any of them failed. CI (.ci/run) calls `npm test`, so this is the one test command.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository root: this file runs as dist/test/run-all.js. */
const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../..');

interface Counts {
  passed: number;
  failed: number;
  skipped: number;
}

/** Runs a command with inherited stdin/stderr, echoing stdout and returning it with the exit code. */
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ code: number; out: string }> {
  return new Promise((done) => {
    const child = spawn(cmd, args, { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      out += chunk.toString();
    });
    child.on('close', (code, signal) => done({ code: code ?? (signal ? 1 : 0), out }));
  });
}

/** vitest's JSON report; a missing or unreadable report counts as one failure. */
function vitestCounts(file: string): Counts {
  try {
    const r = JSON.parse(readFileSync(file, 'utf8')) as Record<string, number>;
    return {
      passed: r.numPassedTests ?? 0,
      failed: r.numFailedTests ?? 0,
      skipped: (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0),
    };
  } catch {
    return { passed: 0, failed: 1, skipped: 0 };
  }
}

/** The conformance runner's last summary line; none counts as one failure. */
function conformanceCounts(out: string): Counts {
  const lines = [...out.matchAll(/^(\d+) passed, (\d+) failed(?:, (\d+) skipped)?$/gm)];
  const m = lines.at(-1);
  if (!m) return { passed: 0, failed: 1, skipped: 0 };
  return { passed: Number(m[1]), failed: Number(m[2]), skipped: Number(m[3] ?? 0) };
}

async function main(): Promise<number> {
  const scratch = mkdtempSync(join(tmpdir(), 'quarry-test-'));
  try {
    const report = join(scratch, 'vitest.json');
    const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
    // tsconfig.json builds without the *.test.ts files, so their types are checked here, as one check
    console.log('== type check of sources and tests (tsc -p tsconfig.test.json)');
    const types = await run(npx, ['tsc', '-p', 'tsconfig.test.json']);
    const typeCounts: Counts = types.code === 0 ? { passed: 1, failed: 0, skipped: 0 } : { passed: 0, failed: 1, skipped: 0 };

    console.log('== unit, e2e and durability tests (vitest)');
    const unit = await run(npx, ['vitest', 'run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`]);
    const unitCounts = vitestCounts(report);
    if (unit.code !== 0 && unitCounts.failed === 0) unitCounts.failed = 1;

    const conformance = join(ROOT, 'dist/test/conformance/run.js');
    console.log('== conformance, SQL over HTTP');
    const http = await run(process.execPath, [conformance]);
    const httpCounts = conformanceCounts(http.out);
    if (http.code !== 0 && httpCounts.failed === 0) httpCounts.failed = 1;

    console.log('== conformance, SQL steps over the MySQL protocol');
    const mysql = await run(process.execPath, [conformance], { QUARRY_CONFORMANCE_TRANSPORT: 'mysql' });
    const mysqlCounts = conformanceCounts(mysql.out);
    if (mysql.code !== 0 && mysqlCounts.failed === 0) mysqlCounts.failed = 1;

    const all = [typeCounts, unitCounts, httpCounts, mysqlCounts];
    const sum = (k: keyof Counts) => all.reduce((s, c) => s + c[k], 0);
    console.log(`${sum('passed')} passed, ${sum('failed')} failed, ${sum('skipped')} skipped`);
    return sum('failed') > 0 ? 1 : 0;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

process.exitCode = await main();
