/**
 * Disk full: the real server's data directory on a small tmpfs this test mounts (root only; CI runs
 * as root). Writes fail with a clear error once space runs out (before lmdb itself meets the full disk),
 * nothing acknowledged is lost, reads
 * keep working, a checkpoint of a merged table that hits the limit fails with a log line and leaves
 * no partial file, and writes succeed again once space is freed; a restart serves every acked row.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, statfsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import mysql from 'mysql2/promise';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MERGE_FACTOR, MIN_LEVEL_ROWS } from '../../src/index/merge-policy.js';
import { startServer, type ServerProcess } from '../helpers/server-process.js';
import { canMountTmpfs, mountTmpfs, TMPFS_SKIP_REASON, unmountTmpfs } from '../helpers/tmpfs.js';

const canMount = canMountTmpfs();
const FS_BYTES = 6 << 20;
/** A file taking this much of the tmpfs, deleted to free space. */
const BALLAST_BYTES = 1536 << 10;
const BATCH = 20;
/** Rows of the first segment: MIN_LEVEL_ROWS * MERGE_FACTOR puts it on merge level 2. */
const SEED_ROWS = MIN_LEVEL_ROWS * MERGE_FACTOR;

let mnt: string;
let data: string;
let server: ServerProcess;
let log = '';
/** What a case noted on its way (space, segments, files), printed when it fails. */
let notes: string[] = [];

function watch(s: ServerProcess): void {
  log = s.output();
  s.proc.stderr!.on('data', (c: Buffer) => { log += c.toString(); });
  s.proc.stdout!.on('data', (c: Buffer) => { log += c.toString(); });
}

function text(id: number): string {
  // distinct words per row so postings, not just stored text, take space
  return Array.from({ length: 60 }, (_, i) => `w${(id * 61 + i * 7) % 5003}x${i % 13}`).join(' ');
}

async function insert(ids: number[]): Promise<string | undefined> {
  const values = ids.map((id) => `(${id}, '${text(id)}', ${id % 100})`).join(',');
  return errorOf(await server.sql(`INSERT INTO t (id, title, n) VALUES ${values}`));
}

/** /sql?mode=raw answers an array of results, or one {error} object when the statement failed. */
function errorOf(res: unknown): string | undefined {
  const first = (Array.isArray(res) ? res[0] : res) as { error?: string } | undefined;
  return first?.error || undefined;
}

async function count(): Promise<number> {
  const res = (await server.sql('SELECT COUNT(*) AS c FROM t')) as { data: { c: number }[] }[];
  return Number(res[0]!.data[0]!.c);
}

/** Free bytes on the tmpfs, for the notes. */
/**
 * Writes `path` so that `keep` bytes stay free. The server may still be writing (a merge after the first
 * case's writes stopped) between the statfs and the write: on ENOSPC the partial file goes and the free
 * space is read again (a fresh-clone CI run met that race once).
 */
function fillAllBut(path: string, keep: number): void {
  for (let attempt = 0; ; attempt++) {
    const fs = statfsSync(mnt);
    try {
      writeFileSync(path, Buffer.alloc(Math.max(0, fs.bavail * fs.bsize - keep), 1));
      return;
    } catch (e) {
      rmSync(path, { force: true });
      if ((e as NodeJS.ErrnoException).code !== 'ENOSPC' || attempt === 4) throw e;
    }
  }
}

function free(): number {
  const fs = statfsSync(mnt);
  return fs.bavail * fs.bsize;
}

/** The table folders' files with their sizes, for the notes. */
function listing(): string {
  const tablesDir = join(data, 'tables');
  return readdirSync(tablesDir).flatMap((dir) => readdirSync(join(tablesDir, dir))
    .map((f) => `${dir}/${f} ${statSync(join(tablesDir, dir, f), { throwIfNoEntry: false })?.size ?? 'gone'}`)).join(', ');
}

/** Files in the table folders that their manifest does not list (a checkpoint's own, until it swaps them in or removes them). */
function strays(): string[] {
  const tablesDir = join(data, 'tables');
  return readdirSync(tablesDir).flatMap((dir) => {
    const files = readdirSync(join(tablesDir, dir));
    const listed = new Set(files.includes('manifest.json')
      ? (JSON.parse(readFileSync(join(tablesDir, dir, 'manifest.json'), 'utf8')) as { segments: { name: string }[] }).segments.map((s) => s.name)
      : []);
    return files.filter((f) => f !== 'manifest.json' && !listed.has(f)).map((f) => `${dir}/${f}`);
  });
}

/** SHOW TABLE t STATUS as name -> value. */
async function status(): Promise<Record<string, string>> {
  const res = (await server.sql('SHOW TABLE t STATUS')) as { data: { Variable_name: string; Value: string }[] }[];
  return Object.fromEntries(res[0]!.data.map((r) => [r.Variable_name, r.Value]));
}

async function waitFor(cond: () => boolean, ms: number): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 50))) if (cond()) return true;
  return cond();
}

describe.skipIf(!canMount)(`disk full (skipped when the test cannot mount a tmpfs: ${TMPFS_SKIP_REASON})`, () => {
  beforeAll(() => {
    mnt = mountTmpfs(FS_BYTES, 'quarry-diskfull-');
    writeFileSync(join(mnt, 'ballast'), Buffer.alloc(BALLAST_BYTES, 1));
    data = join(mnt, 'data');
    mkdirSync(data);
  });
  afterAll(async () => {
    if (server?.proc.exitCode === null) await server.stop();
    if (mnt) unmountTmpfs(mnt);
  });

  // a failed case prints what the server said and how it ended: a crash here must be diagnosable from CI's log
  afterEach((ctx) => {
    const noted = notes;
    notes = [];
    if (ctx.task.result?.state !== 'fail' || !server) return;
    const { exitCode, signalCode } = server.proc;
    console.error(`disk-full: server exitCode=${exitCode} signal=${signalCode}\n--- notes ---\n${noted.join('\n')}\n--- server output ---\n${log}\n--- end ---`);
  });

  const acked: number[] = [];

  it('fails writes with a clear error once space runs out, and keeps every acked row readable', async () => {
    server = await startServer(data, { QUARRY_CHECKPOINT_MS: '100' });
    watch(server);
    expect(await server.sql('CREATE TABLE t (title text, n int)')).toEqual([expect.objectContaining({ total: 0 })]);
    // a first segment of SEED_ROWS short rows, on a merge level (merge-policy.ts) no merge reaches before
    // 9 more such segments, more text than this disk holds: the table keeps >= 2 segments for the
    // OPTIMIZE of the next case to merge, whatever the merges of the batches below did
    const seed = Array.from({ length: SEED_ROWS }, (_, i) => 100_000 + i);
    expect(errorOf(await server.sql(`INSERT INTO t (id, title, n) VALUES ${seed.map((id) => `(${id}, 'seed', 0)`).join(',')}`))).toBeUndefined();
    acked.push(...seed);
    let error: string | undefined;
    for (let b = 0; b < 2000 && !error; b++) {
      const ids = Array.from({ length: BATCH }, (_, i) => b * BATCH + i + 1);
      error = await insert(ids);
      if (!error) acked.push(...ids);
    }
    expect(error).toMatch(/^write failed: no space left on device/);
    expect(acked.length).toBeGreaterThan(SEED_ROWS + 100);
    // refused before lmdb saw the full disk (lmdb-js corrupts its heap on ENOSPC: lmdb-env.ts checkSpace),
    // so lmdb never printed its own write errors
    expect(log).not.toMatch(/Write error|mdb_page_spill/);
    // over the MySQL protocol: an ERR packet in Manticore's shape (1064, 42000), the connection stays
    // usable. A failed commit may give some pages back, so a later small write can still fit: write
    // until one fails again.
    const port = Number(/mysql=[\d.]+:(\d+)/.exec(log)?.[1] ?? 0);
    expect(port).toBeGreaterThan(0);
    const c = await mysql.createConnection({ host: '127.0.0.1', port });
    let mysqlError: { errno?: number; sqlState?: string; message?: string } | undefined;
    for (let b = 0; b < 200 && !mysqlError; b++) {
      const ids = Array.from({ length: BATCH }, (_, i) => 500_000 + b * BATCH + i);
      try {
        await c.query(`INSERT INTO t (id, title, n) VALUES ${ids.map((id) => `(${id}, '${text(id)}', 1)`).join(',')}`);
        acked.push(...ids);
      } catch (e) {
        mysqlError = e as typeof mysqlError;
      }
    }
    expect(mysqlError).toMatchObject({ errno: 1064, sqlState: '42000', message: expect.stringMatching(/^write failed: no space left on device/) });
    const [rows] = await c.query('SELECT COUNT(*) AS c FROM t');
    expect(Number((rows as { c: number }[])[0]!.c)).toBe(acked.length);
    await c.end();
    // reads keep working: the count, a full-text query, a document by id
    expect(await count()).toBe(acked.length);
    const last = acked[acked.length - 1]!;
    const hit = (await server.sql(`SELECT id FROM t WHERE MATCH('${text(last).split(' ')[5]}') AND id = ${last}`)) as { data: { id: number }[] }[];
    expect(hit[0]!.data.map((r) => Number(r.id))).toEqual([last]);
  }, 60_000);

  it('a checkpoint of a merged table that hits the limit fails with a log line and leaves no partial file', async () => {
    const logAtStart = log.length;
    // a periodic checkpoint in flight holds space in files it swaps in or removes: let it end first
    expect(await waitFor(() => strays().length === 0, 10_000)).toBe(true);
    const before = await status();
    notes.push(`before: ${free()} bytes free, ${before.ram_chunk_segments_count} segments, tid ${before.tid}, files: ${listing()}`);
    // writes stop with the store's reserve still free (lmdb-env.ts checkSpace): take all but 16 KiB of
    // it; the merged segment (the whole table) could not fit in that reserve anyway
    fillAllBut(join(mnt, 'ballast2'), 16 << 10);
    notes.push(`ballast2 written: ${free()} bytes free`);
    expect(errorOf(await server.sql('OPTIMIZE TABLE t OPTION sync=1'))).toBeUndefined();
    const after = await status();
    notes.push(`after OPTIMIZE: ${free()} bytes free, ${after.ram_chunk_segments_count} segments, tid ${after.tid}, files: ${listing()}`);
    // OPTIMIZE merged (the first case's seed segment keeps >= 2) with no new op: the checkpointer must
    // still write the merged segment, and only it lists one segment, so the line is its failure
    expect(Number(before.ram_chunk_segments_count)).toBeGreaterThan(1);
    expect(after.ram_chunk_segments_count).toBe('1');
    expect(after.tid).toBe(before.tid);
    const failed = /checkpoint of table t failed: 1 segment\(s\) at seq \d+, 1 new of \d+ bytes: ENOSPC/;
    const logged = await waitFor(() => failed.test(log.slice(logAtStart)), 10_000);
    notes.push(`waited: ${free()} bytes free, files: ${listing()}`);
    expect(logged).toBe(true);
    // every file is the manifest or a segment it lists: a failed checkpoint removed what it had written.
    // The periodic checkpointer retries meanwhile, so a look can land while a retry writes its files:
    // the folder has to settle to that state, and a file a failure left behind never would.
    expect(await waitFor(() => strays().length === 0, 10_000)).toBe(true);
    expect(strays()).toEqual([]);
    expect(await count()).toBe(acked.length);
  }, 30_000);

  it('writes succeed again once space is freed, and a restart serves every acked row', async () => {
    const before = statfsSync(mnt).bavail;
    rmSync(join(mnt, 'ballast'));
    rmSync(join(mnt, 'ballast2'));
    expect(statfsSync(mnt).bavail).toBeGreaterThan(before);
    const ids = Array.from({ length: BATCH }, (_, i) => 900_000 + i);
    expect(await insert(ids)).toBeUndefined();
    acked.push(...ids);
    expect(await count()).toBe(acked.length);
    await server.stop();
    server = await startServer(data);
    watch(server);
    expect(await count()).toBe(acked.length);
    const res = (await server.sql('SELECT id FROM t ORDER BY id ASC LIMIT 100000 OPTION max_matches=100000')) as { data: { id: number }[] }[];
    expect(res[0]!.data.map((r) => Number(r.id))).toEqual([...acked].sort((a, b) => a - b));
  }, 60_000);
});
