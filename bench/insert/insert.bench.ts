// bench/insert/insert.bench.ts: write throughput with multi-row INSERTs of 1, 100 and 1000 rows from one client,
// and single-row INSERTs from CONCURRENT_CLIENTS clients at once (where group commit shares fsyncs), then
// query latency from 8 clients while 16 insert (queries-under-writes.ts), quarry
// over the MySQL protocol and over HTTP next to Sphinx 2.2.11 over SphinxQL, same run, dict-gcide documents;
// docs/s and the server's CPU ms per 1000 documents (the steadier figure on a shared machine).
// Each statement is acknowledged only when durable (quarry: lmdb fsync; Sphinx: binlog_flush=1).
// Over HTTP the client is the harness's (http-client.ts): undici's Pool.request since session 20, one keep-alive
// connection a client as mysql2's; --http-client node for node:http, the client until then (heavier: client CPU
// an INSERT 0.091 ms against undici's 0.059 and mysql2's 0.048, insert-ab --client-ab 1, session 20).
// Run: npm run bench -- insert [--docs N] [--concurrent-statements N] [--http-client undici|node]. Seed-free: documents in corpus order.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadGcide, type CorpusDoc } from '../lib/corpus.js';
import { arg, sqlString } from '../lib/bench-util.js';
import { sphinxPeer, startQuarry, type Peer } from '../side-by-side/side-by-side.bench.js';
import { progress } from '../lib/progress.js';
import { processCpuMs, threadCpuMs, waitIdle } from '../lib/process-cpu.js';
import { queriesUnderWrites, READERS, WRITERS } from './queries-under-writes.js';

const SIZES = [1, 100, 1000];
/** Clients sending single-row INSERTs at the same time in the concurrent run. */
const CONCURRENT_CLIENTS = 16;
/** Statements of the single-row runs: enough for a few seconds each. */
const SINGLE_ROW_STATEMENTS = 2000;
/**
 * Statements of the 16-client single-row run: a few seconds too. Until session 29 it sent 2,000 like the
 * one-client run, about 0.3 s at 6-7k statements/s, so its figure was mostly start-up: V8 compiling the
 * group-commit path for the first time was 30-36% of quarry's server CPU samples in that phase (perf,
 * session 29's ins29a/ins29b), a fixed cost a longer run shares out, as a server running for hours does.
 * Both peers send the same statements. --concurrent-statements N to change it.
 */
const CONCURRENT_STATEMENTS = 16_000;
const CREATE = "CREATE TABLE gcide (title text, body text, len uint) morphology='stem_en'";

/**
 * Docs/s inserting `rowsPer` rows per statement from `clients` connections sharing one queue of
 * statements, and the server's CPU ms per 1000 documents (all its threads, read from /proc after it
 * went idle again, so merges the load caused count too: waitIdle wants a whole second under 3% of a
 * core, so the RAM tail's idle seal and the idle compaction, 200 ms apart, land in the run that caused
 * them), and of those the process's main thread (quarry's protocol thread; the rest is the merge thread,
 * lmdb's writer and V8's compiler and GC helpers).
 */
async function insertRun(peer: Peer, docs: CorpusDoc[], rowsPer: number, idBase: number, clients = 1, statements = SINGLE_ROW_STATEMENTS): Promise<{ rate: number; cpuPer1000: number; mainPer1000: number }> {
  const conns = [];
  for (let c = 0; c < clients; c++) conns.push(await peer.open());
  // Small statements are slow one by one: cap the count so each size runs a few seconds at most.
  const n = Math.min(docs.length, rowsPer === 1 ? statements : docs.length);
  let next = 0;
  if (peer.pid) await waitIdle(peer.pid);
  const cpu0 = peer.pid ? processCpuMs(peer.pid) : 0;
  const main0 = peer.pid ? threadCpuMs(peer.pid).main : 0;
  const t0 = performance.now();
  await Promise.all(conns.map(async (conn) => {
    while (next < n) {
      const i = next;
      next += rowsPer;
      const rows = docs.slice(i, Math.min(n, i + rowsPer)).map((d) => `(${idBase + d.id},${sqlString(d.title)},${sqlString(d.body)},${d.body.length})`);
      await conn.exec(`INSERT INTO gcide (id, title, body, len) VALUES ${rows.join(',')}`);
    }
  }));
  const s = (performance.now() - t0) / 1000;
  await Promise.all(conns.map((c) => c.close()));
  if (peer.pid) await waitIdle(peer.pid);
  const cpuMs = peer.pid ? processCpuMs(peer.pid) - cpu0 : NaN;
  const mainMs = peer.pid ? threadCpuMs(peer.pid).main - main0 : NaN;
  return { rate: n / s, cpuPer1000: Number(((cpuMs * 1000) / n).toFixed(1)), mainPer1000: Number(((mainMs * 1000) / n).toFixed(1)) };
}

/** One peer's row of the table: each size from one client, then single rows from many; id ranges apart. */
export async function peerRow(peer: Peer, docs: CorpusDoc[], runNo: number): Promise<Record<string, unknown>> {
  const row: Record<string, unknown> = { peer: peer.name };
  for (const size of SIZES) {
    progress.step(`insert: ${peer.name}: ${size} row(s) per INSERT`);
    const r = await insertRun(peer, docs, size, (runNo * 10 + size) * 1_000_000);
    row[`${size} row(s)/INSERT docs/s`] = r.rate;
    row[`${size} row(s)/INSERT server CPU ms/1000 docs`] = r.cpuPer1000;
  }
  progress.step(`insert: ${peer.name}: ${CONCURRENT_CLIENTS} clients`);
  const c = await insertRun(peer, docs, 1, (runNo * 10 + 5) * 1_000_000, CONCURRENT_CLIENTS, arg('concurrent-statements', CONCURRENT_STATEMENTS));
  row[`1 row/INSERT, ${CONCURRENT_CLIENTS} clients docs/s`] = c.rate;
  row[`1 row/INSERT, ${CONCURRENT_CLIENTS} clients server CPU ms/1000 docs`] = c.cpuPer1000;
  // not read for searchd, which runs as its watchdog's child (the pid's main thread is the watchdog's)
  row[`1 row/INSERT, ${CONCURRENT_CLIENTS} clients protocol thread CPU ms/1000 docs`] = peer.name.startsWith('quarry') ? c.mainPer1000 : NaN;
  progress.step(`insert: ${peer.name}: queries from ${READERS} clients while ${WRITERS} insert`);
  const q = await queriesUnderWrites(peer, docs, (runNo * 10 + 6) * 1_000_000, SINGLE_ROW_STATEMENTS);
  row[`${WRITERS} inserting: docs/s`] = q.insertsPerS;
  row[`${WRITERS} inserting: query p50 ms (${READERS} clients)`] = q.p50;
  row[`${WRITERS} inserting: query p99 ms (${READERS} clients)`] = q.p99;
  return row;
}

export async function insertBench() {
  const docs = loadGcide(arg('docs', 20_000));
  const base = mkdtempSync(join(tmpdir(), 'quarry-insert-'));
  const rows: Record<string, unknown>[] = [];
  try {
    // each protocol's row on its own server and empty table, as Sphinx's: the HTTP row ran on the MySQL row's
    // server until session 23, its 16-client phase on a 46k-row table more, and the idle compaction after it
    // then merged its 2,000 rows into a 68k-row segment in 2 runs of 5 (~1 s of merge thread CPU; trace of
    // QUARRY_TRACE_PHASES=1: parts=68000+2000), the 305 ms a 1000 rows of S22 against the MySQL row's 155
    for (const over of ['overMysql', 'overHttp'] as const) {
      const quarry = await startQuarry(join(base, `quarry-${over}`));
      try {
        const c = await quarry.overHttp.open();
        await c.exec(CREATE);
        await c.close();
        rows.push(await peerRow(quarry[over], docs, rows.length));
      } finally {
        await quarry.stop(); // a failed row must not leave its server running
      }
    }
    const sphinx = await sphinxPeer(join(base, 'sphinx'));
    rows.push(await peerRow(sphinx, docs, 2));
    await sphinx.stop();
    return rows;
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}
