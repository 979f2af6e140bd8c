// /search "script_fields" checked as searchd 29's ParseScriptFields (sphinxjsonquery.cpp), in its order and
// with its texts; `lang`, `params`, `stored` and `file` are named as not supported. quarry answered every
// malformed entry with its own `"script_fields" "a" should have "script" with "inline"`, took an empty
// name as a column named "", and ran scripts with `lang` / `params` as if they were not there.
import { parse } from 'lossless-json';
import { expect, it } from 'vitest';
import { newSession, type JsonValue } from '../../../../src/engine/index.js';
import { useTempEngine } from '../../../helpers/temp-engine.js';

const t = useTempEngine('script-fields-errors', async (t) => {
  await t.exec('create table s (title text, price float)');
  await t.exec("insert into s (id, title, price) values (1, 'a b', 3.5)");
});

async function error(fields: string): Promise<string> {
  try {
    await t.engine.json!.search(parse(`{"table":"s","script_fields":${fields}}`) as JsonValue, newSession());
    return 'no error';
  } catch (e) {
    return (e as Error).message;
  }
}

it("malformed script_fields get searchd's texts", async () => {
  expect(await error('5')).toBe('"script_fields" property should be an object');
  expect(await error('{"a":5}')).toBe('"script_fields" properties should be objects');
  expect(await error('{"":{"script":{"inline":"1"}}}')).toBe('"script_fields" empty property name');
  expect(await error('{"a":{}}')).toBe('"script_fields" property should have "script" object');
  expect(await error('{"a":{"script":{}}}')).toBe('"inline" property missing');
  expect(await error('{"a":{"script":"price*2"}}')).toBe('"inline" property missing');
  expect(await error('{"a":{"script":{"inline":5}}}')).toBe('"inline" property value should be a string');
  expect(await error('{"a":{"script":{"inline":""}}}')).toBe('"inline" property empty');
});

it('lang, params, stored and file are not supported, by name', async () => {
  for (const key of ['lang', 'params', 'stored', 'file']) {
    expect(await error(`{"a":{"script":{"inline":"price*2","${key}":"x"}}}`)).toBe(`"${key}" property not supported in "script_fields"`);
  }
  expect(await error('{"a":{"script":{"inline":"price*2"}}}')).toBe('no error');
});
