// Conformance runner: `npm run conformance [-- --area X] [--case ID] [--verbose] [--update-expected]`.
// Starts the real server, runs ../shared/conformance/cases/*.jsonl in place, prints pass/total per
// area and a last line `N passed, N failed, N skipped` (skipped = listed expected failures); exits non-zero on a failure not listed in
// expected-failures.json and on a listed case that now passes.
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { casesDir, loadCases, type Case } from './cases.js';
import {
  loadExpectedFailures,
  saveExpectedFailures,
  updatedExpectedFailures,
} from './expected-failures.js';
import { runCase, type CaseResult } from './run-case.js';
import { ServerProcess } from './server-process.js';
import { loadTranscripts } from './transcripts.js';
import { HttpClient, MysqlSqlClient } from './transport.js';

/** The repository root: this file runs as dist/test/conformance/run.js. */
const ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '../../..');
const EXPECTED_FILE = join(ROOT, 'test/conformance/expected-failures.json');
/** Our own `.case` transcripts (read from the source tree; they are data, not compiled). */
const OWN_TRANSCRIPTS = join(ROOT, 'test/conformance');

interface Options {
  areas: string[];
  ids: string[];
  verbose: boolean;
  updateExpected: boolean;
}

function parseOptions(argv: string[]): Options {
  const o: Options = { areas: [], ids: [], verbose: false, updateExpected: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--area') o.areas.push(argv[++i] ?? '');
    else if (a === '--case') o.ids.push(argv[++i] ?? '');
    else if (a === '--verbose' || a === '-v') o.verbose = true;
    else if (a === '--update-expected') o.updateExpected = true;
    else throw new Error(`unknown option ${a} (use --area X, --case ID, --verbose, --update-expected)`);
  }
  return o;
}

function selectCases(all: Case[], o: Options): Case[] {
  return all.filter((c) => (o.areas.length === 0 || o.areas.includes(c.area)) && (o.ids.length === 0 || o.ids.includes(c.id)));
}

/** `QUARRY_CONFORMANCE_TRANSPORT=mysql` sends SQL steps over the MySQL protocol instead of /sql?mode=raw. */
const SQL_OVER_MYSQL = process.env.QUARRY_CONFORMANCE_TRANSPORT === 'mysql';

async function startServer(): Promise<{ server: ServerProcess; client: HttpClient }> {
  const server = new ServerProcess(ROOT);
  await server.start();
  if (!SQL_OVER_MYSQL) return { server, client: new HttpClient(server.host, server.port) };
  const m = /mysql=\S+:(\d+)/.exec(server.tail(100));
  if (!m) throw new Error(`the server reports no MySQL listener:\n${server.tail()}`);
  return { server, client: new MysqlSqlClient(server.host, server.port, Number(m[1])) };
}

/** Runs every case; a server that dies fails the case it died on and is started afresh. */
async function runAll(cases: Case[], verbose: boolean): Promise<CaseResult[]> {
  const results: CaseResult[] = [];
  let running: { server: ServerProcess; client: HttpClient } | undefined;
  let startError: Error | undefined;
  for (const c of cases) {
    let result: CaseResult;
    try {
      if (startError) throw startError; // one failed start is enough: do not retry per case
      running ??= await startServer().catch((e: Error) => {
        startError = e;
        throw e;
      });
      result = await runCase(running.client, c);
      if (!running.server.alive) {
        result = { ...result, pass: false, diffs: [...result.diffs, `server died:\n${running.server.tail()}`] };
        await stopServer(running);
        running = undefined;
      }
    } catch (e) {
      // the server would not start: every case fails with the reason
      result = { id: c.id, area: c.area, pass: false, diffs: [`runner: ${(e as Error).message}`] };
    }
    results.push(result);
    if (verbose && !result.pass) console.log(`FAIL ${c.id} (${c.area})\n  ${result.diffs.join('\n  ')}`);
  }
  if (running) await stopServer(running);
  return results;
}

async function stopServer(running: { server: ServerProcess; client: HttpClient }): Promise<void> {
  running.client.close();
  const code = await running.server.stop();
  if (code !== 0 && code !== null) console.warn(`conformance: server exited with ${code} on SIGTERM`);
  running.server.cleanup();
}

function printAreas(results: CaseResult[]): void {
  const byArea = new Map<string, { pass: number; total: number }>();
  for (const r of results) {
    const a = byArea.get(r.area) ?? { pass: 0, total: 0 };
    a.total++;
    if (r.pass) a.pass++;
    byArea.set(r.area, a);
  }
  for (const [area, a] of [...byArea].sort(([x], [y]) => x.localeCompare(y))) {
    console.log(`${area.padEnd(20)} ${a.pass}/${a.total}`);
  }
}

async function main(): Promise<number> {
  const o = parseOptions(process.argv.slice(2));
  const dir = casesDir(process.env.QUARRY_CONFORMANCE_DIR ?? resolve(ROOT, '../shared/conformance'));
  const cases = selectCases([...loadCases(dir), ...loadTranscripts(OWN_TRANSCRIPTS)], o);
  if (cases.length === 0) throw new Error(`no cases selected from ${dir}`);
  const results = await runAll(cases, o.verbose);
  const failed = new Set(results.filter((r) => !r.pass).map((r) => r.id));
  const expected = loadExpectedFailures(EXPECTED_FILE);
  const unexpected = [...failed].filter((id) => !(id in expected));
  const nowPassing = results.filter((r) => r.pass && r.id in expected).map((r) => r.id);
  printAreas(results);
  if (unexpected.length > 0) console.log(`unexpected failures (${unexpected.length}): ${unexpected.join(' ')}`);
  if (nowPassing.length > 0) console.log(`listed as failing but passed (${nowPassing.length}): ${nowPassing.join(' ')}`);
  if (o.updateExpected) {
    saveExpectedFailures(EXPECTED_FILE, updatedExpectedFailures(expected, cases, failed));
    console.log(`updated ${EXPECTED_FILE}`);
  }
  // Listed (expected) failures count as skipped: each is owned by an open issue. A listed case that
  // now passes counts as failed until the list is updated, so the list never goes stale.
  const expectedFailing = [...failed].filter((id) => id in expected).length;
  const failedNow = unexpected.length + (o.updateExpected ? 0 : nowPassing.length);
  console.log(`${results.length - failed.size - (o.updateExpected ? 0 : nowPassing.length)} passed, ${failedNow} failed, ${expectedFailing} skipped`);
  return !o.updateExpected && (unexpected.length > 0 || nowPassing.length > 0) ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (e: unknown) => {
    console.error(`conformance: ${(e as Error).message}`);
    process.exitCode = 2;
  },
);
