// bench/insert/insert-build.bench.ts: the two ways a big INSERT's segment is built on the protocol thread, in
// process over the side-by-side's table (title text, body text, len uint, morphology='stem_en', the core's
// field scanner as the server installs it): `inputs`, a DocInput per row (Table.docInput: FieldTokens of
// packed term numbers per field) then invertDocs, as every INSERT did before; `stored`, buildOfJob over the
// rows' texts (what RtIndex builds a batch of TextRows with, text-row.ts: fields scanned a run at a time
// straight into the inversion). dict-gcide in 1000-row batches, each path in a child process of its
// own, alternated round by round; per run the protocol thread's CPU ms per 1000 rows (/proc, the thread
// alone), the process's (V8's GC and compiler threads too), the first `--warm` rows not counted, and the
// md5 of every segment's blob, dictionary and host columns (equal: the paths build the same segments).
// Session 15, 3 rounds, load average 19.8: inputs 12.2 / 11.0 / 13.2 ms main (13.2 / 13.2 / 13.8 process),
// stored 11.0 / 10.7 / 11.5 (11.0 / 11.6 / 12.4); md5 equal. In the server, main's build against this one
// alternated: `node dist/bench/side-by-side/load-ab.bench.js --baseline DIR --rounds 3` twice (load average 22-35),
// protocol thread ms per 1000 docs MySQL 27/27/27/28/27/31 -> 25/25/28/23/25/24, /bulk 25/25/28/26/28/27 ->
// 25/24/25/25/25/25; `npm run bench -- side-by-side --docs 100000 --load-only 1` twice each (load 26-33),
// server CPU per 1000 docs till the last answer /sql 59.0/57.4 -> 46.7/48.5, MySQL 48.3/45.0 -> 34.0/36.2,
// /bulk 47.4/45.5 -> 39.7/36.0 (Sphinx 26.8-27.9); docs/s ratios to Sphinx at that load: /sql 0.48/0.76 ->
// 1.14/0.75, MySQL 0.30/0.78 -> 1.39/0.94, /bulk 0.31/0.91 -> 1.22/0.96.
// Run: npm run build && node dist/bench/insert/insert-build.bench.js [--docs 80000] [--warm 20000] [--rounds 3]
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { arg, argString } from '../lib/bench-util.js';
import { loadGcide } from '../lib/corpus.js';
import { processCpuMs } from '../lib/ab-children.js';
import { installNodeHost } from '../../src/engine/node-host.js';
import { buildJobOf, buildOfJob } from '../../src/engine/background/build-job.js';
import { indexedField } from '../../src/engine/field-input.js';
import { buildSegment, invertDocs, type BuiltSegment } from '../../src/index/segment/segment-builder.js';
import { pairSettings } from '../../src/index/segment/segment-pairs.js';
import type { IndexSchema } from '../../src/index/types.js';
import { createTextPipeline } from '../../src/text/text-pipeline.js';

const BATCH = 1000;

/** CPU ms (user + system) of this process's main thread alone. */
function mainThreadCpuMs(): number {
  const f = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10; // clock ticks of 10 ms
}

/** One run of `path` in this process: prints its figures as one JSON line. */
function child(path: string): void {
  installNodeHost();
  const settings = { morphology: 'stem_en' };
  const schema: IndexSchema = { fields: ['title', 'body'], attrs: [{ name: 'len', type: 'uint' }], pairs: pairSettings(settings) };
  const pipeline = createTextPipeline(settings);
  const docs = loadGcide(arg('docs', 80_000));
  const warm = arg('warm', 20_000);
  const md5 = createHash('md5');
  let main = 0;
  let all = 0;
  for (let i = 0; i < docs.length; i += BATCH) {
    const batch = docs.slice(i, i + BATCH);
    const ids = batch.map((d) => BigInt(d.id));
    const stored = batch.map((d) => ({ title: d.title, body: d.body, len: d.body.length }));
    const m0 = mainThreadCpuMs();
    const p0 = processCpuMs();
    let built: BuiltSegment;
    if (path === 'inputs') {
      const inputs = stored.map((d, r) => ({ docId: ids[r]!, fields: schema.fields.map((f) => indexedField(pipeline, settings, String(d[f as 'title'] ?? ''))), attrs: [d.len] }));
      built = buildSegment(schema, invertDocs(schema, inputs));
    } else {
      built = buildOfJob(pipeline, buildJobOf(schema, settings, ids, stored));
    }
    if (i >= warm) {
      main += mainThreadCpuMs() - m0;
      all += processCpuMs() - p0;
    }
    md5.update(built.blob).update(built.terms.join('\u0000')).update(JSON.stringify(built.hostCols, (_, v) => (typeof v === 'bigint' ? String(v) : v)));
  }
  const per = (ms: number) => +((ms / (docs.length - warm)) * BATCH).toFixed(2);
  console.log(JSON.stringify({ 'main CPU ms/1000': per(main), 'process CPU ms/1000': per(all), md5: md5.digest('hex') }));
}

const path = argString('path');
if (path) {
  child(path);
} else {
  const self = fileURLToPath(import.meta.url);
  const rows: Record<string, unknown>[] = [];
  for (let r = 0; r < arg('rounds', 3); r++) {
    for (const p of ['inputs', 'stored']) {
      const res = spawnSync(process.execPath, ['--min-semi-space-size=4', self, ...process.argv.slice(2), '--path', p], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
      rows.push({ path: p, round: r + 1, ...JSON.parse(res.stdout.trim().split('\n').pop()!) });
    }
  }
  console.log(JSON.stringify(rows, null, 2));
}
