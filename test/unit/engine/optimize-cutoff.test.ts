// optimize_cutoff as a table setting (CREATE / ALTER TABLE, SHOW CREATE TABLE, restart) and searchd
// auto_optimize read from a config by open(): the values index-factory.ts turns into the idle cutoff;
// a config file's table section with a bad optimize_cutoff refused as CREATE TABLE refuses it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { open } from '../../../src/index.js';
import { idleCutoffOf } from '../../../src/engine/index-factory.js';
import { IDLE_MERGE_MS } from '../../../src/index/merge-scheduler.js';
import { autoOptimizeOf, startServer } from '../../../src/server/server.js';
import { configTables } from '../../../src/server/config-tables.js';
import { parseConfig } from '../../../src/server/config-parser.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});
function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'quarry-cutoff-'));
  dirs.push(d);
  return d;
}
async function createText(db: Awaited<ReturnType<typeof open>>): Promise<string> {
  const [r] = await db.sql('SHOW CREATE TABLE t');
  if (r.kind !== 'rows') throw new Error(JSON.stringify(r));
  return String(r.rows[0][1]);
}

describe('optimize_cutoff', () => {
  it('is shown by SHOW CREATE TABLE, changed by ALTER TABLE and kept across a restart', async () => {
    const dir = tempDir();
    let db = await open(dir);
    expect((await db.sql("CREATE TABLE t (title text) optimize_cutoff='3'"))[0].kind).toBe('ok');
    expect(await createText(db)).toContain("optimize_cutoff='3'");
    expect((await db.sql("ALTER TABLE t optimize_cutoff='5'"))[0].kind).toBe('ok');
    expect(await createText(db)).toContain("optimize_cutoff='5'");
    await db.close();
    db = await open(dir);
    expect(await createText(db)).toContain("optimize_cutoff='5'");
    await db.close();
  });

  it('refuses a value that is not a positive integer, in CREATE and ALTER, changing nothing', async () => {
    const db = await open(tempDir());
    const [bad] = await db.sql("CREATE TABLE t (title text) optimize_cutoff='0'");
    expect(bad).toMatchObject({ kind: 'error', message: expect.stringMatching(/optimize_cutoff must be a positive integer/) });
    expect((await db.sql('SHOW TABLES'))[0]).toMatchObject({ rows: [] });
    await db.sql("CREATE TABLE t (title text) optimize_cutoff='2'");
    const [alter] = await db.sql("ALTER TABLE t optimize_cutoff='-1'");
    expect(alter).toMatchObject({ kind: 'error', message: expect.stringMatching(/positive integer/) });
    expect(await createText(db)).toContain("optimize_cutoff='2'");
    await db.close();
  });
});

describe('searchd auto_optimize', () => {
  it('is read as 0, 1 or 2, unset as the default, anything else refused', () => {
    const conf = (v: string) => parseConfig(`searchd {\n  auto_optimize = ${v}\n}\n`);
    expect(autoOptimizeOf(conf('0'))).toBe(0);
    expect(autoOptimizeOf(conf('2'))).toBe(2);
    expect(autoOptimizeOf(parseConfig('searchd {\n}\n'))).toBeUndefined();
    expect(() => autoOptimizeOf(conf('3'))).toThrow(/auto_optimize must be 0, 1 or 2/);
  });

  it('turns into the idle cutoff: 0 none, 1 the table\'s, 2 twice it; a bad stored value the default', () => {
    expect(idleCutoffOf({ optimize_cutoff: '4' }, 0)).toBe(0);
    expect(idleCutoffOf({ optimize_cutoff: '4' }, 1)).toBe(4);
    expect(idleCutoffOf({ optimize_cutoff: '4' }, 2)).toBe(8);
    expect(idleCutoffOf({}, 2)).toBe(4);
    expect(idleCutoffOf({ optimize_cutoff: 'many' }, 2)).toBe(4); // an unchecked config section's bad value: the default
  });

  it('is per engine: two engines open in one process keep their own, for tables made before and after', async () => {
    const dir = tempDir();
    const opened: Awaited<ReturnType<typeof open>>[] = [];
    for (const level of ['0', '2']) {
      const configPath = join(dir, `manticore-${level}.conf`);
      writeFileSync(configPath, `searchd {\n  auto_optimize = ${level}\n}\n`);
      const db = await open(join(dir, `data-${level}`), { configPath, threads: 1 });
      opened.push(db);
      // the first engine's table is created before the second engine opens, the second's after
      expect((await db.sql("CREATE TABLE t (title text) optimize_cutoff='2'"))[0].kind).toBe('ok');
    }
    // 9 INSERTs of 300 rows (over the RAM tail's 256): 9 segments the tiered policy leaves alone
    for (const db of opened) {
      for (let b = 0; b < 9; b++) {
        const values = Array.from({ length: 300 }, (_, i) => `(${b * 300 + i + 1}, 'common w${i % 7}')`).join(',');
        expect((await db.sql(`INSERT INTO t (id, title) VALUES ${values}`))[0].kind).toBe('ok');
      }
    }
    const segments = async (db: (typeof opened)[number]) => {
      const [r] = await db.sql('SHOW TABLE t STATUS');
      if (r.kind !== 'rows') throw new Error(JSON.stringify(r));
      return Number(r.rows.find((row) => row[0] === 'ram_chunk_segments_count')?.[1]);
    };
    const end = Date.now() + 40 * IDLE_MERGE_MS;
    while (await segments(opened[1]) > 4 && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 3 * IDLE_MERGE_MS)); // a compaction of the first would have run by now
    expect(await segments(opened[0])).toBe(9); // auto_optimize = 0: no idle compaction
    expect(await segments(opened[1])).toBe(4); // auto_optimize = 2: twice the cutoff of 2
    for (const db of opened) await db.close();
  });
});

describe('optimize_cutoff in a config file table section', () => {
  const section = (v: string) => `table t {\n  type = rt\n  rt_field = title\n  optimize_cutoff = ${v}\n}\n`;

  it('is refused unless a positive integer, with the message CREATE TABLE gives', () => {
    for (const bad of ['many', '0', '-1', '2.5', '']) {
      expect(() => configTables(parseConfig(section(bad)))).toThrow(`table 't': optimize_cutoff must be a positive integer (got '${bad}')`);
    }
    expect(configTables(parseConfig(section('3'))).tables.get('t')?.schema.settings).toEqual({ optimize_cutoff: '3' });
  });

  it('stops the server at startup, before the engine is opened', async () => {
    const dir = tempDir();
    const configPath = join(dir, 'manticore.conf');
    writeFileSync(configPath, `searchd {\n  data_dir = ${join(dir, 'data')}\n}\n${section('many')}`);
    let opened = false;
    const started = startServer({ command: 'serve', configPath, http: '127.0.0.1:0', mysql: '127.0.0.1:0' }, async () => {
      opened = true;
      throw new Error('the engine was opened');
    });
    await expect(started).rejects.toThrow(/table 't': optimize_cutoff must be a positive integer \(got 'many'\)/);
    expect(opened).toBe(false);
  });
});
