// JSON attribute values as searchd shows them: SELECT j.k (searchd.cpp JSON_FIELD_PTR: unquoted strings, 1/0, NULL,
// doubles as %lf) and the whole attribute in SELECT j and /search _source (doubles as %lf, no whitespace).
import { describe, expect, it } from 'vitest';
import { cellToRawJson, cellToSourceJson, cellToSqlText, RawJson } from '../../../../src/engine/values/cell-format.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('quarry-json-shown-', async (t) => {
  await t.exec('CREATE TABLE j (title text, j json)');
  await t.exec(`INSERT INTO j (id, title, j) VALUES (1, 'a', '{ "d": 0.1, "w": 100.0, "e": 1e21, "s": "v1.5", "b": true, "f": false, "n": null, "i": 9007199254740993, "a": [1, 2.5] }')`);
});

describe('SELECT j.k', () => {
  it('shows scalars as searchd does', async () => {
    expect(await t.rows('SELECT j.d, j.w, j.e, j.s, j.b, j.f, j.n, j.i, j.a FROM j')).toEqual([
      ['0.100000', '100.000000', '1000000000000000000000.000000', 'v1.5', '1', '0', null, '9007199254740993', '[1,2.5]'],
    ]);
  });
});

describe('the whole JSON attribute', () => {
  it('prints doubles as %lf and drops whitespace over MySQL, /sql and /search _source', async () => {
    const [[cell]] = await t.rows('SELECT j FROM j');
    const want = '{"d":0.100000,"w":100.000000,"e":1000000000000000000000.000000,"s":"v1.5","b":true,"f":false,"n":null,"i":9007199254740993,"a":[1,2.500000]}';
    expect(cellToSqlText(cell as string, 'json')).toBe(want);
    expect(cellToRawJson(cell as string, 'json')).toBe(want);
    expect(cellToSourceJson(cell as string, 'json')).toEqual(new RawJson(want));
    const [[arr]] = await t.rows('SELECT j.a FROM j');
    expect(cellToSqlText(arr as string, 'json')).toBe('[1,2.500000]');
  });
});
