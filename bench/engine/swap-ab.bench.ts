// bench/engine/swap-ab.bench.ts: the protocol-thread CPU of swapping a merged segment in (MergeScheduler
// #swapIn: the merged rows' ids, the doc map re-pointed at them, the blob placed), this build against
// a baseline build, alternated run by run in child processes. Each child loads `--parts` segments of
// `--rows` synthetic one-line documents (tiny blobs: the per-row work, not the blob copy, dominates),
// times mergeSegments over them (the merge thread's part, twice, the second counted), then OPTIMIZE
// (the same merge inline, then the swap): swap CPU = OPTIMIZE - merge. The swap grows with the doc map
// (its probes miss the caches), so the default is a 1.6M-row table. Work the swap leaves to later
// event-loop turns (the doc map's re-pointing in slices) is reported apart: its total and longest turn.
// `--background`: the same parts merged down to one by the idle compaction on the merge thread, as a
// quiet table's are, while a probe re-arms itself every event-loop turn: the longest wall gap between
// two probes (what a query arriving then waits at most), the most CPU the protocol thread spent between two
// probes (that wait on a quiet machine) and the gaps over 5 ms, until the swap's later work is done. Wall time: read it with the load average. `--tiered`: the tiered merge policy merges the
// parts as a load's are (on the merge thread: later merges are over segments the thread built), then the
// idle compaction. `--cpu` (with --background): no probe; the protocol thread's own CPU (its schedstat)
// from the last batch until the merges and their later work are done, and per merge: posting the jobs,
// taking the results in, the swaps.
// Run: npm run bench -- swap-ab [--background [--tiered] [--cpu]] [--baseline DIR] [--parts 160] [--rows 10000] [--rounds 3]
// (DIR: a copy of a checkout with dist/ and build/; or node dist/bench/engine/swap-ab.bench.js after npx tsc).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { fileURLToPath } from 'node:url';
import { runAlternated, processCpuMs } from '../lib/ab-children.js';
import { arg } from '../lib/bench-util.js';

/** In a child: the swap with the modules of the checkout at `root`. */
async function child(root: string): Promise<void> {
  const mod = (p: string) => import(join(root, 'dist', p));
  (await mod('src/engine/node-host.js')).installNodeHost();
  const { RtIndex } = await mod('src/index/rt-index.js');
  const { createTextPipeline } = await mod('src/text/text-pipeline.js');
  const { mergeSegments } = await mod('src/index/segment/segment-merger.js');
  const parts = arg('parts', 160);
  const rows = arg('rows', 10000);
  const schema = { fields: ['body'], attrs: [{ name: 'n', type: 'uint' }] };
  const pipeline = createTextPipeline({});
  const background = process.argv.includes('--background');
  // background: the idle compaction merges all the parts into one, on the merge thread (after the tiered
  // policy's merges with --tiered, else none)
  const tiered = process.argv.includes('--tiered');
  const idx = new RtIndex(schema, background ? { idleMergeCutoff: 1, ...(tiered ? {} : { mergePolicy: { findMerge: () => null } }) } : { autoMerge: false });
  for (let b = 0, id = 1; b < parts; b++) {
    const batch = [];
    for (let i = 0; i < rows; i++, id++) batch.push({ docId: BigInt(id * 7 + 3), fields: [pipeline.indexField(`w${id % 5000} x${id % 77} y${id % 13}`)], attrs: [id % 1000] });
    idx.addBatch(batch);
  }
  if (background) return process.argv.includes('--cpu') ? protocolCpu(idx) : probeBackground(idx);
  const cpu = processCpuMs;
  mergeSegments(schema, idx.segments.slice());
  let c0 = cpu();
  mergeSegments(schema, idx.segments.slice());
  const merge = cpu() - c0;
  c0 = cpu();
  idx.optimize();
  const optimize = cpu() - c0;
  // work the swap left to later event-loop turns (segment-slots.ts re-points the doc map in slices):
  // its total, and the longest turn, what a request queued behind it waits at most
  let later = 0, longest = 0, quiet = 0, turns = 0;
  while (quiet < 3) {
    c0 = cpu();
    await new Promise((r) => setImmediate(r));
    const t = cpu() - c0;
    later += t;
    if (t >= 0.2) turns++;
    longest = Math.max(longest, t);
    quiet = t < 0.2 ? quiet + 1 : 0;
  }
  console.log(JSON.stringify({
    'merge CPU ms': Math.round(merge), 'OPTIMIZE CPU ms': Math.round(optimize), 'swap CPU ms': Math.round(optimize - merge),
    'later turns CPU ms': Math.round(later), 'longest turn ms': +longest.toFixed(1), 'busy turns': turns, segments: idx.segments.length,
  }));
}

/** This thread's on-CPU ms (the protocol thread is the process's first: its tid is the pid). */
function mainThreadCpuMs(): number {
  return Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'utf8').split(' ')[0]) / 1e6;
}

/** The protocol thread's CPU while the merges run on the merge thread (see the header). */
async function protocolCpu(idx: { segments: unknown[]; whenIdle(): Promise<void> }): Promise<void> {
  const segments = idx.segments.length;
  // merges: jobs posted to the merge thread (a message with a job, in either build's protocol)
  let merges = 0;
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (this: Worker, m: unknown, t?: unknown) {
    if ((m as { job?: unknown })?.job) merges++;
    return post.call(this, m, t as never);
  };
  const c0 = mainThreadCpuMs();
  await idx.whenIdle();
  await new Promise((r) => setTimeout(r, 1000));
  const ms = mainThreadCpuMs() - c0;
  console.log(JSON.stringify({ 'protocol thread CPU ms': Math.round(ms), merges, 'per merge ms': +(ms / Math.max(1, merges)).toFixed(1), 'segments before': segments, segments: idx.segments.length }));
}

/** The longest event-loop gaps while the idle compaction merges and swaps on its own (see the header). */
async function probeBackground(idx: { segments: unknown[]; whenIdle(): Promise<void> }): Promise<void> {
  const t0 = performance.now();
  let last = t0, longest = 0, over5 = 0, probing = true;
  // and the protocol thread's own CPU between two probes: the stall a quiet machine would show
  let lastCpu = mainThreadCpuMs(), longestCpu = 0;
  const probe = () => {
    const now = performance.now(), cpu = mainThreadCpuMs();
    longest = Math.max(longest, now - last);
    longestCpu = Math.max(longestCpu, cpu - lastCpu);
    if (now - last > 5) over5++;
    last = now;
    lastCpu = cpu;
    if (probing) setImmediate(probe);
  };
  setImmediate(probe);
  await idx.whenIdle();
  // the swap's later turns (re-pointing the doc map, where the build has them) settle within a second
  await new Promise((r) => setTimeout(r, 1000));
  probing = false;
  console.log(JSON.stringify({ 'longest gap ms': +longest.toFixed(1), 'longest turn CPU ms': +longestCpu.toFixed(1), 'gaps over 5 ms': over5, 'idle after ms': Math.round(performance.now() - t0 - 1000), segments: idx.segments.length }));
}

runAlternated(fileURLToPath(import.meta.url), child);
