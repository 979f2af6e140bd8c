/**
 * Overload against the real server over loopback (sized for 2 cores): ten times the client
 * concurrency the machine sustains, with max_connections = 8. The server sheds what is over the limit
 * (HTTP 503 `maxed out`, Manticore's words) or queues it, answers every request within a bound (no
 * hang), keeps its memory bounded, and recovers when the load stops. A cheap query sent while heavy
 * ones run is not queued behind them: their highlighting, most of their work, yields to the event loop
 * every few ms (src/util/time-slice.ts), so the cheap one waits for a slice and for the unsliced parts
 * (search, document fetch) in progress, not for every heavy query queued before it.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/server-process.js';
import { spawnQuarry, type SpawnedQuarry } from '../helpers/spawn-quarry.js';

const MAX_CONNECTIONS = 8;
/** Clients that the machine sustains (2 cores), and ten times as many for the overload. */
const SUSTAINED_CLIENTS = 2;
const OVERLOAD_CLIENTS = SUSTAINED_CLIENTS * 10;
const ROWS = 20_000;
/**
 * Highlighting ~350 matches of 12 wildcards, a different set each time (nothing cached): ~100 ms of one
 * core. (Two wildcards, as before, now match 60 rows within the default expansion limit: ~10 ms, no
 * longer heavy.)
 */
let heavyNo = 0;
const heavyQuery = () => {
  const i = heavyNo++;
  const terms = Array.from({ length: 12 }, (_, k) => `w${1 + ((i + k) % 9)}${k}*`).join('|');
  return `SELECT id, HIGHLIGHT() FROM t WHERE MATCH('${terms}') LIMIT 1000 OPTION max_matches=1000`;
};
const CHEAP = 'SELECT id FROM t WHERE id = 5';
/** Clients running heavy queries at once while the cheap query is timed (under max_connections). */
const HEAVY_CLIENTS = 4;
/** No answer may take longer than this, however loaded the server. */
const ANSWER_BOUND_MS = 20_000;

const dir = mkdtempSync(join(tmpdir(), 'quarry-overload-'));
let server: SpawnedQuarry;

const rssMb = () => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${server.proc.pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;

type Outcome = 'ok' | 'shed' | 'closed';

/** One SQL request; 'shed' = refused over max_connections, 'closed' = the connection dropped. */
async function sql(query: string): Promise<{ outcome: Outcome; ms: number }> {
  const t = performance.now();
  let res: Response;
  let text: string;
  try {
    res = await fetch(`http://127.0.0.1:${server.http}/sql?mode=raw`, { method: 'POST', body: query, signal: AbortSignal.timeout(ANSWER_BOUND_MS) });
    text = await res.text();
  } catch (e) {
    // a timeout is a hang: fail; a reset socket is how a refused connection may look to fetch
    if ((e as Error).name === 'TimeoutError') throw new Error(`no answer within ${ANSWER_BOUND_MS} ms: ${query}`);
    return { outcome: 'closed', ms: performance.now() - t };
  }
  const ms = performance.now() - t;
  if (res.status === 503) {
    expect(text).toMatch(/maxed out, dismissing client/);
    return { outcome: 'shed', ms };
  }
  expect(res.status, text).toBe(200);
  expect(text).toMatch(/^\[\{\n?"(columns|total)"/);
  expect(text).not.toMatch(/"error":"[^"]/);
  return { outcome: 'ok', ms };
}

/** `clients` loops of a heavy query then CHEAP for `ms`; counts outcomes, samples RSS. */
async function load(clients: number, ms: number): Promise<{ counts: Record<Outcome, number>; peakRssMb: number; perSecond: number }> {
  const counts: Record<Outcome, number> = { ok: 0, shed: 0, closed: 0 };
  let peakRssMb = rssMb();
  const sampler = setInterval(() => { peakRssMb = Math.max(peakRssMb, rssMb()); }, 50);
  const end = Date.now() + ms;
  await Promise.all(Array.from({ length: clients }, async () => {
    while (Date.now() < end) {
      for (const q of [heavyQuery(), CHEAP]) counts[(await sql(q)).outcome]++;
    }
  }));
  clearInterval(sampler);
  return { counts, peakRssMb, perSecond: (counts.ok * 1000) / ms };
}

beforeAll(async () => {
  writeFileSync(join(dir, 'q.conf'), `searchd {\n  max_connections = ${MAX_CONNECTIONS}\n}\n`);
  server = await spawnQuarry(ROOT, ['--config', join(dir, 'q.conf'), '--data', join(dir, 'data')]);
  await sql('CREATE TABLE t (title text, n int)');
  const words = (i: number) => Array.from({ length: 30 }, (_, k) => `w${(i * 7919 + k * 104729) % 20000}`).join(' ');
  for (let b = 0; b < ROWS; b += 2000) {
    const values = Array.from({ length: 2000 }, (_, i) => `(${b + i + 1}, '${words(b + i)}', ${(b + i) % 1000})`);
    expect((await sql(`INSERT INTO t (id, title, n) VALUES ${values.join(',')}`)).outcome).toBe('ok');
  }
  for (let i = 0; i < 3; i++) await sql(heavyQuery()); // warm the JIT
}, 120_000);

afterAll(async () => {
  if (server?.proc.exitCode === null) {
    server.proc.kill('SIGTERM');
    await server.exited;
  }
  rmSync(dir, { recursive: true, force: true });
});

describe('overload', () => {
  it('at 10x the sustained concurrency: sheds or queues, answers all, bounded memory, recovers', async () => {
    const baseRss = rssMb();
    const sustained = await load(SUSTAINED_CLIENTS, 1_500);
    expect(sustained.counts.shed + sustained.counts.closed).toBe(0);
    const over = await load(OVERLOAD_CLIENTS, 3_000);
    // every request got an answer (sql() fails on a hang); what was over the limit was shed
    expect(over.counts.ok).toBeGreaterThan(0);
    expect(over.counts.shed + over.counts.closed).toBeGreaterThan(0);
    // the served rate holds up (it may not collapse under the load it sheds; the machine is shared,
    // so only a collapse counts)
    expect(over.perSecond).toBeGreaterThan(sustained.perSecond * 0.2);
    // memory stays bounded under load and comes back after it
    expect(over.peakRssMb).toBeLessThan(baseRss + 300);
    await new Promise((r) => setTimeout(r, 1_000));
    expect(rssMb()).toBeLessThan(baseRss + 150);
    // recovered: the same work is served again, nothing refused
    const after = await load(SUSTAINED_CLIENTS, 1_500);
    expect(after.counts.shed + after.counts.closed).toBe(0);
    expect(after.perSecond).toBeGreaterThan(sustained.perSecond * 0.25);
  }, 60_000);

  it('a cheap query does not wait behind the heavy queries queued before it', async () => {
    let stop = false;
    const heavyMs: number[] = [];
    // HEAVY_CLIENTS clients keep heavy queries running; the cheap one is sent meanwhile
    const heavy = Array.from({ length: HEAVY_CLIENTS }, async () => { while (!stop) heavyMs.push((await sql(heavyQuery())).ms); });
    await new Promise((r) => setTimeout(r, 300));
    const cheap: number[] = [];
    for (let i = 0; i < 15; i++) {
      cheap.push((await sql(CHEAP)).ms);
      await new Promise((r) => setTimeout(r, 30));
    }
    stop = true;
    await Promise.all(heavy);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!;
    // measured in the same window: the heavy queries share the thread, so each answers in about
    // HEAVY_CLIENTS times its own work; the cheap one sooner than one of them, not after the queue
    // (measured at load average 14: median 70 ms against 78-115 ms; without the slicing 114-174 ms)
    expect(median(cheap)).toBeLessThan(median(heavyMs));
  }, 60_000);
});
