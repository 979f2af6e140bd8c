// bench/insert/insert-parse-ab.bench.ts: the SQL parse of single-row INSERTs alone (parseSql over the texts the insert
// bench sends: `INSERT INTO gcide (id, title, body, len) VALUES (...)` of gcide documents), this build against
// a baseline build, in one process, alternated in short turns. The parse is about 1 us of the ~100 us of
// protocol-thread CPU an INSERT costs, far below what insert-ab resolves on a loaded machine, so it is
// measured apart. Run: node dist/bench/insert/insert-parse-ab.bench.js --baseline DIR [--docs 5000] [--rounds 30]
// (DIR: another build's checkout with dist/). Needs dict-gcide.
import { join, resolve } from 'node:path';
import { arg, argString, sqlString } from '../lib/bench-util.js';
import { loadGcide } from '../lib/corpus.js';

const ROOT = resolve(new URL('../../..', import.meta.url).pathname);

interface Build { name: string; parseSql: (text: string) => unknown[] }

async function openBuild(name: string, root: string): Promise<Build> {
  const m = await import(join(root, 'dist/src/sql/parse-sql.js'));
  return { name, parseSql: m.parseSql };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1]!;
}

export async function insertParseAbBench() {
  const baseline = argString('baseline');
  if (!baseline) throw new Error('--baseline DIR is required');
  const docs = loadGcide(arg('docs', 5000));
  const texts = docs.map((d) => `INSERT INTO gcide (id, title, body, len) VALUES (${d.id},${sqlString(d.title)},${sqlString(d.body)},${d.body.length})`);
  const builds = [await openBuild('current', ROOT), await openBuild('baseline', resolve(baseline))];
  const us = new Map<string, number[]>(builds.map((b) => [b.name, []]));
  const rounds = arg('rounds', 30);
  for (let r = 0; r < rounds + 5; r++) {
    for (const b of r % 2 ? builds : [...builds].reverse()) {
      const t0 = process.cpuUsage();
      for (const t of texts) b.parseSql(t);
      const t = process.cpuUsage(t0);
      if (r >= 5) us.get(b.name)!.push((t.user + t.system) / texts.length); // the first rounds warm up
    }
  }
  const base = median(us.get('baseline')!);
  const bytes = texts.reduce((n, t) => n + t.length, 0) / texts.length;
  return builds.map((b) => ({ build: b.name, 'INSERT chars': Math.round(bytes), 'CPU us per parse': Number(median(us.get(b.name)!).toFixed(3)), 'vs baseline': Number((median(us.get(b.name)!) / base).toFixed(3)) }));
}

if (process.argv[1]?.endsWith('insert-parse-ab.bench.js')) {
  insertParseAbBench().then((r) => console.log(JSON.stringify(r, null, 2))).catch((e) => { console.error(e); process.exitCode = 1; });
}
