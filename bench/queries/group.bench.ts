// bench/queries/group.bench.ts: GROUP BY and FACET at N documents (default 100k), quarry beside Sphinx 2.2.11
// (Debian's sphinxsearch over SphinxQL on loopback) and SQLite (better-sqlite3, in process) on the same
// rows, in the same run. Each query runs R rounds (default 5) per peer, rounds alternated between
// peers; the median wall time is reported, and quarry's CPU time (process.cpuUsage) as well.
// quarry runs in process (no protocol) and as a server over its MySQL protocol, Sphinx over its MySQL
// protocol (both add a loopback round trip).
// Rows: a title of words where `common` is in about half the documents, cat uint (100 values),
// brand uint (1000 values), price float. SQLite has no full-text index here: the `MATCH('common')`
// queries are `WHERE has_common = 1` there, a column marking the same rows.
// Run: npm run build && node dist/bench/queries/group.bench.js [--docs N] [--rounds R]. Seed 42.
import { createRequire } from 'node:module';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { open } from '../../src/index.js';
import { arg } from '../lib/bench-util.js';
import { sphinxAvailable, startSphinx } from '../peers/sphinx.js';
import { startQuarry } from '../side-by-side/side-by-side.bench.js';

interface Row { id: number; title: string; common: boolean; cat: number; brand: number; price: number }

function rows(n: number): Row[] {
  let seed = 42;
  const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
  const words = ['red', 'blue', 'green', 'bag', 'hat', 'shoe', 'coat', 'lamp', 'desk', 'mug'];
  return Array.from({ length: n }, (_, i) => {
    const common = rnd() < 0.5;
    const title = [words[Math.floor(rnd() * 10)], words[Math.floor(rnd() * 10)], ...(common ? ['common'] : [])].join(' ');
    return { id: i + 1, title, common, cat: Math.floor(rnd() * 100), brand: Math.floor(rnd() * 1000), price: Math.round(rnd() * 100000) / 100 };
  });
}

/** The queries: SphinxQL for quarry and Sphinx, SQL for SQLite (null: not comparable there). */
const QUERIES: { name: string; sphinxql: string; sqlite: string | null }[] = [
  { name: 'full scan GROUP BY cat, COUNT(*)', sphinxql: 'SELECT cat, COUNT(*) FROM t GROUP BY cat ORDER BY cat ASC LIMIT 100', sqlite: 'SELECT cat, COUNT(*) FROM t GROUP BY cat ORDER BY cat LIMIT 100' },
  { name: 'full scan GROUP BY brand, SUM/AVG(price)', sphinxql: 'SELECT brand, COUNT(*), SUM(price), AVG(price) FROM t GROUP BY brand ORDER BY brand ASC LIMIT 1000 OPTION max_matches=1000', sqlite: 'SELECT brand, COUNT(*), SUM(price), AVG(price) FROM t GROUP BY brand ORDER BY brand LIMIT 1000' },
  { name: "MATCH('common') GROUP BY cat", sphinxql: "SELECT cat, COUNT(*) FROM t WHERE MATCH('common') GROUP BY cat ORDER BY cat ASC LIMIT 100", sqlite: 'SELECT cat, COUNT(*) FROM t WHERE has_common = 1 GROUP BY cat ORDER BY cat LIMIT 100' },
  { name: "MATCH('common') + FACET cat + FACET brand", sphinxql: "SELECT id FROM t WHERE MATCH('common') LIMIT 20 FACET cat ORDER BY COUNT(*) DESC LIMIT 10 FACET brand ORDER BY COUNT(*) DESC LIMIT 10", sqlite: null },
];

interface Peer { name: string; run(sql: string): Promise<void>; cpu?: boolean; stop(): Promise<void> }

async function quarryPeer(data: Row[], dir: string): Promise<Peer> {
  const db = await open(dir);
  await db.sql('CREATE TABLE t (title text, cat uint, brand uint, price float)');
  for (let i = 0; i < data.length; i += 5000) {
    const values = data.slice(i, i + 5000).map((r) => `(${r.id},'${r.title}',${r.cat},${r.brand},${r.price})`);
    await db.sql(`INSERT INTO t (id, title, cat, brand, price) VALUES ${values.join(',')}`);
  }
  await db.sql('OPTIMIZE TABLE t');
  return { name: 'quarry', cpu: true, run: async (sql) => { await db.sql(sql); }, stop: () => db.close() };
}

/** `quarry serve` (default threads: one per core) over the MySQL protocol, as Sphinx is reached. */
async function quarryServerPeer(data: Row[], dir: string): Promise<Peer> {
  const server = await startQuarry(dir);
  const conn = await server.overMysql.open();
  await conn.exec('CREATE TABLE t (title text, cat uint, brand uint, price float)');
  for (let i = 0; i < data.length; i += 5000) {
    const values = data.slice(i, i + 5000).map((r) => `(${r.id},'${r.title}',${r.cat},${r.brand},${r.price})`);
    await conn.exec(`INSERT INTO t (id, title, cat, brand, price) VALUES ${values.join(',')}`);
  }
  await conn.exec('OPTIMIZE TABLE t');
  return { name: 'quarry server (MySQL)', run: (sql) => conn.exec(sql), stop: async () => { await conn.close(); await server.stop(); } };
}

async function sphinxPeer(data: Row[], dir: string): Promise<Peer> {
  const index = `
index t {
  type = rt
  path = ${dir}/t
  rt_field = title
  rt_attr_uint = cat
  rt_attr_uint = brand
  rt_attr_float = price
  dict = keywords
  rt_mem_limit = 1024M
}`;
  const peer = await startSphinx(dir, 19_400 + Math.floor(Math.random() * 500), index, false);
  const conn = await peer.connect();
  for (let i = 0; i < data.length; i += 5000) {
    const values = data.slice(i, i + 5000).map((r) => `(${r.id},'${r.title}',${r.cat},${r.brand},${r.price})`);
    await conn.query(`INSERT INTO t (id, title, cat, brand, price) VALUES ${values.join(',')}`);
  }
  return { name: 'sphinx 2.2.11', run: async (sql) => { await conn.query(sql); }, stop: async () => { await conn.end(); await peer.stop(); } };
}

function sqlitePeer(data: Row[]): Peer | null {
  let Database: new (path: string) => { exec(s: string): void; prepare(s: string): { run(...a: unknown[]): void; all(): unknown[] }; transaction<T extends (...a: never[]) => void>(f: T): T; close(): void };
  try {
    Database = createRequire(import.meta.url)('better-sqlite3');
  } catch {
    return null;
  }
  const db = new Database(':memory:');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, title TEXT, has_common INTEGER, cat INTEGER, brand INTEGER, price REAL)');
  const ins = db.prepare('INSERT INTO t VALUES (?, ?, ?, ?, ?, ?)');
  db.transaction(() => { for (const r of data) ins.run(r.id, r.title, r.common ? 1 : 0, r.cat, r.brand, r.price); })();
  const prepared = new Map<string, { all(): unknown[] }>();
  return {
    name: 'sqlite (better-sqlite3)',
    run: async (sql) => {
      let p = prepared.get(sql);
      if (!p) prepared.set(sql, (p = db.prepare(sql)));
      p.all();
    },
    stop: async () => db.close(),
  };
}

const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main() {
  const n = arg('docs', 100_000);
  const rounds = arg('rounds', 5);
  const data = rows(n);
  const base = mkdtempSync(join(tmpdir(), 'quarry-group-bench-'));
  const peers: Peer[] = [];
  try {
    peers.push(await quarryPeer(data, join(base, 'quarry')));
    peers.push(await quarryServerPeer(data, join(base, 'quarry-server')));
    if (sphinxAvailable()) peers.push(await sphinxPeer(data, join(base, 'sphinx')));
    const sqlite = sqlitePeer(data);
    if (sqlite) peers.push(sqlite);
    const results: Record<string, unknown>[] = [];
    for (const q of QUERIES) {
      const wall = new Map<string, number[]>(peers.map((p) => [p.name, []]));
      const cpu: number[] = [];
      for (const p of peers) await (p.name.startsWith('sqlite') ? (q.sqlite ? p.run(q.sqlite) : Promise.resolve()) : p.run(q.sphinxql)); // warm-up
      for (let r = 0; r < rounds; r++) {
        for (const p of peers) {
          const sql = p.name.startsWith('sqlite') ? q.sqlite : q.sphinxql;
          if (sql === null) continue;
          const c0 = process.cpuUsage();
          const t0 = performance.now();
          await p.run(sql);
          wall.get(p.name)!.push(performance.now() - t0);
          if (p.cpu) { const d = process.cpuUsage(c0); cpu.push((d.user + d.system) / 1000); }
        }
      }
      const row: Record<string, unknown> = { query: q.name, docs: n, 'quarry cpu ms': median(cpu) };
      for (const [name, xs] of wall) row[`${name} ms`] = xs.length ? median(xs) : null;
      results.push(row);
    }
    console.log(JSON.stringify({ docs: n, rounds, results }, null, 2));
  } finally {
    for (const p of peers) await p.stop();
    rmSync(base, { recursive: true, force: true });
  }
}

// the engine's idle timers and pooled threads may outlive the peers: exit once the figures are out
main().catch((e) => { console.error(e); process.exitCode = 1; }).finally(() => process.exit());
