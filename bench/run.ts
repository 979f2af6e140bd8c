// bench/run.ts: `npm run bench [-- engine|core|store ...]`. Runs the named benchmarks (default: engine),
// prints each one's table and writes bench/results/<name>.json, and beside it <name>.svg: a plot of the
// table's throughput and latency percentiles per peer (bench/plot/plot-svg.ts). Progress goes to stderr
// (bench/lib/progress.ts). Release WASM build; 2-core machine.
import { mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { engineBench } from './engine/engine.bench.js';
import { sideBySideBench } from './side-by-side/side-by-side.bench.js';
import { insertBench } from './insert/insert.bench.js';
import { highlightBench } from './highlight/highlight.bench.js';
import { writePlot } from './plot/plot.js';
import { progress } from './lib/progress.js';
import { httpClientNote } from './lib/http-client.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const RESULTS = `${ROOT}bench/results`;

function table(rows: Record<string, unknown>[]): string {
  if (!rows.length) return '';
  const cols = Object.keys(rows[0]);
  const fmt = (v: unknown) => (typeof v === 'number' ? (Number.isInteger(v) ? String(v) : v.toFixed(v < 10 ? 3 : 1)) : String(v));
  return [`| ${cols.join(' | ')} |`, `| ${cols.map(() => '---').join(' | ')} |`, ...rows.map((r) => `| ${cols.map((c) => fmt(r[c])).join(' | ')} |`)].join('\n');
}

async function main() {
  // names are the words that are neither `--flag`s nor a flag's value
  const argv = process.argv.slice(2);
  const names = argv.filter((a, i) => !a.startsWith('--') && !(i > 0 && argv[i - 1].startsWith('--')));
  mkdirSync(RESULTS, { recursive: true });
  for (const name of names.length ? names : ['engine']) {
    progress.step(`${name}: starting`);
    await runOne(name);
  }
  progress.clear();
}

/** The built script of a standalone benchmark: `NAME.bench.js` in whichever folder of dist/bench holds it. */
function scriptOf(name: string): string {
  const hit = (readdirSync(`${ROOT}dist/bench`, { recursive: true }) as string[]).find((f) => f.endsWith(`/${name}.bench.js`) || f === `${name}.bench.js`);
  if (!hit) throw new Error(`no benchmark named ${name} (dist/bench/**/${name}.bench.js)`);
  return `${ROOT}dist/bench/${hit}`;
}

/** Writes a result file and its plot; clears the progress line first so the table prints cleanly. */
function save(file: string, res: unknown): void {
  progress.clear();
  writeFileSync(`${RESULTS}/${file}.json`, JSON.stringify(res, null, 2));
  const plot = writePlot(file, res, `npm run bench -- ${file} (bench/results/${file}.json)`);
  if (plot) process.stderr.write(`plot: ${plot}\n`);
}

async function runOne(name: string): Promise<void> {
  if (name === 'engine') {
    const res = await engineBench();
    progress.clear();
    for (const r of res) {
      console.log(`\n## ${r.corpus}\n`);
      console.log(table([{ ...r.load }]));
      console.log();
      console.log(table(r.queries as unknown as Record<string, unknown>[]));
    }
    save('engine', res);
  } else if (name === 'insert') {
    const res = await insertBench();
    save('insert', res);
    console.log(`\n## INSERT throughput, quarry vs Sphinx 2.2.11\n\n${httpClientNote()}\n\n${table(res)}`);
  } else if (name === 'side-by-side') {
    const res = await sideBySideBench();
    // a synthetic run has a file of its own (side-by-side-synthetic-1000000), beside the 100k gcide one
    const docs = process.argv[process.argv.indexOf('--docs') + 1];
    const synthetic = process.argv.includes('--synthetic') ? `-synthetic-${process.argv.includes('--docs') ? docs : 100000}` : '';
    save(`side-by-side${synthetic}${process.argv.includes('--load-only') ? '-load' : ''}`, res);
    console.log(`\n## quarry vs Sphinx 2.2.11\n\n${httpClientNote()}\n\n${table(res)}`);
  } else if (name === 'highlight') {
    const res = await highlightBench();
    if (!('partial' in res)) save('highlight', res);
    console.log(`\n## Highlighted documents per second, quarry vs Sphinx 2.2.11\n\n${httpClientNote()}\n\n${table(res.classes)}`);
    console.log(JSON.stringify({ ...res, classes: undefined }, null, 2));
  } else {
    // Other benchmarks are standalone scripts printing JSON: core (WASM vs reference), store (lmdb).
    const out = spawnSync(process.execPath, [scriptOf(name), ...process.argv.slice(3)], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    progress.clear();
    console.log(out.stdout);
    writeFileSync(`${RESULTS}/${name}.json`, out.stdout);
    try {
      const plot = writePlot(name, JSON.parse(out.stdout), `npm run bench -- ${name} (bench/results/${name}.json)`);
      if (plot) process.stderr.write(`plot: ${plot}\n`);
    } catch {
      // not one JSON document (a script printing text): no plot
    }
  }
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
