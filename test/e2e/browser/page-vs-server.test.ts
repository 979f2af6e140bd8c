// The exported table in real headless Chromium, on the main thread and in a module Web Worker: for
// queries of every operator class the page's ids, weights, order, totals, stored fields, highlights and error texts
// equal the real server's `/search` (query_string) on the same table.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'lossless-json';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, launchChromium } from '../../helpers/chromium.js';
import { ROOT, startServer, type ServerProcess } from '../../helpers/server-process.js';
import { serveFolder, type StaticServer } from './static-server.js';
import { PAGE, WORKER, type PageCase } from './pages.js';
import { browserDocs } from './docs.js';

const HIGHLIGHT = { pre_tags: '<em>', post_tags: '</em>' };

/** Queries of every operator class; options as the page takes them. */
const CASES: PageCase[] = [
  { q: 'search engine' },
  { q: 'search | index' },
  { q: 'search -index' },
  { q: 'search !quick' },
  { q: '"quick search"' },
  { q: '"search engine index"~4' },
  { q: '"search engine quick index page"/3' },
  { q: '@title search' },
  { q: '@(title,body) quick -@title page' },
  { q: 'sear*' },
  { q: '*ngin*' },
  { q: '^quick' },
  { q: 'page$' },
  { q: 'search NEAR/3 index' },
  { q: 'quick << search' },
  { q: 'search MAYBE page' },
  { q: '(search | index) -(quick page)' },
  { q: '=searching' },
  { q: 'search', opts: { limit: 5, offset: 3 } },
  { q: 'search', opts: { limit: 100 } },
  { q: 'search engine', opts: { ranker: 'bm25' } },
  { q: 'search engine', opts: { ranker: 'sph04' } },
  { q: 'search engine', opts: { ranker: 'wordcount' } },
  { q: 'search engine', opts: { ranker: "expr('sum(lcs*user_weight)*1000+bm25')" } },
  { q: 'quick search', opts: { highlight: HIGHLIGHT } },
  { q: '"search engine"', opts: { highlight: { ...HIGHLIGHT, fragment_size: 40, number_of_fragments: 2 } } },
  { q: 'sear* | page', opts: { highlight: { fields: ['body'], limit_words: 5 } } },
  { q: 'bigid' },
  { q: 'nosuchword' },
  { q: '"unclosed' },
  { q: 'search', opts: { ranker: 'nosuch' } },
];

interface Hit { id: string; weight: number; highlight?: unknown; fields: Record<string, string> }
interface Answer { total?: number; hits?: Hit[]; error?: string }

/** Stored fields with numbers as their decimal text (the server's JSON keeps them exact as text). */
function textValues(doc: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(Object.entries(doc).map(([k, v]) => [k, String(v)]));
}

/** The server's answer to the same case, as the page shapes it. */
async function serverAnswer(srv: ServerProcess, c: PageCase): Promise<Answer> {
  const o = c.opts ?? {};
  const body = {
    table: 'docs', query: { query_string: c.q }, limit: o.limit ?? 20, offset: o.offset ?? 0,
    ...(o.ranker ? { options: { ranker: o.ranker } } : {}), ...(o.highlight ? { highlight: o.highlight } : {}),
  };
  const r = await srv.post('/search', JSON.stringify(body), { 'content-type': 'application/json' });
  // ids and scores as their exact text
  const json = parse(r.text, null, (v) => v) as Record<string, any>;
  if (json.error) return { error: typeof json.error === 'string' ? json.error : json.error.reason };
  return {
    total: Number(json.hits.total),
    hits: json.hits.hits.map((h: any) => ({
      id: String(h._id), weight: Number(h._score), fields: textValues(h._source), ...(o.highlight ? { highlight: h.highlight } : {}),
    })),
  };
}

/** The page's answer reduced to what the server comparison covers (ids as strings). */
function pageAnswer(a: any, c: PageCase): Answer {
  if (a.error !== undefined) return { error: a.error };
  return {
    total: a.total,
    hits: a.hits.map((h: any) => ({
      id: String(h.id), weight: h.weight, fields: textValues(h.fields), ...(c.opts?.highlight ? { highlight: h.highlight } : {}),
    })),
  };
}

describe.skipIf(!HAVE_CHROMIUM)('exported table in Chromium vs the server', () => {
  let dir: string;
  let srv: ServerProcess;
  let site: StaticServer;
  let chrome: Awaited<ReturnType<typeof launchChromium>>;
  let expected: Answer[];

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'quarry-browser-'));
    srv = await startServer(join(dir, 'data'));
    await srv.sql("CREATE TABLE docs (title text, body text, price int, tag string) morphology='stem_en' min_infix_len='3' index_exact_words='1'");
    for (const batch of browserDocs()) await srv.sql(`INSERT INTO docs (id, title, body, price, tag) VALUES ${batch}`);
    // one segment, as the export has: ties then come in the same row order
    await srv.sql('OPTIMIZE TABLE docs');
    expected = [];
    for (const c of CASES) expected.push(await serverAnswer(srv, c));
    const out = join(dir, 'site');
    const res = spawnSync(process.execPath, [join(ROOT, 'bin/quarry.js'), 'export', '--data', join(dir, 'data'), '--table', 'docs', '--out', out], { encoding: 'utf8' });
    expect(res.status, res.stderr).toBe(0);
    site = await serveFolder(out, { '/page.html': PAGE, '/worker.js': WORKER, '/favicon.ico': '' });
    chrome = await launchChromium();
  }, 120_000);

  afterAll(async () => {
    await chrome?.close();
    await site?.close();
    await srv?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('the server answered every case (sanity of the fixture)', () => {
    expect(expected.filter((a) => a.hits && a.hits.length > 0).length).toBeGreaterThan(20);
    expect(expected.filter((a) => a.error).length).toBe(2);
    expect(expected.find((a) => a.hits?.some((h) => h.id === '9007199254740993'))).toBeTruthy();
  });

  const MODES = [
    { where: 'main thread, chunks', worker: false, source: './' },
    { where: 'worker, chunks', worker: true, source: './' },
    { where: 'main thread, one image', worker: false, source: './table.qimg' },
  ];
  for (const { where, worker, source } of MODES) {
    it(`the page equals the server (${where})`, async () => {
      const page = await chrome.browser.newPage();
      const errors: string[] = [];
      page.on('pageerror', (e) => errors.push(e.message));
      page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
      await page.goto(`${site.url}/page.html`);
      await page.waitForFunction(() => typeof (window as any).runCases === 'function' || document.title === 'failed', null, { timeout: 10_000 }).catch(() => {});
      expect(errors).toEqual([]);
      const got = await page.evaluate(async ([cases, w, src]) => (window as any).runCases(cases, w, src), [CASES, worker, source] as const);
      expect(errors).toEqual([]);
      expect(got.isolated).toBe(false);
      CASES.forEach((c, i) => {
        expect(pageAnswer(got.answers[i], c), `${c.q} ${JSON.stringify(c.opts ?? {})}`).toEqual(expected[i]);
      });
      // the stored fields travel with the hits (bigint id as a decimal string)
      const big = got.answers[CASES.findIndex((c) => c.q === 'bigid')].hits[0];
      expect(big.id).toBe('9007199254740993');
      expect(big.fields.tag).toBe('big');
      got.parallel.forEach((a: unknown, i: number) => expect(pageAnswer(a, CASES[i]), `parallel ${CASES[i].q}`).toEqual(expected[i]));
      expect(got.unknownOption).toBe('unknown search option "limt"');
      expect(got.describe.columns.map((c: any) => c.name)).toEqual(['id', 'title', 'body', 'price', 'tag']);
      await page.close();
    });
  }
});
