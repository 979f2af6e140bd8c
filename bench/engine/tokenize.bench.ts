// bench/engine/tokenize.bench.ts: a field's tokenizing (fold, split, stem_en, positions) with the core's
// whole-field scanner (assembly/text/scan.ts) vs the TS tokenizer, on dict-gcide titles and bodies.
// indexField (what loading runs) and analyze (what highlighting runs), first pass over fresh text
// (every distinct word new to the pipeline, as loading meets it) and warm (the same text again, as
// highlighting meets it). CPU ns per term (process.cpuUsage), median of R rounds, the two
// tokenizers alternated within each round. Run: npm run bench -- tokenize [--docs N] [--rounds R].
import { installNodeHost } from '../../src/engine/node-host.js';
import { setFieldScannerFactory } from '../../src/text/field-scanner.js';
import { createTextPipeline, type TextPipeline } from '../../src/text/text-pipeline.js';
import { coreFieldScanners, resetCoreFieldScanners } from '../../src/wasm/field-scanner.js';
import { loadGcide } from '../lib/corpus.js';
import { arg } from '../lib/bench-util.js';

type Stage = 'indexField' | 'analyze';

function pipeline(core: boolean): TextPipeline {
  setFieldScannerFactory(core ? coreFieldScanners : null);
  const p = createTextPipeline({ morphology: 'stem_en' });
  setFieldScannerFactory(coreFieldScanners);
  return p;
}

/** CPU ns per term of one pass of `stage` over the texts. */
function pass(p: TextPipeline, stage: Stage, texts: string[], terms: number): number {
  const t0 = process.cpuUsage();
  if (stage === 'indexField') for (const t of texts) p.indexField(t);
  else for (const t of texts) p.analyze(t);
  const d = process.cpuUsage(t0);
  return ((d.user + d.system) * 1000) / terms;
}

const median = (xs: number[]): number => xs.slice().sort((a, b) => a - b)[xs.length >> 1];

function main(): void {
  installNodeHost();
  const docs = loadGcide(arg('docs', 30000));
  const rounds = arg('rounds', 5);
  const texts = docs.flatMap((d) => [d.title, d.body]);
  let terms = 0;
  const counter = createTextPipeline({ morphology: 'stem_en' });
  for (const t of texts) terms += counter.indexField(t).terms.length;
  const rows: Record<string, number | string>[] = [];
  for (const stage of ['indexField', 'analyze'] as Stage[]) {
    const r = { ts: { first: [] as number[], warm: [] as number[] }, core: { first: [] as number[], warm: [] as number[] } };
    for (let i = 0; i < rounds; i++) {
      for (const kind of (i % 2 ? ['core', 'ts'] : ['ts', 'core']) as ('ts' | 'core')[]) {
        // a fresh pipeline and an empty scanner cache: the first pass meets every distinct word anew
        resetCoreFieldScanners();
        const p = pipeline(kind === 'core');
        r[kind].first.push(pass(p, stage, texts, terms));
        r[kind].warm.push(pass(p, stage, texts, terms));
      }
    }
    for (const pass of ['first', 'warm'] as const) {
      const ts = median(r.ts[pass]);
      const core = median(r.core[pass]);
      rows.push({ stage, pass, tsNsPerTerm: +ts.toFixed(1), coreNsPerTerm: +core.toFixed(1), speedup: +(ts / core).toFixed(2) });
    }
  }
  console.log(JSON.stringify({ docs: docs.length, terms, rounds, rows }, null, 2));
}

main();
