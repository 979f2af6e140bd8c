// bench/highlight/highlight-scan-share.bench.ts: sizes the "scan less stored text" lever for JSON `highlight` (issue 16's
// low df class) before anyone builds it. For each query class (bench/engine/engine.bench.ts queryClasses on dict-gcide,
// each query's top 20 documents by quarry's own search, as highlight-builder --mode json takes them):
// - the JSON highlight work in process (highlightDocuments + highlightJsonText over title and body, every
//   field its passages or its start: the highlight bench's request without search and protocol), CPU us a query;
// - the scan alone: every field of those documents through the highlight fast path's core stream
//   (scanner + snipStream, the query's keywords; what scanDocument calls), CPU us a query, alternated with
//   the first round by round (median of `--rounds`);
// - how much of the stored text a windowed scan would have to read: the UTF-16 units within `--radius`
//   units (default 320: the default limit 256 plus a word and its gaps) of a keyword occurrence, found by
//   analyze() (the general tokenizer, stem_en), over all units of the scanned fields.
// So "scan share x (1 - covered)" bounds what a windowed scan could save of the highlight work (the
// windows' own prefilter not counted). Run: npm run build && node dist/bench/highlight/highlight-scan-share.bench.js
// [--docs N] [--queries M] [--classes 2] [--rounds 9] [--radius 320]
import { installNodeHost } from '../../src/engine/node-host.js';
import { parseQuery } from '../../src/query/parse-query.js';
import { createTextPipeline } from '../../src/text/text-pipeline.js';
import { highlightDocuments, parseJsonHighlight } from '../../src/highlight/highlight-request.js';
import { highlightJsonText } from '../../src/http/render-highlight.js';
import { skipLetters } from '../../src/highlight/snippet-scan-plan.js';
import type { StreamRequest } from '../../src/text/field-scanner.js';
import { arg, argString } from '../lib/bench-util.js';
import { loadGcide, type CorpusDoc } from '../lib/corpus.js';
import { queryClasses } from '../engine/engine.bench.js';
import { topDocs } from './highlight-builder.bench.js';

const PASSES = 5;

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1];

function cpuUs(f: () => void | Promise<void>): Promise<number> {
  const c0 = process.cpuUsage();
  return Promise.resolve(f()).then(() => {
    const c = process.cpuUsage(c0);
    return c.user + c.system;
  });
}

/** Units of `text` within `radius` of a token whose term is a keyword, and whether it has one. */
function covered(tokens: { term: string; start: number; end: number }[], keywords: Set<string>, len: number, radius: number): number {
  let units = 0;
  let upTo = 0;
  for (const t of tokens) {
    if (!keywords.has(t.term)) continue;
    const from = Math.max(upTo, t.start - radius);
    const to = Math.min(len, t.end + radius);
    if (to > from) units += to - from;
    upTo = Math.max(upTo, to);
  }
  return units;
}

export async function highlightScanShareBench(): Promise<Record<string, string | number>[]> {
  installNodeHost();
  const docs = loadGcide(arg('docs', 100000));
  const classes = queryClasses(docs, arg('queries', 20));
  const only = (argString('classes') ?? '2').split(',').map(Number);
  const rounds = arg('rounds', 9);
  const radius = arg('radius', 320);
  const top = await topDocs(docs, classes.filter((_, i) => only.includes(i)).flatMap((c) => c.queries));
  const pipeline = createTextPipeline({ morphology: 'stem_en' });
  const env = { pipeline, settings: { morphology: 'stem_en' } };
  const fields = ['title', 'body'];
  const table = { env, schemaFields: fields, storedFields: fields };
  const spec = parseJsonHighlight({});
  const plain = pipeline.streamScanner?.();
  if (!plain) throw new Error('no stream scanner for stem_en');
  const st = pipeline.settings;
  const rows: Record<string, string | number>[] = [];
  for (const ci of only) {
    const c = classes[ci];
    const work = c.queries.map((q) => {
      const words = q.replace(/@title|["|]/g, ' ').trim();
      const terms = [...new Set(pipeline.analyze(words).tokens.map((t) => t.term).filter((t) => t !== ''))];
      const keywords = new Map(terms.map((t, i) => [t, i]));
      let letters = 0;
      for (const t of terms) { const i = t.charCodeAt(0) - 0x61; if (i >= 0 && i < 26) letters |= 1 << i; }
      const req: StreamRequest = {
        term: plain.term, dictKey: plain.dictKey, keywords, overshortStep: st.overshortStep, stopwordStep: st.stopwordStep,
        boundaryStep: st.phraseBoundaryStep, slot: 0, skipFirst: skipLetters(plain.namedLetters, letters, st.stopwordStep),
      };
      const ds = (top.get(q) ?? []).map((d: CorpusDoc) => Object.freeze({ title: d.title, body: d.body }));
      return { root: parseQuery(q, { fields }).root, docs: ds, terms: new Set(terms), req };
    });
    let units = 0;
    let near = 0;
    let nDocs = 0;
    for (const w of work) {
      for (const d of w.docs) {
        nDocs++;
        for (const text of [d.title, d.body]) {
          units += text.length;
          near += covered(pipeline.analyze(text).tokens, w.terms, text.length, radius);
        }
      }
    }
    const json = async (): Promise<void> => {
      for (const w of work) for (const hl of await highlightDocuments(w.root, w.docs, fields, spec, table)) highlightJsonText(hl);
    };
    const scan = (): void => {
      for (const w of work) {
        for (const d of w.docs) {
          w.req.slot = 0;
          plain.scanner.stream(d.title, w.req);
          w.req.slot = 1;
          plain.scanner.stream(d.body, w.req);
        }
      }
    };
    await json();
    scan();
    const a: number[] = [];
    const b: number[] = [];
    for (let r = 0; r < rounds; r++) {
      const pair = [async () => a.push(await cpuUs(async () => { for (let k = 0; k < PASSES; k++) await json(); })),
        async () => b.push(await cpuUs(() => { for (let k = 0; k < PASSES; k++) scan(); }))];
      if (r % 2) pair.reverse();
      for (const p of pair) await p();
    }
    const perQuery = (us: number): number => us / PASSES / work.length;
    const hl = perQuery(median(a));
    const sc = perQuery(median(b));
    rows.push({
      class: c.name, 'docs a query': +(nDocs / work.length).toFixed(1), 'units a doc': Math.round(units / nDocs),
      [`covered within ${radius}`]: +(near / units).toFixed(3), 'JSON highlight CPU us/query': +hl.toFixed(1),
      'scan CPU us/query': +sc.toFixed(1), 'scan share': +(sc / hl).toFixed(3),
      'bound saved by windows': +((sc / hl) * (1 - near / units)).toFixed(3),
    });
  }
  return rows;
}

if (process.argv[1]?.endsWith('highlight-scan-share.bench.js')) {
  highlightScanShareBench().then((r) => console.log(JSON.stringify(r, null, 2))).catch((e) => { console.error(e); process.exitCode = 1; });
}
