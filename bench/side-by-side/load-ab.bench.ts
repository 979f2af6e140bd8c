// bench/side-by-side/load-ab.bench.ts: the side-by-side's loads (100k dict-gcide documents as 1000-row INSERTs over MySQL,
// then as /bulk bodies of 1000 documents over HTTP, each into a table of its own on a fresh server, as
// side-by-side.bench.ts's loads), this build against a baseline build, alternated run by run (the only fair
// comparison on a shared machine). Per load: docs/s and the server's CPU ms per 1000 documents, split into
// its protocol thread and all its other threads, counted till the server is idle again (merges, checkpoints),
// and the protocol thread's idle ms per 1000 documents during the load (wall time neither on a CPU nor
// waiting for one: waiting for a commit or for the client's next request; less moved by a loaded machine).
// Quarry only, no Sphinx (its figure is the side-by-side's).
// Run: npm run bench -- load-ab [--baseline DIR] [--docs 100000] [--rounds 2] [--profile DIR] (each server
// with --cpu-prof, its profiles in DIR/<build>-<round>) (DIR: a copy of a checkout with dist/, build/, bin/).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { arg, argString, sqlString } from '../lib/bench-util.js';
import { loadGcide, type CorpusDoc } from '../lib/corpus.js';
import { bulkBody, clientAgent, postOk } from '../lib/http-client.js';
import { mainThreadSched, threadCpuMs, waitIdle } from '../lib/process-cpu.js';
import { startQuarry } from './side-by-side.bench.js';

const ROOT = new URL('../../..', import.meta.url).pathname;
const BATCH = 1000;
const CREATE = (table: string) => `CREATE TABLE ${table} (title text, body text, len uint) morphology='stem_en'`;

/** One server of `bin`: the MySQL load, then (once idle) the /bulk load. */
async function run(bin: string, docs: CorpusDoc[], profile?: string): Promise<Record<string, number>> {
  const dir = mkdtempSync(join(tmpdir(), 'quarry-load-ab-'));
  const q = await startQuarry(join(dir, 'data'), profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [], undefined, bin);
  const pid = q.pid;
  /** Times `send` over every batch; CPU counted till idle again. */
  const timed = async (prefix: string, send: (batch: CorpusDoc[]) => Promise<void>) => {
    await waitIdle(pid);
    const cpu0 = threadCpuMs(pid);
    const sched0 = mainThreadSched(pid);
    const t0 = performance.now();
    for (let i = 0; i < docs.length; i += BATCH) await send(docs.slice(i, i + BATCH));
    const s = (performance.now() - t0) / 1000;
    const sched = mainThreadSched(pid);
    const idleMs = s * 1000 - (sched.runMs - sched0.runMs) - (sched.waitMs - sched0.waitMs);
    await waitIdle(pid);
    const cpu = threadCpuMs(pid);
    const per = (ms: number) => Math.round((ms / docs.length) * 1000);
    return { [`${prefix} docs/s`]: Math.round(docs.length / s), [`${prefix} CPU ms/1000 main`]: per(cpu.main - cpu0.main), [`${prefix} CPU ms/1000 other`]: per(cpu.other - cpu0.other), [`${prefix} main idle ms/1000`]: per(idleMs) };
  };
  try {
    const conn = await q.overMysql.open();
    await conn.exec(CREATE('gcide'));
    const mysql = await timed('MySQL', (batch) => conn.exec(`INSERT INTO gcide (id, title, body, len) VALUES ${batch.map((d) => `(${d.id},${sqlString(d.title)},${sqlString(d.body)},${d.body.length})`).join(',')}`));
    await conn.exec(CREATE('gcide_bulk'));
    await conn.close();
    const agent = clientAgent();
    const bulk = await timed('/bulk', async (batch) => { await postOk(agent, q.port, '/bulk', bulkBody('gcide_bulk', batch), 'application/x-ndjson'); });
    agent.destroy();
    return { ...mysql, ...bulk };
  } finally {
    await q.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const rounds = arg('rounds', 2);
const baseline = argString('baseline');
const profileDir = argString('profile') ?? undefined;
const docs = loadGcide(arg('docs', 100_000));
const builds: [string, string][] = [['this', join(ROOT, 'bin/quarry.js')]];
if (baseline) builds.unshift(['baseline', join(baseline, 'bin/quarry.js')]);
const rows: Record<string, unknown>[] = [];
for (let r = 0; r < rounds; r++) {
  for (const [name, bin] of builds) rows.push({ build: name, round: r + 1, ...(await run(bin, docs, profileDir && resolve(profileDir, `${name}-${r + 1}`))) });
}
console.log(JSON.stringify(rows, null, 2));
