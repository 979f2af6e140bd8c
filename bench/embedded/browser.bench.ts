// bench/embedded/browser.bench.ts: quarry in a page (headless Chromium, the exported gcide table fetched in
// chunks over loopback) beside MiniSearch and FlexSearch indexing the same documents in the same page.
// Per class: p50/p99 ms of a query's first run (cold: it fetches its chunks) and second run (warm);
// bytes a first query fetches; bundle size. Run: npm run bench -- browser [--docs N] [--queries M].
// Needs dict-gcide and Debian chromium. Seed 42.
import { readFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { exportTable } from '../../src/engine/export/export-table.js';
import { open } from '../../src/index.js';
import { launchChromium } from '../../test/helpers/chromium.js';
import { serveFolder } from '../../test/e2e/browser/static-server.js';
import { arg, mulberry32, percentile, sqlString } from '../lib/bench-util.js';
import { BENCH_PAGE, type BenchQuery } from './browser-page.js';
import { loadGcide, type CorpusDoc } from '../lib/corpus.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));

/** Medium-frequency words (df 30..3000) and adjacent pairs, picked from random documents. */
function benchQueries(docs: CorpusDoc[], perClass: number): BenchQuery[] {
  const rnd = mulberry32(42);
  const df = new Map<string, number>();
  const words = (d: CorpusDoc) => d.body.toLowerCase().match(/[a-z]{4,}/g) ?? [];
  for (const d of docs) for (const w of new Set(words(d))) df.set(w, (df.get(w) ?? 0) + 1);
  const mid = (w: string) => { const n = df.get(w) ?? 0; return n >= 30 && n <= 3000; };
  const out: BenchQuery[] = [];
  const pick = (): string[] => {
    for (;;) {
      const ws = words(docs[Math.floor(rnd() * docs.length)]);
      const i = Math.floor(rnd() * (ws.length - 1));
      if (ws.length > 1 && mid(ws[i]) && mid(ws[i + 1]) && ws[i] !== ws[i + 1]) return [ws[i], ws[i + 1]];
    }
  };
  for (let i = 0; i < perClass; i++) {
    const [a, b] = pick();
    out.push({ cls: 'word', quarry: a, mini: { q: a, and: false, prefix: false }, flex: a });
    out.push({ cls: 'and', quarry: `${a} ${b}`, mini: { q: `${a} ${b}`, and: true, prefix: false }, flex: `${a} ${b}` });
    out.push({ cls: 'or', quarry: `${a} | ${b}`, mini: { q: `${a} ${b}`, and: false, prefix: false }, flex: null });
    out.push({ cls: 'phrase', quarry: `"${a} ${b}"`, mini: { q: `${a} ${b}`, and: true, prefix: false }, flex: `${a} ${b}` });
    out.push({ cls: 'prefix', quarry: `${a.slice(0, 4)}*`, mini: { q: a.slice(0, 4), and: false, prefix: true }, flex: null });
  }
  return out;
}

const stats = (ms: (number | null)[]) => {
  const s = ms.filter((x): x is number => x !== null).sort((a, b) => a - b);
  return s.length ? { p50: +percentile(s, 50).toFixed(2), p99: +percentile(s, 99).toFixed(2) } : null;
};

async function main(): Promise<void> {
  const nDocs = arg('docs', 100_000);
  const perClass = arg('queries', 20);
  const docs = loadGcide(nDocs);
  const dir = mkdtempSync(join(tmpdir(), 'quarry-bench-browser-'));
  const chrome = await launchChromium();
  try {
    const db = await open(join(dir, 'data'));
    await db.sql("CREATE TABLE gcide (title text, body text) min_prefix_len='4'");
    for (let i = 0; i < docs.length; i += 1000) {
      const vals = docs.slice(i, i + 1000).map((d) => `(${d.id}, ${sqlString(d.title)}, ${sqlString(d.body)})`).join(',');
      await db.sql(`INSERT INTO gcide (id, title, body) VALUES ${vals}`);
    }
    await db.sql('OPTIMIZE TABLE gcide');
    await db.close();
    const site = join(dir, 'site');
    const exported = await exportTable(join(dir, 'data'), 'gcide', site);
    const queries = benchQueries(docs, perClass);
    const nm = join(ROOT, 'node_modules');
    const server = await serveFolder(site, {
      '/bench.html': BENCH_PAGE, '/favicon.ico': '',
      '/minisearch.js': readFileSync(join(nm, 'minisearch/dist/es/index.js'), 'utf8'),
      '/flexsearch.js': readFileSync(join(nm, 'flexsearch/dist/flexsearch.bundle.module.min.mjs'), 'utf8'),
      '/docs.json': JSON.stringify(docs),
    });
    const page = await chrome.browser.newPage();
    await page.goto(`${server.url}/bench.html`);
    await page.waitForFunction(() => typeof (window as any).quarryRun === 'function');
    const bytes = () => server.requests.splice(0).reduce((n, r) => n + r.bytes, 0);
    const requests = () => server.requests.length;
    bytes();
    const openMs = await page.evaluate(() => (window as any).quarryOpen());
    const openReqs = requests();
    const openBytes = bytes();
    // the first query: a one-word query of the set, with highlights (its documents fetched too)
    const firstMs = await page.evaluate((w) => (window as any).quarryFirst(w), queries[0].quarry);
    const firstReqs = requests();
    const firstBytes = bytes();
    const q = await page.evaluate((qs) => (window as any).quarryRun(qs), queries);
    const runBytes = bytes();
    const peers = await page.evaluate((qs) => (window as any).runPeers(qs), queries);
    await server.close();
    const byClass = [...new Set(queries.map((x) => x.cls))].map((cls) => {
      const idx = queries.map((x, i) => (x.cls === cls ? i : -1)).filter((i) => i >= 0);
      return {
        class: cls, quarryCold: stats(idx.map((i) => q.cold[i])), quarryWarm: stats(idx.map((i) => q.warm[i])),
        minisearch: stats(idx.map((i) => peers.mini[i])), flexsearch: stats(idx.map((i) => peers.flex[i])),
      };
    });
    const build = join(ROOT, 'build');
    const gz = (f: string) => gzipSync(readFileSync(join(build, f)), { level: 9 }).length;
    console.log(JSON.stringify({
      bench: 'browser', seed: 42, docs: nDocs, queriesPerClass: perClass, chromium: chrome.browser.version(),
      bundleGzipBytes: { js: gz('quarry-browser.js'), wasm: gz('release.wasm') },
      exportBytes: exported.files,
      quarry: {
        open: { ms: +openMs.toFixed(1), bytes: openBytes, requests: openReqs },
        firstQuery: { query: queries[0].quarry, ms: +firstMs.toFixed(1), bytes: firstBytes, requests: firstReqs },
        allQueriesBytes: runBytes,
      },
      peers: { miniIndexMs: Math.round(peers.miniIndexMs), flexIndexMs: Math.round(peers.flexIndexMs) },
      byClass,
    }, null, 2));
  } finally {
    await chrome.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((e) => { console.error(e); process.exitCode = 1; });
