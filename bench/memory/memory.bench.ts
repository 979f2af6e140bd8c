// bench/memory/memory.bench.ts: where quarry's memory and disk go for a table of N documents, next to Sphinx
// 2.2.11 holding the same documents in the same run. The engine runs in this process (1000-row
// INSERTs, stem_en, as engine.bench); the corpus is generated batch by batch and dropped, merges, the
// idle compaction and a checkpoint finish, then after a full GC it reports PSS (/proc/self/smaps_rollup) minus the
// process's PSS before any data (Node's own baseline, reported too; the ratio to Sphinx is of the whole process), the WASM linear memory
// (segment areas: term table, postings, attribute columns, field lengths, positions; and the core
// allocator's own account, coreHeapUsed / coreHeapFree: free blocks inside the memory stay resident
// once touched), the JS heap, lmdb's mapped pages, and disk per document.
// With --server, the real server instead (bin/quarry.js serve, loaded over MySQL, measured from outside once
// idle after its merges and a checkpoint): its whole PSS and disk, as a black-box harness sees them,
// and its segment count then.
// Run: npm run bench -- memory [--docs N] [--synthetic] [--server] [--no-sphinx]. Seed 42. QUARRY_HEAP_SNAPSHOT=FILE
// also writes a V8 heap snapshot of the loaded engine there.
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setFlagsFromString, getHeapStatistics, writeHeapSnapshot } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { open, type Database } from '../../src/index.js';
import type { RtIndex } from '../../src/index/rt-index.js';
import { H, TERM_INFO_WORDS } from '../../src/index/segment/segment-layout.js';
import { loadGcide, type CorpusDoc } from '../lib/corpus.js';
import { arg, diskBytes, sqlString } from '../lib/bench-util.js';
import { documentFrequencies, synthetic } from '../engine/engine.bench.js';
import { sphinxAvailable, startSphinx } from '../peers/sphinx.js';
import { startQuarry } from '../side-by-side/side-by-side.bench.js';
import { breakdown, rollup } from '../lib/smaps.js';
import { untilQuiet } from '../lib/footprint.js';

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;
const BATCH = 1000;
const MiB = 1024 * 1024;
const mib = (v: number) => Math.round((v / MiB) * 10) / 10;

/** PSS of the mappings whose name contains `part` (lmdb's data.mdb, malloc's [heap]). */
function mappedPss(part: string): number {
  let pss = 0;
  let inFile = false;
  for (const line of readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    if (/^[0-9a-f]+-[0-9a-f]+ /.test(line)) inFile = line.includes(part);
    else if (inFile && line.startsWith('Pss:')) pss += Number(/(\d+)/.exec(line)![1]) * 1024;
  }
  return pss;
}

function settle(): void {
  for (let i = 0; i < 3; i++) gc();
}

/** The bytes of each area of every segment blob in the index, and the JS-side dictionaries. */
function segmentAreas(index: RtIndex) {
  const a = { segments: 0, termTable: 0, postings: 0, columns: 0, fieldLens: 0, positions: 0, deletedBitmaps: 0, jsTermChars: 0, terms: 0 };
  for (const seg of index.segments) {
    const u32 = seg.core.u32;
    const h = (i: number) => u32[(seg.blobPtr >>> 2) + i];
    const termTable = h(H.termTable);
    const dictEnd = termTable + h(H.terms) * TERM_INFO_WORDS * 4;
    const colStart = seg.columnPtr(0) - seg.blobPtr;
    a.segments++;
    a.termTable += dictEnd - termTable;
    // positions sit inside the postings range, after each block's rows and tfs
    a.postings += colStart - dictEnd - h(H.posBytes);
    a.columns += h(H.fieldLen) - colStart;
    a.fieldLens += seg.blobLen - h(H.fieldLen);
    a.positions += h(H.posBytes);
    a.deletedBitmaps += Math.max(16, (seg.rows + 7) >>> 3);
    a.terms += seg.terms.length;
    for (const t of seg.terms) a.jsTermChars += t.length;
  }
  return a;
}

/** Loads `docs` into a peer with 1000-row INSERTs through `exec`. */
async function loadInto(exec: (sql: string) => Promise<void>, docs: CorpusDoc[]): Promise<void> {
  for (let i = 0; i < docs.length; i += BATCH) {
    const rows = docs.slice(i, i + BATCH).map((d) => `(${d.id},${sqlString(d.title)},${sqlString(d.body)},${d.body.length})`);
    await exec(`INSERT INTO gcide (id, title, body, len) VALUES ${rows.join(',')}`);
  }
}

async function quarryRun(docs: CorpusDoc[], dir: string, base: Record<string, number>) {
  const db: Database = await open(dir);
  await db.sql("CREATE TABLE gcide (title text, body text, len uint) morphology='stem_en'");
  await loadInto(async (sql) => {
    const [r] = await db.sql(sql);
    if (r.kind === 'error') throw new Error(r.message);
  }, docs);
  const engine = db.engine as unknown as { ctx: { catalog: { get(n: string): { index: RtIndex } } }; checkpoints: { runOnce(): Promise<void> } };
  const index = engine.ctx.catalog.get('gcide').index;
  await index.whenIdle(); // the layout the server keeps once quiet
  await engine.checkpoints.runOnce();
  docs.length = 0; // the corpus is garbage from here on
  settle();
  if (process.env.QUARRY_HEAP_SNAPSHOT) writeHeapSnapshot(process.env.QUARRY_HEAP_SNAPSHOT);
  const now = rollup('self');
  const heap = getHeapStatistics();
  const mem = process.memoryUsage();
  const areas = segmentAreas(index);
  const wasmBytes = index.core.exports.memory.buffer.byteLength;
  const coreHeap = index.core.heapStats(); // what the allocator holds in use and free
  const live = areas.termTable + areas.postings + areas.columns + areas.fieldLens + areas.positions + areas.deletedBitmaps;
  const result = {
    processPss: now.Pss, nodeBaselinePss: base.Pss, pss: now.Pss - base.Pss, rss: now.Rss - base.Rss,
    wasmLinearMemory: wasmBytes, wasmPss: breakdown('self').wasm, wasmSegments: live, wasmFreeOrScratch: wasmBytes - live, ...areas,
    coreHeapUsed: coreHeap.used, coreHeapFree: coreHeap.free, coreHeapLargestFree: coreHeap.largestFree,
    jsHeapUsed: heap.used_heap_size, jsHeapTotal: heap.total_heap_size, external: mem.external, arrayBuffers: mem.arrayBuffers,
    lmdbMappedPss: mappedPss('data.mdb'), mallocHeapPss: mappedPss('[heap]'), liveDocs: index.count(),
  };
  await db.close();
  const disk = { store: diskBytes(join(dir, 'store')), segmentFiles: diskBytes(join(dir, 'tables')) };
  return { ...result, diskStore: disk.store, diskSegments: disk.segmentFiles, disk: disk.store + disk.segmentFiles };
}

/** The real server (bin/quarry.js serve) loaded over MySQL, measured from outside as a black box. */
async function serverRun(docs: CorpusDoc[], dir: string) {
  const q = await startQuarry(dir);
  try {
    const conn = await q.overMysql.open();
    await conn.exec("CREATE TABLE gcide (title text, body text, len uint) morphology='stem_en'");
    await loadInto(conn.exec, docs);
    await conn.close();
    // Two checkpoint intervals (10 s): the last checkpoint, then the idle collections after it.
    await untilQuiet(q.pid, 22_000);
    const { Pss: pss, Rss: rss } = rollup(q.pid);
    return { processPss: pss, processRss: rss, parts: breakdown(q.pid), segments: await q.overHttp.segments!('gcide') };
  } finally {
    await q.stop();
  }
}

async function sphinxRun(docs: CorpusDoc[], dir: string) {
  const s = await startSphinx(dir, 19407, undefined, false);
  try {
    const c = await s.connect();
    await loadInto(async (sql) => { await c.query(sql); }, docs);
    const pid = Number(readFileSync(join(dir, 'searchd.pid'), 'utf8'));
    const { Pss: pss, Rss: rss } = rollup(pid);
    await c.query('FLUSH RTINDEX gcide');
    await c.end();
    const index = readdirSync(dir).filter((f) => f.startsWith('gcide.')).reduce((n, f) => n + statSync(join(dir, f)).size, 0);
    return { pss, rss, diskIndex: index };
  } finally {
    await s.stop();
  }
}

function corpus(n: number, useSynthetic: boolean): CorpusDoc[] {
  if (!useSynthetic) return loadGcide(n);
  return synthetic(documentFrequencies(loadGcide()), n);
}

async function main() {
  const n = arg('docs', 100_000);
  const useSynthetic = process.argv.includes('--synthetic');
  const withSphinx = !process.argv.includes('--no-sphinx') && sphinxAvailable();
  settle();
  const baseline = rollup('self'); // Node, the modules and the WASM core compiled: before any data
  const base = mkdtempSync(join(tmpdir(), 'quarry-mem-'));
  try {
    let docs = corpus(n, useSynthetic);
    const count = docs.length;
    const rawText = docs.reduce((t, d) => t + Buffer.byteLength(d.title) + Buffer.byteLength(d.body), 0);
    const sphinx = withSphinx ? await sphinxRun(docs, join(base, 'sphinx')) : null;
    if (process.argv.includes('--server')) {
      const server = await serverRun(docs, join(base, 'server'));
      const disk = diskBytes(join(base, 'server'));
      const row: Record<string, unknown> = { corpus: useSynthetic ? 'synthetic' : 'dict-gcide', docs: count, rawTextMiB: mib(rawText),
        serverPss: mib(server.processPss), serverRss: mib(server.processRss), diskMiB: mib(disk), diskBytesPerDoc: Math.round(disk / count),
        segments: server.segments };
      for (const [k, v] of Object.entries(server.parts)) row[`pss_${k}`] = ['wasmMemories', 'threads'].includes(k) ? v : mib(v);
      if (sphinx) Object.assign(row, { sphinxPss: mib(sphinx.pss), sphinxDiskIndex: mib(sphinx.diskIndex),
        ratioPss: Math.round((server.processPss / sphinx.pss) * 100) / 100, ratioDisk: Math.round((disk / (sphinx.diskIndex + rawText)) * 100) / 100 });
      console.log(JSON.stringify(row, null, 2));
      return;
    }
    const quarry = await quarryRun(docs, join(base, 'quarry'), baseline);
    docs = [];
    const rows: Record<string, unknown> = { corpus: useSynthetic ? 'synthetic' : 'dict-gcide', docs: count, rawTextMiB: mib(rawText) };
    for (const [k, v] of Object.entries(quarry)) rows[k] = ['segments', 'terms', 'jsTermChars', 'liveDocs'].includes(k) ? v : mib(v);
    rows.pssBytesPerDoc = Math.round(quarry.pss / count);
    rows.diskBytesPerDoc = Math.round(quarry.disk / count);
    if (sphinx) {
      rows.sphinxPss = mib(sphinx.pss);
      rows.sphinxDiskIndex = mib(sphinx.diskIndex);
      rows.ratioPss = Math.round((quarry.processPss / sphinx.pss) * 100) / 100;
      rows.ratioDisk = Math.round(quarry.disk / (sphinx.diskIndex + rawText) * 100) / 100;
    }
    console.log(JSON.stringify(rows, null, 2));
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
