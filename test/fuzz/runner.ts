/**
 * Runs targets against one real server: N inputs per target over several connections at once,
 * with liveness probes, then the whole-run oracles (half writes, internal log lines, memory).
 */
import { startServerUnderTest, type ServerUnderTest } from './server-under-test.js';
import { describeInput, newWorker, TARGETS, type TargetName } from './targets.js';
import { WRITE_SETUP } from './write-target.js';
import { startStallMonitor, STALL_MS, type Stall } from './stall-monitor.js';

export interface FuzzOptions {
  inputs: number;
  seed: number;
  targets: readonly TargetName[];
  /** Connections per target working at once. */
  concurrency: number;
  /** Progress lines go here (default: none). */
  log?: (line: string) => void;
}

export interface Finding {
  target: TargetName;
  index: number;
  problem: string;
  input: string;
}

export interface TargetReport {
  target: TargetName;
  inputs: number;
  findings: number;
  hangs: number;
  ms: number;
}

export interface FuzzReport {
  seed: number;
  targets: TargetReport[];
  findings: Finding[];
  /** The server died (a crash) during the run. */
  crashed: boolean;
  internalErrors: string[];
  /** fz_w gets only three-row INSERTs: any other count is a half-applied write. */
  tripleRows: number;
  /**
   * What the tables held at the end of the run, and again after a restart rebuilt them from the
   * store of record (rows, id sums, attribute sums): a write the index saw but the store did not
   * (or the other way round) makes them differ.
   */
  stateAtEnd: string;
  stateAfterRestart: string;
  /** Tables at the end of the run (the setup's and those the inputs created). */
  tablesAtEnd: number;
  /** Server RSS after the setup, and after the run once its connections closed. */
  rssStartMb: number;
  rssEndMb: number;
  /** Event-loop stalls past STALL_MS of the server's own making (stall-monitor.ts). */
  stalls: Stall[];
  ms: number;
}

/**
 * How much the server's RSS may grow over a run: caches, allocator slack and the rows written, plus
 * an allowance per table the run left behind (auto-schema INSERTs and CREATE TABLE with random
 * names make hundreds in a long run, each with its index and text pipeline).
 */
export const RSS_GROWTH_LIMIT_MB = 200;
export const RSS_PER_TABLE_MB = 2;

/** Every oracle over the whole run; empty when the run is clean. */
export function verdict(r: FuzzReport): string[] {
  const bad: string[] = [];
  if (r.crashed) bad.push('the server crashed or stopped answering');
  for (const f of r.findings.slice(0, 20)) bad.push(`${f.target}#${f.index}: ${f.problem} <- ${f.input.slice(0, 200)}`);
  for (const e of r.internalErrors.slice(0, 20)) bad.push(`internal error logged: ${e}`);
  if (r.tripleRows % 3 !== 0) bad.push(`half-applied write: fz_w holds ${r.tripleRows} rows, not a multiple of 3`);
  for (const s of r.stalls.slice(0, 20)) bad.push(`event loop stalled ${s.ms} ms (main thread ${s.cpuMs} ms CPU, over ${STALL_MS} ms) while answering ${s.inFlight.join(', ')}`);
  if (r.stateAfterRestart !== r.stateAtEnd) bad.push(`store and index disagree: served ${r.stateAtEnd}, rebuilt from the store ${r.stateAfterRestart}`);
  const allowed = RSS_GROWTH_LIMIT_MB + RSS_PER_TABLE_MB * r.tablesAtEnd;
  if (r.rssEndMb > r.rssStartMb + allowed) {
    bad.push(`memory did not return to its level: RSS ${r.rssStartMb.toFixed(0)} MB -> ${r.rssEndMb.toFixed(0)} MB (allowed +${allowed} MB for ${r.tablesAtEnd} tables)`);
  }
  return bad;
}

export const SETUP = [
  'CREATE TABLE fz (title text, body text, n int, f float, tags multi, j json, s string)',
  "INSERT INTO fz (id, title, body, n, f, tags, j, s) VALUES (1, 'hello world', 'quick brown fox', 1, 1.5, (1,2), '{\"a\":[1,2],\"arr\":[{\"key\":1,\"p\":[1,2]},{\"key\":\"x\"},3]}', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!'), (2, 'test doc', 'running', 2, 2.5, (), '{}', 'Straße')",
  // the newest statements' tables: a distributed one (ALTER ... local=/agent=), one for CALL SUGGEST
  "CREATE TABLE fz_d type='distributed' local='fz'",
  "CREATE TABLE fz_sg (title text) min_infix_len='2'",
  "INSERT INTO fz_sg (id, title) VALUES (1, 'market marker mark hello help'), (2, 'running runner ran'), (3, 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa')",
  // a long name for LIKE patterns of many % to backtrack over (SHOW TABLES LIKE '%a%a...%b')
  'CREATE TABLE fz_long_aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa (title text)',
  "CREATE TABLE fz_pq (title text) type='pq'",
  'CREATE TABLE fz_w (title text, n int)',
  ...WRITE_SETUP,
];

/** Probe every this many inputs that the server still answers a trivial query. */
const PROBE_EVERY = 200;

async function probe(server: ServerUnderTest): Promise<boolean> {
  if (!server.alive()) return false;
  try {
    await server.sql('SHOW TABLES');
    return true;
  } catch {
    return false;
  }
}

/** The inputs under way, for the stall monitor to name. */
const inFlight = new Set<string>();

async function runTarget(server: ServerUnderTest, target: TargetName, opts: FuzzOptions, findings: Finding[]): Promise<TargetReport & { dead: boolean }> {
  const start = Date.now();
  let next = 0;
  let done = 0;
  let hangs = 0;
  let found = 0;
  let dead = false;
  const work = async () => {
    const worker = await newWorker(target, opts.seed, server.ports);
    try {
      while (!dead) {
        const index = next++;
        if (index >= opts.inputs) break;
        let problem: string | undefined;
        const name = `${target}#${index}`;
        inFlight.add(name);
        try {
          problem = await worker.run(index);
        } catch (e) {
          problem = server.alive() ? `client error: ${(e as Error).message}` : undefined;
        } finally {
          inFlight.delete(name);
        }
        done++;
        if (problem) {
          found++;
          if (problem.startsWith('hang')) hangs++;
          const input = describeInput(opts.seed, target, index).slice(0, 400);
          if (findings.length < 200) findings.push({ target, index, problem, input });
          // at once, so a long run's findings can be worked on while it goes on
          opts.log?.(`finding ${target}#${index}: ${problem.slice(0, 300)} <- ${JSON.stringify(input.slice(0, 300))}`);
        }
        if (done % PROBE_EVERY === 0) {
          if (!(await probe(server))) dead = true;
          if (done % (PROBE_EVERY * 50) === 0) opts.log?.(`${target}: ${done} inputs, ${found} findings, rss ${(server.rss() / 2 ** 20).toFixed(0)} MB`);
        }
      }
    } finally {
      worker.close();
    }
  };
  // wire inputs mostly wait out a quiet period (an incomplete request gets no answer): more at once
  // the writes target compares fz_r before and after each input: one connection
  const connections = target === 'writes' ? 1 : target.endsWith('-wire') ? opts.concurrency * 4 : opts.concurrency;
  await Promise.all(Array.from({ length: connections }, work));
  if (!(await probe(server))) dead = true;
  return { target, inputs: done, findings: found, hangs, ms: Date.now() - start, dead };
}

async function count(server: ServerUnderTest, table: string): Promise<number> {
  const res = (await server.sql(`SELECT COUNT(*) AS c FROM ${table}`)) as { data?: { c: number }[] }[];
  return Number(res[0]?.data?.[0]?.c ?? -1);
}

async function tableCount(server: ServerUnderTest): Promise<number> {
  const res = (await server.sql('SHOW TABLES')) as { data?: unknown[] }[];
  return res[0]?.data?.length ?? 0;
}

/** Rows, id sum and n sum of each setup table, as one line (fz_pq is percolate: its count only). */
async function tableState(server: ServerUnderTest): Promise<string> {
  const parts: string[] = [];
  for (const t of ['fz', 'fz_w', 'fz_r']) {
    const res = (await server.sql(`SELECT COUNT(*) AS c, SUM(id) AS i, SUM(n) AS s FROM ${t} OPTION max_matches=1`)) as { data?: unknown[]; error?: string }[];
    parts.push(`${t}:${JSON.stringify(res[0]?.data ?? res)}`);
  }
  return parts.join(' ');
}

/** The state at the end of the run, then after a restart on the same data directory. */
async function restartState(server: ServerUnderTest): Promise<[string, string, ServerUnderTest]> {
  const atEnd = await tableState(server);
  await server.stop(true);
  const again = await startServerUnderTest(server.dir);
  return [atEnd, await tableState(again), again];
}

export async function runFuzz(opts: FuzzOptions): Promise<FuzzReport> {
  const start = Date.now();
  let server = await startServerUnderTest();
  try {
    for (const q of SETUP) await server.sql(q);
    const rssStart = server.rss();
    const findings: Finding[] = [];
    const targets: TargetReport[] = [];
    let crashed = false;
    const monitor = startStallMonitor(server.proc.pid!, () => server.sql('SELECT 1'), () => [...inFlight]);
    for (const target of opts.targets) {
      const r = await runTarget(server, target, opts, findings);
      targets.push({ target, inputs: r.inputs, findings: r.findings, hangs: r.hangs, ms: r.ms });
      opts.log?.(`${target}: ${r.inputs} inputs in ${(r.ms / 1000).toFixed(1)} s, ${r.findings} findings, ${r.hangs} hangs`);
      if (r.dead) {
        crashed = true;
        findings.push({ target, index: -1, problem: `server stopped answering (exit ${server.proc.exitCode ?? server.proc.signalCode ?? 'none'})`, input: '' });
        break;
      }
    }
    const stalls = await monitor.stop();
    for (const s of stalls) opts.log?.(`stall ${s.ms} ms (main thread ${s.cpuMs} ms CPU) while answering ${s.inFlight.join(', ')}`);
    const tripleRows = crashed ? 0 : await count(server, 'fz_w');
    // let the connections of the run close and the heap settle before measuring
    await new Promise((r) => setTimeout(r, 1_000));
    const rssEnd = server.rss();
    const tablesAtEnd = crashed ? 0 : await tableCount(server);
    const internalErrors = [...server.internalErrors];
    let [stateAtEnd, stateAfterRestart] = ['', ''];
    if (!crashed) {
      try {
        [stateAtEnd, stateAfterRestart, server] = await restartState(server);
      } catch (e) {
        // a data directory the run left unstartable is a finding, reported with the others
        findings.push({ target: opts.targets.at(-1)!, index: -1, problem: `server did not restart on its data directory: ${(e as Error).message.slice(0, 300)}`, input: '' });
      }
    }
    internalErrors.push(...server.internalErrors.filter((e) => !internalErrors.includes(e)));
    return {
      seed: opts.seed, targets, findings, crashed, internalErrors, tripleRows, stateAtEnd, stateAfterRestart, tablesAtEnd,
      rssStartMb: rssStart / 2 ** 20, rssEndMb: rssEnd / 2 ** 20, stalls, ms: Date.now() - start,
    };
  } finally {
    await server.stop();
  }
}

export { TARGETS };
