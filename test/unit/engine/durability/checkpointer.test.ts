import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { open } from '../../../../src/index.js';
import { Checkpointer } from '../../../../src/engine/durability/checkpointer.js';
import type { Table } from '../../../../src/engine/table.js';
import { serializeSegment } from '../../../../src/index/segment/segment-codec.js';
import type { Store } from '../../../../src/store/index.js';

const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });

/** The table's manifest file (one table, one generation directory). */
function manifestFile(dataDir: string): string {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name));
      else if (e.name === 'manifest.json') found.push(join(d, e.name));
    }
  };
  walk(dataDir);
  expect(found).toHaveLength(1);
  return found[0];
}

/** The segment file names the table's manifest lists. */
function manifestNames(dataDir: string): string[] {
  return (JSON.parse(readFileSync(manifestFile(dataDir), 'utf8')) as { segments: { name: string }[] }).segments.map((s) => s.name);
}

async function ids(db: Awaited<ReturnType<typeof open>>, match: string): Promise<string[]> {
  const [r] = await db.sql(`SELECT id FROM t WHERE MATCH('${match}') ORDER BY id ASC`);
  if (r.kind !== 'rows') throw new Error(JSON.stringify(r));
  return r.rows.map((row) => String(row[0]));
}

describe('incremental checkpoints', () => {
  it('keeps unchanged segment files by name and rewrites only new and changed ones', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-cp-'));
    dirs.push(dir);
    // a session's small INSERTs go to the RAM tail, sealed as one segment at the checkpoint on close
    // optimize_cutoff far above 3: the idle compaction (200 ms quiet after a seal, a loaded machine
    // can leave that between two sessions) never merges the three segments this test counts
    let db = await open(dir);
    await db.sql("CREATE TABLE t (title text, n uint) optimize_cutoff='100'");
    await db.sql("INSERT INTO t (id, title, n) VALUES (1, 'apple one', 1), (2, 'apple two', 2)");
    await db.close(); // checkpoints on close
    db = await open(dir); // recovery notes the loaded files
    await db.sql("INSERT INTO t (id, title, n) VALUES (3, 'apple three', 3)");
    await db.close();
    const first = manifestNames(dir);
    expect(first).toHaveLength(2);

    db = await open(dir);
    await db.sql("INSERT INTO t (id, title, n) VALUES (4, 'apple four', 4)");
    await db.close();
    const second = manifestNames(dir);
    expect(second.slice(0, 2)).toEqual(first); // both kept, the new one added
    expect(second).toHaveLength(3);

    db = await open(dir);
    await db.sql('DELETE FROM t WHERE id = 2');
    await db.sql('UPDATE t SET n = 30 WHERE id = 3');
    await db.close();
    const third = manifestNames(dir);
    expect(third[0]).not.toBe(first[0]); // deleted a row: rewritten
    expect(third[1]).not.toBe(first[1]); // updated an attribute: rewritten
    expect(third[2]).toBe(second[2]); // untouched: kept

    db = await open(dir);
    expect(await ids(db, 'apple')).toEqual(['1', '3', '4']);
    const [r] = await db.sql('SELECT n FROM t WHERE id = 3');
    expect(r.kind === 'rows' && String(r.rows[0][0])).toBe('30');
    await db.close();
  });

  it('checkpoints a merge that came with no new op (OPTIMIZE), so a restart loads the merged segment', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-cp-'));
    dirs.push(dir);
    let db = await open(dir);
    await db.sql('CREATE TABLE t (title text, n uint)');
    await db.sql("INSERT INTO t (id, title, n) VALUES (1, 'apple one', 1), (2, 'apple two', 2)");
    expect(await ids(db, 'apple')).toEqual(['1', '2']); // a search seals the RAM tail: two segments
    await db.sql("INSERT INTO t (id, title, n) VALUES (3, 'apple three', 3)");
    await db.close();
    const parts = manifestNames(dir);
    expect(parts).toHaveLength(2);

    db = await open(dir);
    await db.sql('OPTIMIZE TABLE t');
    await db.close(); // the last op was checkpointed already: only the merge is new
    const merged = manifestNames(dir);
    expect(merged).toHaveLength(1);
    expect(parts).not.toContain(merged[0]);

    db = await open(dir);
    expect(await ids(db, 'apple')).toEqual(['1', '2', '3']);
    await db.close();
    expect(manifestNames(dir)).toEqual(merged); // nothing changed: nothing rewritten
  });
});

describe('checkpoint files written from core memory', () => {
  it('holds a segment as it was when a merge swaps it out while its file is being written', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quarry-cp-'));
    dirs.push(dir);
    const db = await open(dir);
    await db.sql('CREATE TABLE t (title text, n uint)');
    for (let b = 0; b < 3; b++) {
      const rows = Array.from({ length: 200 }, (_, i) => `(${b * 200 + i + 1}, 'apple w${i % 37} b${b}', ${i})`);
      await db.sql(`INSERT INTO t (id, title, n) VALUES ${rows.join(',')}`);
      await ids(db, 'apple'); // a search seals the RAM tail: one segment per batch
    }
    const ctx = (db.engine as unknown as { ctx: { checkpointNow(): Promise<void>; catalog: { get(n: string): Table } } }).ctx;
    const index = ctx.catalog.get('t').index;
    const before = index.segments.map((s) => Buffer.from(serializeSegment(s)));
    expect(before.length).toBeGreaterThan(1);
    const writing = ctx.checkpointNow();
    await new Promise((r) => setImmediate(r)); // its writes are on the thread pool
    index.optimize(); // merges the segments being written, frees them once the checkpoint unpins them
    await ids(db, 'apple');
    await writing;
    const tableDir = dirname(manifestFile(dir));
    const written = manifestNames(dir).map((n) => readFileSync(join(tableDir, n)));
    // the pass wrote the segments it started with (a later pass writes the merged one)
    expect(written.length === before.length && written.every((w, i) => w.equals(before[i]))).toBe(true);
    await db.close();
  });
});

describe('Checkpointer.runFresh', () => {
  // a pass whose table checkpoints wait on a gate: the pass is in flight until it opens
  class GatedCheckpointer extends Checkpointer {
    seen = 0;
    gate: Promise<void> = Promise.resolve();
    override async checkpoint(): Promise<boolean> {
      this.seen++;
      await this.gate;
      return false;
    }
  }
  const tables = () => [{ name: 't' } as unknown as Table];

  it('runs a pass of its own after one in flight (which may have passed a table before its last writes)', async () => {
    const c = new GatedCheckpointer({} as Store, tables);
    let open!: () => void;
    c.gate = new Promise((r) => { open = r; });
    const periodic = c.runOnce();
    await Promise.resolve();
    expect(c.seen).toBe(1); // the periodic pass is at the table
    const fresh = c.runFresh(); // BACKUP arrives: writes since that pass reached the table must be covered
    open();
    await Promise.all([periodic, fresh]);
    expect(c.seen).toBe(2);
  });

  it('runOnce shares the pass in flight', async () => {
    const c = new GatedCheckpointer({} as Store, tables);
    await Promise.all([c.runOnce(), c.runOnce()]);
    expect(c.seen).toBe(1);
  });
});
