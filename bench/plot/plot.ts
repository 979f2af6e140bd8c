// bench/plot/plot.ts: `npm run bench:plot` writes bench/results/<name>.svg beside every results file whose
// table has throughput or latency columns (bench/plot/plot-svg.ts), from the committed JSON: no bench rerun.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { plotSvg, rowsOf } from './plot-svg.js';

const RESULTS = fileURLToPath(new URL('../../../bench/results', import.meta.url));

/** Writes `<name>.svg` for the results `json`; returns the file written, if any. */
export function writePlot(name: string, json: unknown, title = name): string | undefined {
  const rows = rowsOf(json);
  const svg = rows && plotSvg(title, rows);
  if (!svg) return undefined;
  const file = `${RESULTS}/${name}.svg`;
  writeFileSync(file, svg);
  return file;
}

function main(): void {
  for (const f of readdirSync(RESULTS).filter((n) => n.endsWith('.json')).sort()) {
    const name = f.replace(/\.json$/, '');
    const written = writePlot(name, JSON.parse(readFileSync(`${RESULTS}/${f}`, 'utf8')), `npm run bench -- ${name.replace(/-load$/, ' --load-only')} (bench/results/${f})`);
    console.log(written ? `wrote ${written}` : `${f}: no throughput or latency columns, no plot`);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
