// bench/memory/pss-probe.ts: quarry's PSS at rest after the side-by-side's sequence, second by second. Replays
// bench/side-by-side/side-by-side.bench.ts up to its footprint reading (100k gcide in 1000-row INSERTs over /sql, the
// measure phase's query mix over /sql then /search), then samples PSS, its parts (bench/lib/footprint.ts) and
// LazyFree every second for --seconds (40), with the server's CPU: whether the bimodal footprint reading
// (160 vs 200-250 MiB) is decided by the idle collection, the young generation or malloc's page return.
// Run: node dist/bench/memory/pss-probe.js [--docs 100000] [--seconds 40]; MALLOC_CONF etc. pass through to the
// server. Collections show as its CPU (quarry's idle ones at ~2 s, then its two follow-ups 5 and 10 s later,
// src/engine/background/idle-gc.ts; V8's own memory reducer, unannounced, 70-130 ms at 20-45 s after the
// queries, or later). Each query run's server CPU per query is printed too: an idle-time change must not
// move it. PROBE_BIN=/path/to/another/bin/quarry.js probes another build (alternate them: A, B, A, B).
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { arg, sqlString } from '../lib/bench-util.js';
import { loadGcide } from '../lib/corpus.js';
import { queryClasses } from '../engine/engine.bench.js';
import { memoryOf } from '../lib/footprint.js';
import { processCpuMs, waitIdle } from '../lib/process-cpu.js';
import { queryRun, startQuarry, type Peer } from '../side-by-side/side-by-side.bench.js';

const docs = loadGcide(arg('docs', 100_000));
const queries = queryClasses(docs, 50).flatMap((c) => c.queries);
const base = mkdtempSync(join(tmpdir(), 'quarry-pss-probe-'));
const t0 = Date.now();
const at = () => ((Date.now() - t0) / 1000).toFixed(1);
const lazyFree = (pid: number) => Number(/LazyFree:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/smaps_rollup`, 'utf8'))?.[1] ?? 0) / 1024;
// PROBE_BIN: another bin/quarry.js (a variant of its flags or environment), else this build's
const q = await startQuarry(join(base, 'quarry'), [], undefined, process.env.PROBE_BIN || undefined);
try {
  const c = await q.overHttp.open();
  await c.exec(`CREATE TABLE gcide (title text, body text, len uint) morphology='stem_en'`);
  // the load's wall and server CPU (every thread): a malloc or heap setting must not move them
  const load0 = processCpuMs(q.pid);
  const loadT0 = Date.now();
  for (let i = 0; i < docs.length; i += 1000) {
    const rows = docs.slice(i, i + 1000).map((d) => `(${d.id},${sqlString(d.title)},${sqlString(d.body)},${d.body.length})`);
    await c.exec(`INSERT INTO gcide (id, title, body, len) VALUES ${rows.join(',')}`);
  }
  await c.close();
  console.log(`${at()} loaded in ${((Date.now() - loadT0) / 1000).toFixed(1)} s, server CPU ${processCpuMs(q.pid) - load0} ms`, memoryOf(q.pid, true));
  // the side-by-side's measure(), for /sql and /search
  for (const peer of [q.overHttp, q.overJson] as Peer[]) {
    await waitIdle(q.pid);
    console.log(`${at()} idle, queries over ${peer.name}`);
    // server CPU per query of each run, the side-by-side's figure: what an idle-time change must not move
    const cpu: string[] = [];
    for (const [n, qs, minMs] of [[1, queries.slice(0, 200), 0], [8, queries, 5000], [1, queries, 2000], [8, queries, 2000], [64, queries, 2000]] as const) {
      cpu.push((await queryRun(peer, qs, n, 'gcide', minMs)).cpuMs.toFixed(3));
    }
    console.log(`${at()} server CPU ms/query over ${peer.name} (1 warm-up, 8, 1, 8, 64 clients): ${cpu.join(' ')}`);
  }
  console.log(`${at()} queries done ${Date.now()}`);
  let cpu = processCpuMs(q.pid);
  for (let s = 1; s <= arg('seconds', 40); s++) {
    await new Promise((r) => setTimeout(r, 1000));
    const now = processCpuMs(q.pid);
    const m = memoryOf(q.pid, true);
    console.log(`${at()} +${s}s ${Date.now()} cpu ${now - cpu}ms pss ${m.pss} wasm ${m.wasm}/${m.wasmMapped} anon256k ${m.anon256k} anonOther ${m.anonOther} lazyFree ${lazyFree(q.pid).toFixed(1)}`);
    cpu = now;
  }
  console.log(`${at()} at rest`, memoryOf(q.pid, true));
  // the first queries after the pause (1 client, the mix once): whether memory returned costs them
  const after = await queryRun(q.overHttp, queries, 1);
  console.log(`${at()} after the pause: ${queries.length} queries, server CPU ms/query ${after.cpuMs.toFixed(3)}, p50 ms ${after.p50ms.toFixed(2)}`);
} finally {
  await q.stop();
  rmSync(base, { recursive: true, force: true });
}
