// Faults the fuzzer found in the engine (test/fuzz), each now a clear error or a defined result.
import { describe, expect, it } from 'vitest';
import { cellToRawJson, cellToSourceJson } from '../../../src/engine/values/cell-format.js';
import { printedJsonNumber } from '../../../src/engine/json/json-print.js';
import { useTempEngine } from '../../helpers/temp-engine.js';

const t = useTempEngine('quarry-fuzz-found-');

describe('engine faults found by fuzzing', () => {
  it('refuses a table name with a lone surrogate (JSON "\\ud800"), which no folder can name and which kept the server from restarting', async () => {
    const [res] = await t.exec('CREATE TABLE `bad\ud800x` (title text)');
    expect(res).toMatchObject({ kind: 'error', message: 'CREATE TABLE failed: table name is not valid UTF-8 (a lone surrogate)' });
    const [auto] = await t.exec("INSERT INTO `bad\udc00` (id, title) VALUES (1, 'x')");
    expect(auto).toMatchObject({ kind: 'error', message: expect.stringMatching(/not valid UTF-8/) });
  });

  it('refuses table names Manticore refuses (spaces, punctuation, control characters, digits alone) by SQL, auto schema and JSON, and creates nothing', async () => {
    for (const bad of ['`a b`', '`a-b`', '`x\u0000 y`', '`12`', '`a\u2028`', '`\ufefft`']) {
      const [res] = await t.exec(`CREATE TABLE ${bad} (title text)`);
      expect(res).toMatchObject({ kind: 'error', message: expect.stringContaining('is not valid: use letters, digits and underscores') });
      const [auto] = await t.exec(`INSERT INTO ${bad} (id, title) VALUES (1, 'x')`);
      expect(auto).toMatchObject({ kind: 'error' });
    }
    expect(await t.rows('SHOW TABLES')).toEqual([]);
    for (const good of ['t_1', '_x', '`2026_архив`', '`Über`']) {
      const [res] = await t.exec(`CREATE TABLE ${good} (title text)`);
      expect(res, good).toMatchObject({ kind: 'ok' });
    }
  });

  it('UPDATE of a JSON path on a row whose JSON is a scalar replaces it by an object', async () => {
    await t.exec('CREATE TABLE fz (title text, j json)');
    await t.exec("INSERT INTO fz (id, title, j) VALUES (1, 'quick', '{\"a\":[1,2]}')");
    await t.exec('UPDATE fz SET j = -2147483649 WHERE id = 1');
    const [res] = await t.exec('UPDATE fz SET j.a = 614 WHERE id = 1');
    expect(res).toMatchObject({ kind: 'ok', affected: 1 });
    expect(await t.rows('SELECT j FROM fz')).toEqual([['{"a":614}']]);
  });

  it('stores an infinite float given to a JSON column as null, so every answer stays valid JSON', async () => {
    await t.exec('CREATE TABLE fz (title text, j json)');
    await t.exec("INSERT INTO fz (id, title, j) VALUES (1, 'a', -1e309)");
    await t.exec('INSERT INTO fz (id, title, j) VALUES (2, \'b\', 1)');
    await t.exec('UPDATE fz SET j = 1e309 WHERE id = 2');
    expect(await t.rows('SELECT id, j FROM fz ORDER BY id ASC')).toEqual([[1n, 'null'], [2n, 'null']]);
  });

  it('prints an infinite number inside a stored JSON object as null, so the answer stays valid JSON (fuzz json#1386, /search)', () => {
    expect(printedJsonNumber('-1e999')).toBe('null');
    expect(printedJsonNumber('1e400')).toBe('null');
    expect(printedJsonNumber('1.5')).toBe('1.500000');
    // the printed object (JSON _source and highlight answers) reads back
    expect(JSON.parse(`{"fox":${printedJsonNumber('-1e999')}}`)).toEqual({ fox: null });
  });

  it('compares the id with an infinite float bound (1e309) as with the ends of its range', async () => {
    await t.exec('CREATE TABLE fz (title text)');
    await t.exec("INSERT INTO fz (id, title) VALUES (1, 'a'), (2, 'b')");
    expect(await t.rows('SELECT id FROM fz WHERE id > -1e309 ORDER BY id ASC')).toEqual([[1n], [2n]]);
    expect(await t.rows('SELECT id FROM fz WHERE id < 1e309 AND id >= 2')).toEqual([[2n]]);
    expect(await t.rows('SELECT id FROM fz WHERE id > 1e309')).toEqual([]);
  });

  it('renders an infinite float attribute in JSON _source as null', () => {
    expect(cellToSourceJson(-Infinity, 'float')).toBeNull();
    expect(cellToSourceJson(Infinity, 'float')).toBeNull();
    expect(cellToSourceJson(1.5, 'float')).toMatchObject({ text: '1.500000' });
    // finite as a double, infinite as the 32-bit float the answer prints (SELECT 1e308 FROM t)
    expect(cellToSourceJson(1e308, 'float')).toBeNull();
    expect(cellToRawJson(-1e308, 'float')).toBeNull();
    expect(cellToRawJson(3.0e38, 'float')).not.toBeNull();
  });

  it('refuses a table name longer than 200 bytes, by SQL and by auto schema, and creates nothing', async () => {
    const long = 't' + 'x'.repeat(3000);
    const [create] = await t.exec(`CREATE TABLE ${long} (title text)`);
    expect(create).toMatchObject({ kind: 'error', message: expect.stringContaining('table name is longer than 200 bytes') });
    const [insert] = await t.exec(`INSERT INTO ${long} (id, title) VALUES (1, 'a')`);
    expect(insert).toMatchObject({ kind: 'error', message: expect.stringContaining('table name is longer than 200 bytes') });
    expect(await t.rows('SHOW TABLES')).toEqual([]);
    const ok = 't'.repeat(200);
    const [fits] = await t.exec(`CREATE TABLE ${ok} (title text)`);
    expect(fits).toMatchObject({ kind: 'ok' });
    await t.exec(`INSERT INTO ${ok} (id, title) VALUES (1, 'a')`);
    await t.engine.close();
  });
});
