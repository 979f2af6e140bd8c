// bench/import/build-job.bench.ts: the build thread's work in `quarry import --data` without the import around
// it: the dict-gcide rows in 25,000-row jobs (buildJobOf, as row-load.ts makes them), each built by
// buildOfJob on one fresh pipeline, as the build thread does, in a fresh process per run (the thread's
// first batch is cold: JIT, scanner ids, stems; it costs ~2.4x a later one). Per run: CPU ms of priming
// (`--prime N`: the first N rows tokenized first, as quarry import does while it reads its first batch,
// their tokens kept for the first job where the build has primed-fields.ts),
// of the first job, of the rest, and the md5 of the segment blobs (equal across builds: byte-identical
// segments). With `--baseline DIR` (a checkout with dist/ built) that build runs beside this one, the
// order alternated, so a load change on the shared machine hits both alike.
// Run: npm run bench -- build-job [--gcide N] [--runs R] [--prime N] [--baseline DIR]. Defaults: every
// gcide entry, 3 runs. Prints JSON.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { arg, argString } from '../lib/bench-util.js';
import { loadGcide } from '../lib/corpus.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const BATCH = 25_000;
const cpuMs = () => { const c = process.cpuUsage(); return (c.user + c.system) / 1000; };

/** One run in this process with the build at `root`: what the parent prints. */
async function child(root: string): Promise<void> {
  const load = (p: string) => import(pathToFileURL(resolve(root, 'dist/src', p)).href);
  const { installNodeHost } = await load('engine/node-host.js');
  const { createTextPipeline } = await load('text/text-pipeline.js');
  const { keepInversionScratch } = await load('index/segment/inversion-scratch.js');
  const jobs = await load('engine/background/build-job.js');
  // as build-worker.ts starts: host, kept scratch, the scanner's core compiled
  installNodeHost();
  keepInversionScratch(1 << 22);
  createTextPipeline({}).indexField('warm');
  // and, in a build that has it, the build's code warmed on made-up rows (warm-build.ts)
  await load('engine/background/warm-build.js').then((m) => m.warmBuild(), () => undefined);
  const docs = loadGcide(arg('gcide', Infinity));
  const schema = { fields: ['title', 'body'], attrs: [] };
  const settings = { morphology: 'stem_en' };
  const jobOf = (from: number, to: number) => jobs.buildJobOf(schema, settings, docs.slice(from, to).map((d) => BigInt(d.id)),
    docs.slice(from, to).map((d) => ({ title: d.title, body: d.body })));
  const batches = [];
  for (let i = 0; i < docs.length; i += BATCH) batches.push(jobOf(i, Math.min(i + BATCH, docs.length)));
  const pipeline = createTextPipeline(settings);
  const prime = arg('prime', 0);
  let primeMs = 0;
  // the primed tokens kept for the first job, as the build thread keeps them (a build that has the module)
  const kept = await load('engine/background/primed-fields.js').then((m) => new m.PrimedFields(pipeline), () => undefined);
  if (prime > 0 && jobs.primeFields) {
    const t = cpuMs();
    jobs.primeFields(pipeline, jobOf(0, prime), undefined, kept);
    primeMs = cpuMs() - t;
  }
  const md5 = createHash('md5');
  const t0 = cpuMs();
  md5.update(jobs.buildOfJob(pipeline, batches[0], prime > 0 ? kept : undefined).blob);
  const t1 = cpuMs();
  for (const job of batches.slice(1)) md5.update(jobs.buildOfJob(pipeline, job).blob);
  const t2 = cpuMs();
  console.log(JSON.stringify({ primeMs: Math.round(primeMs), firstMs: Math.round(t1 - t0), restMs: Math.round(t2 - t1), md5: md5.digest('hex') }));
}

async function main() {
  const self = argString('child');
  if (self) return child(self);
  const baseline = argString('baseline');
  const builds = baseline ? [['baseline', resolve(baseline)], ['this', ROOT]] : [['this', ROOT]];
  const rest = process.argv.slice(2).filter((_, i, a) => a[i] !== '--baseline' && a[i - 1] !== '--baseline');
  const results: Record<string, unknown>[] = [];
  for (let r = 0; r < arg('runs', 3); r++) {
    const order = r % 2 === 0 ? builds : [...builds].reverse();
    for (const [build, root] of order) {
      const out = spawnSync(process.execPath, [fileURLToPath(import.meta.url), ...rest, '--child', root], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
      if (out.status !== 0) throw new Error(`${build} run failed`);
      results.push({ build, run: r, ...JSON.parse(out.stdout) });
    }
  }
  console.log(JSON.stringify(results, null, 2));
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
