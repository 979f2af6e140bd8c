// bench/import/import.bench.ts: bulk loading, `quarry import` beside Sphinx 2.2.11's `indexer` over the same rows
// in the same run: the dict-gcide entries (title, body; morphology stem_en) and 1M synthetic documents
// (bench/lib/synthetic.ts's Zipf vocabulary: title 4-11 words, body 30-89, a uint; seed 42). Both read one
// TSV file: Sphinx through a tsvpipe source (`cat FILE`) into a plain index, quarry with
// `quarry import --data` into an RT table of the same fields and settings (created first, so the
// settings match). Each is a real process timed by /usr/bin/time: wall seconds and CPU seconds (user +
// sys; the machine is shared, CPU time is the steadier figure). docs/s = documents / wall seconds.
// Sphinx's indexer runs on one thread; quarry import builds segments on a thread of its own beside the
// one reading and writing (src/engine/background/build-thread.ts): its CPU seconds are both threads' and V8's.
// Run: npm run bench -- import [--docs N (synthetic, default 1000000)] [--gcide N]. Prints JSON.
import { spawnSync } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { once } from 'node:events';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { open } from '../../src/index.js';
import { arg, mulberry32 } from '../lib/bench-util.js';
import { gcideAvailable, loadGcide } from '../lib/corpus.js';
import { VOCAB, word, zipf } from '../lib/synthetic.js';
import { progress } from '../lib/progress.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const INDEXER = '/usr/bin/indexer';
const TIME = '/usr/bin/time';

interface Corpus { name: string; file: string; docs: number; columns: string[]; attrs: string[]; morphology: string }

/** Writes rows `id \t col \t ...` (tabs and newlines in text become spaces). */
async function writeTsv(file: string, rows: Iterable<unknown[]>): Promise<number> {
  const out = createWriteStream(file);
  let n = 0;
  for (const r of rows) {
    n++;
    if (!out.write(`${r.map((v) => String(v).replace(/[\t\r\n]/g, ' ')).join('\t')}\n`)) await once(out, 'drain');
  }
  out.end();
  await once(out, 'finish');
  return n;
}

function* syntheticRows(n: number): Generator<unknown[]> {
  const rng = mulberry32(42);
  const pick = zipf(rng, VOCAB);
  const text = (len: number) => Array.from({ length: len }, () => word(pick())).join(' ');
  for (let i = 1; i <= n; i++) yield [i, text(4 + Math.floor(rng() * 8)), text(30 + Math.floor(rng() * 60)), Math.floor(rng() * 1000)];
}

/** Runs a command under /usr/bin/time: wall and CPU seconds; throws on failure. */
function timed(cmd: string, args: string[]): { wallS: number; cpuS: number; maxRssMiB: number } {
  const stats = join(tmpdir(), `quarry-bench-time-${process.pid}`);
  const r = spawnSync(TIME, ['-o', stats, '-f', '%e %U %S %M', cmd, ...args], { encoding: 'utf8', maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`${cmd} failed: ${r.stderr}`);
  const [wall, user, sys, rss] = readFileSync(stats, 'utf8').trim().split('\n').pop()!.split(' ').map(Number);
  rmSync(stats, { force: true });
  return { wallS: wall!, cpuS: user! + sys!, maxRssMiB: Math.round(rss! / 1024) };
}

function sphinxRun(dir: string, c: Corpus) {
  const conf = join(dir, 'sphinx.conf');
  const attrs = c.attrs.map((a) => `  tsvpipe_attr_uint = ${a}`).join('\n');
  const fields = c.columns.filter((x) => !c.attrs.includes(x)).map((f) => `  tsvpipe_field = ${f}`).join('\n');
  const text = `source src {\n  type = tsvpipe\n  tsvpipe_command = cat ${c.file}\n${fields}\n${attrs}\n}\n` +
    `index ${c.name} {\n  source = src\n  path = ${dir}/${c.name}\n  dict = keywords\n${c.morphology ? `  morphology = ${c.morphology}\n` : ''}}\n` +
    'indexer {\n  mem_limit = 512M\n}\n';
  mkdirSync(dir, { recursive: true });
  writeFileSync(conf, text);
  return timed(INDEXER, ['--config', conf, c.name, '--quiet']);
}

async function quarryRun(dir: string, c: Corpus) {
  const data = join(dir, 'data');
  const db = await open(data, { threads: 1 });
  const cols = c.columns.map((x) => `${x} ${c.attrs.includes(x) ? 'uint' : 'text'}`).join(', ');
  const [r] = await db.sql(`CREATE TABLE ${c.name} (${cols})${c.morphology ? ` morphology='${c.morphology}'` : ''}`);
  await db.close();
  if (r?.kind === 'error') throw new Error(r.message);
  return timed(process.execPath, [join(ROOT, 'bin/quarry.js'), 'import', '--table', c.name, '--data', data, '--format', 'tsv',
    '--no-header', '--columns', ['id', ...c.columns].join(','), '--quiet', c.file]);
}

async function main() {
  if (!existsSync(INDEXER)) throw new Error('Sphinx 2.2.11 is not installed: apt-get install sphinxsearch');
  const dir = mkdtempSync(join(tmpdir(), 'quarry-import-bench-'));
  const results: Record<string, unknown>[] = [];
  try {
    const corpora: Corpus[] = [];
    if (gcideAvailable()) {
      const docs = loadGcide(arg('gcide', Infinity));
      const file = join(dir, 'gcide.tsv');
      const n = await writeTsv(file, docs.map((d) => [d.id, d.title, d.body]));
      corpora.push({ name: 'gcide', file, docs: n, columns: ['title', 'body'], attrs: [], morphology: 'stem_en' });
    }
    const synth = join(dir, 'synthetic.tsv');
    const n = await writeTsv(synth, syntheticRows(arg('docs', 1_000_000)));
    corpora.push({ name: 'synthetic', file: synth, docs: n, columns: ['title', 'body', 'n'], attrs: ['n'], morphology: '' });
    for (const c of corpora) {
      progress.step(`import: ${c.name}, ${c.docs.toLocaleString('en-US')} documents: Sphinx 2.2.11 indexer`);
      const sphinx = sphinxRun(join(dir, `sphinx-${c.name}`), c);
      progress.step(`import: ${c.name}, ${c.docs.toLocaleString('en-US')} documents: quarry import`);
      const quarry = await quarryRun(join(dir, `quarry-${c.name}`), c);
      for (const [peer, t] of [['Sphinx 2.2.11 indexer (tsvpipe)', sphinx], ['quarry import --data', quarry]] as const) {
        results.push({ corpus: c.name, docs: c.docs, peer, wallS: t.wallS, cpuS: Number(t.cpuS.toFixed(2)), maxRssMiB: t.maxRssMiB,
          docsPerSec: Math.round(c.docs / t.wallS), docsPerCpuSec: Math.round(c.docs / t.cpuS) });
      }
      results.push({ corpus: c.name, docs: c.docs, peer: 'ratio quarry / Sphinx',
        docsPerSec: Number((sphinx.wallS / quarry.wallS).toFixed(2)), docsPerCpuSec: Number((sphinx.cpuS / quarry.cpuS).toFixed(2)) });
      rmSync(join(dir, `quarry-${c.name}`), { recursive: true, force: true });
      rmSync(join(dir, `sphinx-${c.name}`), { recursive: true, force: true });
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(JSON.stringify(results, null, 2));
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
