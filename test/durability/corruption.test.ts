/**
 * Damaged files under the real server. A segment file or manifest that is flipped, truncated or gone
 * is caught by its checksum at start: the table is rebuilt from the store of record with a log line,
 * and a fresh checkpoint replaces the damaged one. A damaged document in the store itself is never
 * served: at start the table is refused with the reason (other tables serve on), and a query that
 * would read it fails with the reason.
 */
import { appendFileSync, existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../helpers/server-process.js';

const root = mkdtempSync(join(tmpdir(), 'quarry-corrupt-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

const ROWS = 300;
const FAST_CHECKPOINTS = { QUARRY_CHECKPOINT_MS: '50' };

interface Run { server: ServerProcess; log: () => string }

async function start(data: string, env: Record<string, string> = {}): Promise<Run> {
  const server = await startServer(data, env);
  return { server, log: server.output };
}

function tableDir(data: string, table: string): string {
  const name = readdirSync(join(data, 'tables')).find((d) => d.startsWith(`${table}.`));
  return join(data, 'tables', name!);
}

function manifest(data: string, table: string): { segments: { name: string }[] } | undefined {
  if (!readdirSync(join(data, 'tables')).some((d) => d.startsWith(`${table}.`))) return undefined;
  const p = join(tableDir(data, table), 'manifest.json');
  return existsSync(p) ? JSON.parse(readFileSync(p, 'utf8')) : undefined;
}

async function until(cond: () => boolean, ms = 10_000): Promise<void> {
  for (const end = Date.now() + ms; !cond(); await new Promise((r) => setTimeout(r, 25))) {
    if (Date.now() > end) throw new Error('timed out');
  }
}

/** Tables `names` of ROWS rows each, checkpointed; the server is stopped. */
async function prepare(dirName: string, names = ['t']): Promise<string> {
  const data = join(root, dirName);
  const { server } = await start(data, FAST_CHECKPOINTS);
  for (const t of names) {
    await server.sql(`CREATE TABLE ${t} (title text, n int)`);
    for (let b = 0; b < ROWS; b += 100) {
      const values = Array.from({ length: 100 }, (_, i) => `(${b + i + 1}, 'row ${b + i + 1} word${(b + i) % 7} canary${b + i + 1}x', ${b + i})`);
      await server.sql(`INSERT INTO ${t} (id, title, n) VALUES ${values.join(',')}`);
    }
  }
  await until(() => names.every((t) => (manifest(data, t)?.segments.length ?? 0) > 0));
  await server.stop();
  return data;
}

async function answers(s: ServerProcess, t: string): Promise<unknown> {
  const q = async (sql: string) => ((await s.sql(sql)) as { data: unknown[] }[])[0]!.data;
  return [await q(`SELECT COUNT(*) AS c FROM ${t}`), await q(`SELECT id, n FROM ${t} WHERE MATCH('word3') ORDER BY id ASC LIMIT 5`), await q(`SELECT title FROM ${t} WHERE id = 17`)];
}

const EXPECTED = [
  [{ c: ROWS }],
  [4, 11, 18, 25, 32].map((id) => ({ id, n: id - 1 })),
  [{ title: 'row 17 word2 canary17x' }],
];

const damages: [string, (dir: string, seg: string) => void, RegExp][] = [
  ['a flipped byte in a segment file', (dir, seg) => {
    const b = readFileSync(join(dir, seg));
    b[b.length >> 1] ^= 0x40;
    writeFileSync(join(dir, seg), b);
  }, /segment seg-\S+ in \S+ fails its checksum/],
  ['a truncated segment file', (dir, seg) => truncateSync(join(dir, seg), 10), /segment seg-\S+ in \S+ has 10 bytes, manifest says \d+/],
  ['a missing segment file', (dir, seg) => unlinkSync(join(dir, seg)), /segment seg-\S+ in \S+ cannot be read \(ENOENT\)/],
  ['a changed digit in the manifest', (dir) => {
    const p = join(dir, 'manifest.json');
    writeFileSync(p, readFileSync(p, 'utf8').replace(/"size":(\d)/, (_, d: string) => `"size":${(Number(d) + 1) % 10}`));
  }, /bad manifest in \S+: checksum mismatch/],
  ['a truncated manifest', (dir) => truncateSync(join(dir, 'manifest.json'), 20), /bad manifest in \S+: not JSON/],
  // qa29: the other kinds of damage a file can take
  ['bytes appended to a segment file', (dir, seg) => appendFileSync(join(dir, seg), Buffer.alloc(100, 7)), /segment seg-\S+ in \S+ has \d+ bytes, manifest says \d+/],
  ['a segment file zeroed in place (same size)', (dir, seg) => writeFileSync(join(dir, seg), Buffer.alloc(statSync(join(dir, seg)).size)), /segment seg-\S+ in \S+ fails its checksum/],
  ['an empty manifest', (dir) => truncateSync(join(dir, 'manifest.json'), 0), /bad manifest in \S+: not JSON/],
  ['a manifest zeroed in place', (dir) => writeFileSync(join(dir, 'manifest.json'), Buffer.alloc(statSync(join(dir, 'manifest.json')).size)), /bad manifest in \S+: not JSON/],
  ['a manifest whose checksum is gone', (dir) => {
    const p = join(dir, 'manifest.json');
    writeFileSync(p, readFileSync(p, 'utf8').replace(/,"crc32":\d+\}\s*$/, '}\n'));
  }, /bad manifest in \S+: checksum mismatch/],
];

describe('a damaged checkpoint', () => {
  // one table per kind of damage, all in one data directory: one restart checks them all
  const tables = damages.map((_, i) => `t${i}`);
  let data: string;
  let run: Run;
  beforeAll(async () => {
    data = await prepare('checkpoints', tables);
    damages.forEach(([, damage], i) => damage(tableDir(data, tables[i]!), manifest(data, tables[i]!)!.segments[0]!.name));
    run = await start(data, FAST_CHECKPOINTS);
  }, 60_000);
  afterAll(async () => {
    if (run?.server.proc.exitCode === null) await run.server.stop();
  });

  it.each(damages.map((d, i) => [...d, i] as const))('%s is detected at start and the table rebuilt from the store of record', async (_what, _damage, reason, i) => {
    const t = tables[i]!;
    expect(await answers(run.server, t)).toEqual(EXPECTED);
    expect(run.log()).toMatch(new RegExp(`quarry: table ${t}: checkpoint damaged \\(${reason.source}\\); rebuilding the table from the store of record`));
  });

  it('a fresh checkpoint replaces each damaged one: the next start logs no damage', async () => {
    await until(() => tables.every((t) => manifest(data, t) !== undefined));
    await run.server.stop();
    const again = await start(data);
    for (const t of tables) expect(await answers(again.server, t)).toEqual(EXPECTED);
    await again.server.stop();
    expect(again.log()).not.toMatch(/checkpoint damaged/);
  }, 30_000);
});

/** Changes `canary<id>x` to `canary<id>y` everywhere in the lmdb data file (the document and its op record). */
function damageDocument(data: string, id: number): void {
  const p = join(data, 'store', 'data.mdb');
  const b = readFileSync(p);
  const needle = Buffer.from(`canary${id}x`);
  let hits = 0;
  for (let at = b.indexOf(needle); at >= 0; at = b.indexOf(needle, at + 1), hits++) b[at + needle.length - 1] = 0x79;
  expect(hits).toBeGreaterThan(0);
  writeFileSync(p, b);
}

describe('a damaged document in the store of record', () => {
  it('at start: the table is refused with the reason, other tables serve, DROP TABLE clears it', async () => {
    const data = join(root, 'doc-at-start');
    const first = await start(data); // default interval: no checkpoint before the kill
    await first.server.sql('CREATE TABLE t (title text, n int)');
    await first.server.sql('CREATE TABLE ok (title text)');
    await first.server.sql("INSERT INTO t (id, title, n) VALUES (1, 'one canary1x', 1), (2, 'two canary2x', 2)");
    await first.server.sql("INSERT INTO ok (id, title) VALUES (1, 'fine')");
    await first.server.stop('SIGKILL');
    damageDocument(data, 2);
    const run = await start(data);
    try {
      const refused = /table 't' is not served: store of record damaged: table 't': document 2 fails its checksum/;
      expect(run.log()).toMatch(refused);
      expect((await run.server.sql('SELECT * FROM t')) as { error: string }).toEqual({ error: expect.stringMatching(refused) });
      expect((await run.server.sql("INSERT INTO t (id, title) VALUES (3, 'x')")) as { error: string }).toEqual({ error: expect.stringMatching(refused) });
      expect(((await run.server.sql('SELECT title FROM ok')) as { data: unknown[] }[])[0]!.data).toEqual([{ title: 'fine' }]);
      expect(await run.server.sql('DROP TABLE t')).toEqual([expect.objectContaining({ error: '' })]);
      await run.server.sql('CREATE TABLE t (title text)');
      expect(((await run.server.sql('SELECT COUNT(*) AS c FROM t')) as { data: unknown[] }[])[0]!.data).toEqual([{ c: 0 }]);
    } finally {
      await run.server.stop();
    }
  }, 60_000);

  it('after a checkpoint: a query that would show it fails with the reason instead of showing wrong text', async () => {
    const data = await prepare('doc-after-checkpoint');
    damageDocument(data, 17);
    const run = await start(data);
    try {
      expect(await run.server.sql('SELECT title FROM t WHERE id = 17')).toEqual({ error: expect.stringMatching(/store of record damaged: table 't': document 17 fails its checksum/) });
      expect(((await run.server.sql('SELECT title FROM t WHERE id = 18')) as { data: unknown[] }[])[0]!.data).toEqual([{ title: 'row 18 word3 canary18x' }]);
    } finally {
      await run.server.stop();
    }
  }, 60_000);
});
