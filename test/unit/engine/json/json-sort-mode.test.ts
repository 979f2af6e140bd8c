// /search "sort" as searchd 29 reads it (sphinxjsonquery.cpp ParseSort, ParseSortObj, FormatSortBy):
// `"mode": "min" | "max"` sorts an MVA by LEAST() / GREATEST() of its values; a JSON attribute's path
// (`"meta.k"`) is a sort key as in ORDER BY; `missing`, `nested_path`, `nested_filter` and `_script` are
// named as not supported; malformed items get searchd's texts. quarry ignored `mode` and every other key
// of a sort object (a silently different order), refused JSON paths (`sort-by attribute 'j.k' not found`)
// and answered malformed items with its own `invalid "sort" property item`.
import { parse } from 'lossless-json';
import { expect, it } from 'vitest';
import { newSession, type JsonValue } from '../../../../src/engine/index.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('json-sort-mode', async (t) => {
  await t.exec('create table s (title text, price float, tags multi, j json)');
  await t.exec(`insert into s (id, price, tags, j) values (1, 3.5, (1, 9), '{"k":2}'), (2, 1.5, (3, 5), '{"k":1}'), (3, 2.5, (2, 4), '{"k":3}')`);
});

async function ids(sort: string): Promise<unknown[]> {
  const r = await t.engine.json!.search(parse(`{"table":"s","sort":${sort}}`) as JsonValue, newSession());
  return r.rows.map((row) => row[0]);
}

async function error(sort: string): Promise<string> {
  try {
    await ids(sort);
    return 'no error';
  } catch (e) {
    return (e as Error).message;
  }
}

it('mode min / max sorts an MVA by its least / greatest value, as ORDER BY LEAST() / GREATEST()', async () => {
  expect(await ids('[{"tags":{"order":"asc","mode":"min"}}]')).toEqual([1n, 3n, 2n]);
  expect(await ids('[{"tags":{"order":"asc","mode":"max"}}]')).toEqual([3n, 2n, 1n]);
  expect(await ids('[{"tags":{"order":"desc","mode":"max"}}]')).toEqual([1n, 2n, 3n]);
  expect(await t.rows('select id from s order by greatest(tags) desc')).toEqual([[1n], [2n], [3n]]);
});

it("a JSON attribute's path is a sort key", async () => {
  expect(await ids('[{"j.k":"asc"}]')).toEqual([2n, 1n, 3n]);
  expect(await ids('["j.k"]')).toEqual([2n, 1n, 3n]);
  expect(await ids('[{"j.k":{"order":"desc"}}]')).toEqual([3n, 1n, 2n]);
});

it("refuses what searchd refuses, with searchd's texts", async () => {
  expect(await error('[{"price":{"order":"asc","mode":"avg"}}]')).toBe('"mode" supported are "min" and "max", got "avg", not supported');
  expect(await error('[{"price":{"mode":5}}]')).toBe('"mode" supported are "min" and "max", got "", not supported');
  expect(await error('[{"price":{"order":"asc","mode":5}}]')).toBe('"mode" property "order" order is invalid');
  expect(await error('[{"price":{"missing":"_last"}}]')).toBe('"missing" property not supported');
  expect(await error('[{"price":{"nested_path":"x"}}]')).toBe('"nested_path" property not supported');
  expect(await error('{"_script":{}}')).toBe('"_script" property not supported');
  expect(await error('[5]')).toBe('"sort" property "" should be a string or an object');
  expect(await error('[{"price":"asc","id":"desc"}]')).toBe('"sort" property "" should be an object');
  expect(await error('[{"price":5}]')).toBe('"sort" property 0("price") should be an object');
  expect(await error('{}')).toBe('"sort" property 0("") should be an object');
});

it('refuses a key searchd would skip, naming it (no silently different order)', async () => {
  expect(await error('[{"price":{"unmapped_type":"long"}}]')).toBe('unknown property "unmapped_type" in "sort" property "price"');
});
