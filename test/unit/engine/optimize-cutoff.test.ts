// optimize_cutoff as a table setting (CREATE / ALTER TABLE, SHOW CREATE TABLE, restart) and searchd
// auto_optimize read from a config by open(): the values index-factory.ts turns into the idle cutoff;
// a config file's table section with a bad optimize_cutoff refused as CREATE TABLE refuses it.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { open } from '../../../src/index.js';
import { idleCutoffOf, setAutoOptimize } from '../../../src/engine/index-factory.js';
import { autoOptimizeOf, startServer } from '../../../src/server/server.js';
import { configTables } from '../../../src/server/config-tables.js';
import { parseConfig } from '../../../src/server/config-parser.js';

const dirs: string[] = [];
afterEach(() => {
  setAutoOptimize(1);
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

  it("open(dir, { configPath }) applies the config's auto_optimize to every table", async () => {
    const dir = tempDir();
    const configPath = join(dir, 'manticore.conf');
    writeFileSync(configPath, 'searchd {\n  auto_optimize = 0\n}\n');
    const db = await open(join(dir, 'data'), { configPath });
    expect(idleCutoffOf({ optimize_cutoff: '4' })).toBe(0);
    await db.close();
    writeFileSync(configPath, 'searchd {\n  auto_optimize = 2\n}\n');
    const db2 = await open(join(dir, 'data'), { configPath });
    expect(idleCutoffOf({ optimize_cutoff: '4' })).toBe(8);
    expect(idleCutoffOf({})).toBe(4);
    expect(idleCutoffOf({ optimize_cutoff: 'many' })).toBe(4); // an unchecked config section's bad value: the default
    await db2.close();
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
