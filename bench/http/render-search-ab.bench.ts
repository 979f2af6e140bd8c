// bench/http/render-search-ab.bench.ts: the `/search` reply render alone (writeSearchJson into a ByteSink, as the
// lean server writes it), this build against a baseline build, in one process, alternated in short turns:
// 20-hit pages of gcide documents (id bigint, title, body, len uint; each row paired with its frozen stored
// document as RowsResult.sources, as the engine's document cache hands them out), cycling over `--pool`
// documents. A small pool is a warm document cache (the side-by-side's 400-query mix), a large one pages
// whose documents left the kept-bytes budget. The render is a few per cent of a /search request, below what
// search-path-ab resolves on a loaded machine (its A/A reads 0.93 at load 20), so it is measured apart.
// `--highlight 1`: the highlight bench's JSON page instead (`_source` only `len`, each hit a `highlight` of its title
// and three passages of its body with `<b>` marks, quotes and backslashes as gcide has them).
// Run: node dist/bench/http/render-search-ab.bench.js --baseline DIR [--pool 400] [--pages 200] [--rounds 30] [--highlight 1]
// (DIR: another build's checkout with dist/). Needs dict-gcide.
import { join, resolve } from 'node:path';
import { arg, argString } from '../lib/bench-util.js';
import { loadGcide } from '../lib/corpus.js';

const ROOT = resolve(new URL('../../..', import.meta.url).pathname);

interface Build {
  name: string;
  writeSearchJson: (out: unknown, result: unknown) => void;
  sink: (buf: Buffer) => unknown;
}

async function openBuild(name: string, root: string): Promise<Build> {
  const rs = await import(join(root, 'dist/src/http/render-search.js'));
  const { ByteSink } = await import(join(root, 'dist/src/http/reply-sink.js'));
  return { name, writeSearchJson: rs.writeSearchJson, sink: (buf) => new ByteSink(buf, 512) };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

export async function renderSearchAbBench() {
  const baseline = argString('baseline');
  if (!baseline) throw new Error('--baseline DIR is required');
  const pool = arg('pool', 400);
  const docs = loadGcide(pool);
  const stored = docs.map((d) => Object.freeze({ title: d.title, body: d.body, len: d.body.length }));
  const highlight = arg('highlight', 0) === 1;
  const columns = highlight
    ? [{ name: 'id', kind: 'bigint' }, { name: 'len', kind: 'uint' }]
    : [{ name: 'id', kind: 'bigint' }, { name: 'title', kind: 'string' }, { name: 'body', kind: 'string' }, { name: 'len', kind: 'uint' }];
  // passages as the builder cuts them: ~200 characters around a marked word, joined by ' ... '
  const passage = (body: string, at: number): string => {
    const s = body.slice(at, at + 200);
    const cut = s.indexOf(' ', 40);
    return cut < 0 ? s : `${s.slice(0, cut)} <b>${s.slice(cut + 1, cut + 6)}</b>${s.slice(cut + 6)}`;
  };
  const highlights = stored.map((d) => ({
    title: [`<b>${d.title}</b>`],
    body: [0, 300, 600].filter((at) => at < d.body.length).map((at) => passage(d.body, at)),
  }));
  // page k: 20 documents spread over the pool, so consecutive pages share few
  const pages = Array.from({ length: arg('pages', 200) }, (_, k) => {
    const at = Array.from({ length: 20 }, (_, j) => (k * 20 + j * 7) % stored.length);
    return {
      kind: 'rows', columns,
      rows: at.map((i) => (highlight ? [BigInt(i + 1), stored[i]!.len] : [BigInt(i + 1), stored[i]!.title, stored[i]!.body, stored[i]!.len])),
      weights: at.map((i) => 1000 + i), sources: at.map((i) => stored[i]),
      highlights: highlight ? at.map((i) => highlights[i]) : undefined,
      meta: { total: 20, totalFound: 1234, totalRelation: 'eq', timeMs: 1, keywords: [] },
    };
  });
  const builds = [await openBuild('current', ROOT), await openBuild('baseline', resolve(baseline))];
  const scratch = Buffer.allocUnsafe(1 << 20);
  const us = new Map<string, number[]>(builds.map((b) => [b.name, []]));
  const rounds = arg('rounds', 30);
  for (let r = 0; r < rounds + 5; r++) {
    for (const b of r % 2 ? builds : [...builds].reverse()) {
      const t0 = process.cpuUsage();
      for (const page of pages) b.writeSearchJson(b.sink(scratch), page);
      const t = process.cpuUsage(t0);
      if (r >= 5) us.get(b.name)!.push((t.user + t.system) / pages.length); // the first rounds warm up
    }
  }
  const base = median(us.get('baseline')!);
  return builds.map((b) => ({ build: b.name, pool, 'CPU us per 20-hit page': median(us.get(b.name)!), 'vs baseline': median(us.get(b.name)!) / base }));
}

if (process.argv[1]?.endsWith('render-search-ab.bench.js')) {
  renderSearchAbBench().then((r) => console.log(JSON.stringify(r, null, 2))).catch((e) => { console.error(e); process.exitCode = 1; });
}
